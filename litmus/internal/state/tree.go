package state

import "github.com/purr-mcm/purr/source"

// Token is a token as written, with its position.
type Token struct {
	Text string
	Pos  source.Pos
}

// InitForm says which form an item of the initial state takes.
type InitForm int

// The forms of an initial-state item.
const (
	PlainInit     InitForm = iota // loc or loc=v
	TypedInit                     // [_Atomic] type [*] loc [= v]
	PointerInit                   // *loc [= v]
	ArrayInit                     // type a[n] [= {v,...}]
	ArrayCellInit                 // a[n] = v
)

// InitItem is one item of the initial state.
type InitItem struct {
	Pos    source.Pos
	Form   InitForm
	Atomic bool   // TypedInit: _Atomic
	Star   bool   // TypedInit: declared with a star
	Type   string // TypedInit, ArrayInit: the type name
	// Loc is the location: for ArrayInit and ArrayCellInit, the array (a
	// GlobalLoc at its name).
	Loc   Loc
	Size  Token  // ArrayInit, ArrayCellInit: n
	Value *Value // nil: none; ArrayInit: a ListValue
}

// LocKind says what a Loc names.
type LocKind int

// The kinds of locations.
const (
	GlobalLoc LocKind = iota // x, x:tag
	RegLoc                   // P:R (Proc as written: "P0" or "0")
	SymRegLoc                // %name
	CellLoc                  // a[i], in a condition
)

// Loc is a location of the initial state or of the final part.
type Loc struct {
	Pos   source.Pos
	Kind  LocKind
	Proc  string // RegLoc: the process as written
	Name  string // the location, the register (RegLoc: as written, a symbolic one with its %), the array
	Tag   string // GlobalLoc: x:tag
	Index Token  // CellLoc: i
}

// ValueKind says what a Value is.
type ValueKind int

// The kinds of values.
const (
	NumValue        ValueKind = iota // a decimal or hexadecimal literal (Num)
	SymValue                         // x, x:tag: an address
	IndexedSymValue                  // x[i]
	TagValue                         // :tag
	MacroValue                       // MACRO(v), initial state only: Name(Arg)
	InstrValue                       // instr:"..." (Text: the token)
	NopValue                         // NOP
	LabelValue                       // P1:L0 (Proc as written, Name the label)
	ListValue                        // {v,...}: an array's cells (Elems)
	RegRefValue                      // 1:r0, condition only: another register (Proc as written)
	DerefValue                       // *loc, condition only: another location (Loc)
)

// Value is a value of the initial state or of the condition.
type Value struct {
	Pos   source.Pos
	Kind  ValueKind
	Num   Token   // NumValue: the literal; IndexedSymValue: the index
	Text  string  // InstrValue: the token as written
	Proc  string  // LabelValue, RegRefValue: the process as written
	Name  string  // SymValue, IndexedSymValue, TagValue: the name; MacroValue: the macro; LabelValue: the label; RegRefValue: the register
	Tag   string  // SymValue: x:tag
	Arg   *Value  // MacroValue: the argument
	Elems []Value // ListValue
	Loc   *Loc    // DerefValue
}

// Constraints is the final part of a test.
type Constraints struct {
	Locations []LocItem
	Filter    Prop // nil: none
	Quant     Quant
	Cond      Prop       // nil when Quant is NoQuant
	Pos       source.Pos // of the condition
}

// Quant is how the condition is introduced.
type Quant int

// The ways to introduce a condition.
const (
	NoQuant   Quant = iota // no condition
	Forall                 // forall p
	Exists                 // exists p
	NotExists              // ~exists p
	Final                  // final p
	Bare                   // (p)
)

// LocItem is one entry of the locations [...] clause: a location with an
// optional type, or a fault.
type LocItem struct {
	Loc   Loc
	Type  string // "" when none
	Star  bool   // the type ends with a star
	Fault *Fault // non-nil: the item is fault(...)
}

// Prop is a proposition of the filter or the condition.
type Prop interface{ isProp() }

// Bool is true or false.
type Bool struct{ Value bool }

// Not is not p or ~p.
type Not struct{ X Prop }

// And is p /\ q.
type And struct{ X, Y Prop }

// Or is p \/ q.
type Or struct{ X, Y Prop }

// Implies is p => q.
type Implies struct{ X, Y Prop }

// Atom compares a location with a value: loc=v, loc==v, loc!=v, loc<>v.
type Atom struct {
	Pos     source.Pos
	Loc     Loc
	Cmp     Token // the operator
	Negated bool  // != or <>
	Value   Value
}

// Fault is fault(P0:L0,args...).
type Fault struct {
	Pos   source.Pos
	Proc  string // as written: "P0"
	Label string // "" when none
	Args  []string
}

func (Bool) isProp()    {}
func (Not) isProp()     {}
func (And) isProp()     {}
func (Or) isProp()      {}
func (Implies) isProp() {}
func (Atom) isProp()    {}
func (*Fault) isProp()  {}
