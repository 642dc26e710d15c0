package litmus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// Test is a parsed litmus test: its header, initial state, program and
// final condition.
type Test struct {
	File string
	Arch string // "AArch64", "C", ...
	Name string
	Doc  string     // the quoted string after the header line, if any
	Info []KeyValue // the key=value lines before the initial state, in order

	Init    []InitEntry
	Program *xcfa.Program

	Locations []LocItem // the locations [...] clause: extra things to print in states
	Filter    Prop      // nil when there is no filter
	Quant     Quantifier
	Cond      Prop // never nil: a test without a condition is "forall true"
	CondPos   source.Pos

	// HashCode is the program as herd7 prints it to compute the test's
	// hash: per thread, its lines in herd7's canonical syntax. The dialect
	// sets it; nil means unknown (Hash then returns "").
	HashCode [][]string
	// hashInit and hashObserved are the other two parts of the hash,
	// printed by Parse from the state and condition as written.
	hashInit, hashObserved string
}

// KeyValue is one metadata line such as "Cycle=Rfe PodRR Fre".
type KeyValue struct {
	Key, Value string
	Pos        source.Pos
}

// InfoValue returns the value of the first metadata line with this key.
func (t *Test) InfoValue(key string) (string, bool) {
	for _, kv := range t.Info {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Quantifier is the kind of the final condition.
type Quantifier int

// The quantifiers, as herd names the test kinds they give: exists →
// Allowed, ~exists → Forbidden, forall → Required.
const (
	Exists Quantifier = iota
	NotExists
	Forall
)

func (q Quantifier) String() string {
	switch q {
	case NotExists:
		return "~exists"
	case Forall:
		return "forall"
	}
	return "exists"
}

// LocKind says what a Loc names.
type LocKind int

// The kinds of locations.
const (
	GlobalLoc LocKind = iota // a memory location x (written x or [x])
	RegLoc                   // a register P:R of a process
	IndexLoc                 // an array cell x[i]
	SymRegLoc                // a symbolic register %name (herd's telechat tests)
)

// Loc is a location of the initial state or of the condition.
type Loc struct {
	Kind  LocKind
	Proc  int    // RegLoc: the process number
	Name  string // the variable, register or array name
	Index int    // IndexLoc: the cell
	Tag   string // x:red (memory tagging); empty almost always
	Pos   source.Pos
}

// String prints the location as herd prints it in states and conditions.
func (l Loc) String() string {
	switch l.Kind {
	case RegLoc:
		return strconv.Itoa(l.Proc) + ":" + l.Name
	case IndexLoc:
		return l.Name + "[" + strconv.Itoa(l.Index) + "]"
	case SymRegLoc:
		return "%" + l.Name
	}
	if l.Tag != "" {
		return "[" + l.Name + ":" + l.Tag + "]"
	}
	return "[" + l.Name + "]"
}

// Key identifies the location regardless of its position.
func (l Loc) Key() Loc {
	l.Pos = source.Pos{}
	return l
}

// ValueKind says what a Value is.
type ValueKind int

// The kinds of values.
const (
	IntValue   ValueKind = iota // an integer
	AddrValue                   // the address of a location (Sym), plus an element index
	ArrayValue                  // {v0,v1,...}
	LabelValue                  // the address of a code label P1:L0
	InstrValue                  // instr:"B .+4" or NOP: an instruction as data
	TagValue                    // :green, a memory tag
)

// Value is a constant of the initial state or of the condition.
type Value struct {
	Kind  ValueKind
	Int   int64  // IntValue: the 64-bit pattern (0xFFFFFFFFFFFFFFFF is -1)
	Hex   bool   // IntValue: written in hexadecimal
	Text  string // IntValue: the literal as written ("0x10"), which herd's test hash prints
	Sym   string // AddrValue: the location; LabelValue: the label; InstrValue: the text; TagValue: the tag
	Index int    // AddrValue: x[Index]; LabelValue: the process
	Tag   string // AddrValue: x:red
	Elems []Value
	Pos   source.Pos
}

// String prints the value as herd prints it (decimal, signed 64-bit).
func (v Value) String() string {
	switch v.Kind {
	case AddrValue:
		s := v.Sym
		if v.Tag != "" {
			s += ":" + v.Tag
		}
		if v.Index != 0 {
			s += fmt.Sprintf("[%d]", v.Index)
		}
		return s
	case ArrayValue:
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = e.String()
		}
		return "{" + strings.Join(parts, ",") + "}"
	case LabelValue:
		return fmt.Sprintf("P%d:%s", v.Index, v.Sym)
	case InstrValue:
		if v.Sym == "NOP" {
			return "NOP"
		}
		return `instr:"` + v.Sym + `"`
	case TagValue:
		return ":" + v.Sym
	}
	return strconv.FormatInt(v.Int, 10)
}

// HexString prints an integer value in herd's hexadecimal style (0x...,
// the 64-bit pattern); other values print as String does.
func (v Value) HexString() string {
	if v.Kind != IntValue {
		return v.String()
	}
	return fmt.Sprintf("%#x", uint64(v.Int))
}

// InitEntry is one item of the initial state: "int64_t x=1", "0:X1=x",
// "uint64_t 0:X0", "int t[2]={1,2}", "int *p=&x".
type InitEntry struct {
	Loc      Loc
	Type     string // the declared type ("int", "uint64_t", "ins_t", ...); "" when none
	Pointer  bool   // declared with a star: the location holds an address
	Atomic   bool   // declared _Atomic
	ArrayLen int    // > 0: an array of this many cells
	Value    *Value // nil: zero (or all zeros for an array)
	Pos      source.Pos
}

// LocItem is one entry of the locations [...] clause.
type LocItem struct {
	Loc   Loc
	Type  string // an optional type ("ins_t")
	Fault *Fault // non-nil: the item is fault(...), not a location
}

// Prop is a proposition of the final condition or filter.
type Prop interface{ isProp() }

// Bool is true or false.
type Bool struct{ Value bool }

// Not negates a proposition; loc<>v and loc!=v parse as Not of an equality.
type Not struct{ X Prop }

// And is a conjunction.
type And struct{ X, Y Prop }

// Or is a disjunction.
type Or struct{ X, Y Prop }

// Implies is X => Y.
type Implies struct{ X, Y Prop }

// Eq says the final value of Loc is Value.
type Eq struct {
	Loc   Loc
	Value Value
	Pos   source.Pos
}

// LocEq says two locations hold the same final value (herd: loc == *loc).
type LocEq struct {
	X, Y Loc
	Pos  source.Pos
}

// Fault is herd's fault(P0:L0,Type): an instruction faulted.
type Fault struct {
	Proc  int
	Label string
	Args  []string
	Pos   source.Pos
}

func (Bool) isProp()    {}
func (Not) isProp()     {}
func (And) isProp()     {}
func (Or) isProp()      {}
func (Implies) isProp() {}
func (Eq) isProp()      {}
func (LocEq) isProp()   {}
func (*Fault) isProp()  {}

// Precedence levels for printing, as herd's parser binds them.
const (
	precOr = iota + 1
	precAnd
	precImplies
	precNot
	precAtom
)

// EachLoc calls f with every location proposition p compares, in the
// order they are written.
func EachLoc(p Prop, f func(Loc)) {
	switch p := p.(type) {
	case Not:
		EachLoc(p.X, f)
	case And:
		EachLoc(p.X, f)
		EachLoc(p.Y, f)
	case Or:
		EachLoc(p.X, f)
		EachLoc(p.Y, f)
	case Implies:
		EachLoc(p.X, f)
		EachLoc(p.Y, f)
	case Eq:
		f(p.Loc)
	case LocEq:
		f(p.X)
		f(p.Y)
	}
}

// FormatProp prints a proposition as herd prints conditions: "[x]=1 /\
// 0:X0=0", with parentheses only where precedence needs them.
func FormatProp(p Prop) string {
	var b strings.Builder
	writeProp(&b, p, 0, false)
	return b.String()
}

func propPrec(p Prop) int {
	switch p.(type) {
	case Or:
		return precOr
	case And:
		return precAnd
	case Implies:
		return precImplies
	case Not:
		return precNot
	}
	return precAtom
}

// FormatPropHex prints a proposition as herd7 -hexa does: integers in
// hexadecimal.
func FormatPropHex(p Prop) string {
	var b strings.Builder
	writeProp(&b, p, 0, true)
	return b.String()
}

func writeProp(b *strings.Builder, p Prop, min int, hex bool) {
	prec := propPrec(p)
	if prec < min {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch p := p.(type) {
	case Bool:
		if p.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Not:
		b.WriteString("not ")
		// herd always parenthesises the operand of not.
		b.WriteByte('(')
		writeProp(b, p.X, 0, hex)
		b.WriteByte(')')
	case And:
		writeProp(b, p.X, precAnd, hex)
		b.WriteString(" /\\ ")
		writeProp(b, p.Y, precAnd, hex)
	case Or:
		writeProp(b, p.X, precOr, hex)
		b.WriteString(" \\/ ")
		writeProp(b, p.Y, precOr, hex)
	case Implies:
		writeProp(b, p.X, precImplies+1, hex)
		b.WriteString(" => ")
		writeProp(b, p.Y, precImplies, hex)
	case Eq:
		if p.Value.Kind == ArrayValue && p.Loc.Kind == GlobalLoc {
			b.WriteString(p.Loc.Name)
		} else {
			b.WriteString(p.Loc.String())
		}
		b.WriteByte('=')
		if hex {
			b.WriteString(p.Value.HexString())
		} else {
			b.WriteString(p.Value.String())
		}
	case LocEq:
		b.WriteString(p.X.String())
		b.WriteByte('=')
		b.WriteString(p.Y.String())
	case *Fault:
		fmt.Fprintf(b, "fault(P%d", p.Proc)
		if p.Label != "" {
			b.WriteString(":" + p.Label)
		}
		for _, a := range p.Args {
			b.WriteString("," + a)
		}
		b.WriteByte(')')
	}
}

// ConditionString prints the condition as herd's "Condition" line does,
// without the word Condition: "exists ([x]=1 /\ 0:X0=0)".
func (t *Test) ConditionString() string {
	return t.Quant.String() + " (" + FormatProp(t.Cond) + ")"
}

// A Dialect is one architecture's front end, as its package registers it
// with RegisterDialect from its init function.
type Dialect struct {
	// Arch is the architecture as test headers name it: "AArch64", "C".
	Arch string
	// Translate turns the program part of a test into an XCFA. t already
	// holds the header, the initial state and the final part; Translate
	// may only rename registers in them to the names its XCFA uses
	// (AArch64: W1 and x1 become X1), and code labels of label values to
	// the canonical names its xcfa.Label constants use.
	Translate func(t *Test, prog Section, opts Options) (*xcfa.Program, error)
	// Model names purr's embedded model for tests of Arch when the run
	// chooses none ("" for none).
	Model string
	// HerdIncludes are the files herd7 7.57's default model for Arch
	// includes, directly or not: where herd7 would read one of them from
	// the include path, purr's embedded model cannot stand in for herd's.
	HerdIncludes []string
	// Layout is how the program section is written, which the splitter
	// needs before the dialect reads it.
	Layout Layout
	// Tags are the event tags this dialect's events may carry (its fences
	// and access annotations), which every model may name: purr defines
	// the tags of every registered dialect on every test, unlike herd7,
	// which defines an architecture's own only, because purr's classic
	// models name the fences of all of them at once
	// (models/fence-classes.cat); a tag no event carries is an empty set.
	Tags []string
	// Sample is a small test in the dialect, with the forms most tests
	// use, which Warm reads.
	Sample string
}

// Warm reads the Sample of arch's dialect, so that the first test of
// arch is not ANTLR's first parse: its grammars are deserialised and its
// prediction caches, which every parse shares, are filled. It is safe
// beside a parse; one process per test reads its test sooner when Warm
// ran while its model loaded.
func Warm(arch string) {
	if d, ok := dialects[arch]; ok && d.Sample != "" {
		Parse("sample.litmus", []byte(d.Sample))
	}
}

// Layout is how a dialect writes its program section.
type Layout int

const (
	// Columns: a table of threads, one column each (the assembly
	// dialects), in which "(*" opens a comment.
	Columns Layout = iota
	// Functions: one function a thread (C), in which "(*" is code: (*p).
	Functions
)

// Options are what a dialect may need beyond the test's text.
type Options struct {
	// Macros are herd7's macro definitions (-macros FILE.def) for the C
	// dialect: its *c.Macros, or nil for none.
	Macros MacroFile
	// Variants are the model variants of the run (-variant): herd's C
	// front end reads lkmmv2.
	Variants []string
}

// MacroFile is a dialect's parsed macro file.
type MacroFile interface {
	// Path is the file the macros come from.
	Path() string
}

var dialects = map[string]Dialect{}

// RegisterDialect makes Parse handle tests whose header names d.Arch.
// Dialect packages call it from their init function; a program gets every
// dialect by importing package litmus/dialects.
func RegisterDialect(d Dialect) {
	dialects[d.Arch] = d
}

// LookupDialect returns the dialect registered for arch.
func LookupDialect(arch string) (Dialect, bool) {
	d, ok := dialects[arch]
	return d, ok
}

// DialectTags returns the tags of every registered dialect, each once, in
// the order of the dialects' architectures.
func DialectTags() []string {
	archs := Dialects()
	slices.Sort(archs)
	var tags []string
	for _, a := range archs {
		for _, t := range dialects[a].Tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// Dialects lists the registered architectures.
func Dialects() []string {
	var names []string
	for n := range dialects {
		names = append(names, n)
	}
	return names
}

// RenameRegisters gives each register location of the initial state, the
// locations clause, the filter and the condition the name rename returns
// for it, in the order they are written; the first error stops it. A
// dialect uses it to bring the names its tests write (RAX) to the names its
// XCFA uses (rax), or to refuse a register it does not know.
func (t *Test) RenameRegisters(rename func(Loc) (string, error)) error {
	var err error
	fix := func(l *Loc) {
		if err != nil || l.Kind != RegLoc {
			return
		}
		var name string
		if name, err = rename(*l); err == nil {
			l.Name = name
		}
	}
	for i := range t.Init {
		fix(&t.Init[i].Loc)
	}
	for i := range t.Locations {
		fix(&t.Locations[i].Loc)
	}
	var walk func(p Prop) Prop
	walk = func(p Prop) Prop {
		switch q := p.(type) {
		case Not:
			return Not{X: walk(q.X)}
		case And:
			return And{X: walk(q.X), Y: walk(q.Y)}
		case Or:
			return Or{X: walk(q.X), Y: walk(q.Y)}
		case Implies:
			return Implies{X: walk(q.X), Y: walk(q.Y)}
		case Eq:
			fix(&q.Loc)
			return q
		case LocEq:
			fix(&q.X)
			fix(&q.Y)
			return q
		}
		return p
	}
	if t.Filter != nil {
		t.Filter = walk(t.Filter)
	}
	t.Cond = walk(t.Cond)
	return err
}
