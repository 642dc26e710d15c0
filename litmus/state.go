package litmus

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/internal/state"
	"github.com/purr-mcm/purr/source"
)

// ParseInit parses the initial state (the text between the braces).
func ParseInit(sec Section) ([]InitEntry, error) {
	items, err := state.ParseInit(sec.File, sec.Src, sec.Start, sec.End)
	if err != nil {
		if err := herdSystemStateError(sec); err != nil {
			return nil, err
		}
		return nil, err
	}
	b := &stateBuilder{}
	var out []InitEntry
	for _, item := range items {
		if e, ok := b.initItem(item); ok {
			out = append(out, e)
		}
	}
	return out, b.errs.Err()
}

// Constraints is the parsed final part of a test.
type Constraints struct {
	Locations []LocItem
	Filter    Prop
	Quant     Quantifier
	Cond      Prop
	Pos       source.Pos
}

// ParseConstraints parses the final part: locations, filter, condition.
func ParseConstraints(sec Section) (*Constraints, error) {
	tree, err := state.ParseConstraints(sec.File, sec.Src, sec.Start, sec.End)
	if err != nil {
		if err := herdSystemStateError(sec); err != nil {
			return nil, err
		}
		return nil, err
	}
	b := &stateBuilder{}
	c := &Constraints{Quant: Forall, Cond: Bool{Value: true}, Pos: sec.StartPos()}
	for _, it := range tree.Locations {
		c.Locations = append(c.Locations, b.locItem(it))
	}
	if tree.Filter != nil {
		c.Filter = b.prop(tree.Filter)
	}
	if tree.Quant != state.NoQuant {
		c.Quant, c.Cond, c.Pos = Exists, b.prop(tree.Cond), tree.Pos
		switch tree.Quant {
		case state.Forall:
			c.Quant = Forall
		case state.NotExists:
			c.Quant = NotExists
		}
	}
	return c, b.errs.Err()
}

// stateBuilder checks the syntax tree of the initial state or the final
// part and builds our types from it, collecting errors with positions.
type stateBuilder struct {
	errs source.ErrorList
}

func (b *stateBuilder) errorf(pos source.Pos, format string, args ...any) {
	b.errs.Add(pos, format, args...)
}

func (b *stateBuilder) initItem(item state.InitItem) (InitEntry, bool) {
	e := InitEntry{Pos: item.Pos}
	switch item.Form {
	case state.TypedInit:
		e.Type, e.Atomic, e.Pointer = item.Type, item.Atomic, item.Star
		e.Loc = b.location(item.Loc)
		e.Value = b.initValue(item.Value)
	case state.PointerInit:
		e.Pointer = true
		e.Loc = b.location(item.Loc)
		e.Value = b.initValue(item.Value)
	case state.ArrayInit:
		e.Type = item.Type
		e.Loc = Loc{Kind: GlobalLoc, Name: item.Loc.Name, Pos: item.Loc.Pos}
		b.checkSymbol(e.Loc.Name, e.Loc.Pos)
		n, ok := b.num(item.Size)
		if !ok {
			return e, false
		}
		if n <= 0 {
			b.errorf(item.Size.Pos, "array %s needs a positive size, not %d", e.Loc.Name, n)
			return e, false
		}
		e.ArrayLen = int(n)
		if item.Value != nil {
			arr := b.value(*item.Value)
			if len(arr.Elems) != e.ArrayLen {
				b.errorf(arr.Pos, "array %s is declared with %d cells but initialised with %d values", e.Loc.Name, e.ArrayLen, len(arr.Elems))
				return e, false
			}
			e.Value = &arr
		}
	case state.ArrayCellInit:
		b.errorf(e.Pos, "unsupported initialisation of a single array cell (herd rejects it too: write %s[N]={...} in its declaration)", item.Loc.Name)
		return e, false
	case state.PlainInit:
		e.Loc = b.location(item.Loc)
		e.Value = b.initValue(item.Value)
	}
	return e, true
}

// initValue builds an initial value; nil for none.
func (b *stateBuilder) initValue(v *state.Value) *Value {
	if v == nil {
		return nil
	}
	if v.Kind == state.MacroValue {
		// herd reads the Linux kernel's ATOMIC_INIT(v) as v.
		if v.Name != "ATOMIC_INIT" {
			b.errorf(v.Pos, "unsupported initial value %s(...) (herd7 knows ATOMIC_INIT only)", v.Name)
		}
		v = v.Arg
	}
	val := b.value(*v)
	return &val
}

func instrValue(tok string, pos source.Pos) Value {
	text := strings.TrimSuffix(strings.TrimPrefix(tok, `instr:"`), `"`)
	return Value{Kind: InstrValue, Sym: text, Pos: pos}
}

// value builds a value of the initial state or the condition; a location
// as a value (RegRefValue, DerefValue) is atom's.
func (b *stateBuilder) value(v state.Value) Value {
	switch v.Kind {
	case state.NumValue:
		n, _ := b.num(v.Num)
		text := v.Num.Text
		return Value{Kind: IntValue, Int: n, Hex: strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X"), Text: text, Pos: v.Pos}
	case state.SymValue:
		b.checkSymbol(v.Name, v.Pos)
		return Value{Kind: AddrValue, Sym: v.Name, Tag: v.Tag, Pos: v.Pos}
	case state.IndexedSymValue:
		n, _ := b.num(v.Num)
		b.checkSymbol(v.Name, v.Pos)
		return Value{Kind: AddrValue, Sym: v.Name, Index: int(n), Pos: v.Pos}
	case state.TagValue:
		return Value{Kind: TagValue, Sym: v.Name, Pos: v.Pos}
	case state.InstrValue:
		return instrValue(v.Text, v.Pos)
	case state.NopValue:
		return Value{Kind: InstrValue, Sym: "NOP", Pos: v.Pos}
	case state.LabelValue:
		proc, _ := strconv.Atoi(strings.TrimPrefix(v.Proc, "P"))
		return Value{Kind: LabelValue, Index: proc, Sym: v.Name, Pos: v.Pos}
	case state.ListValue:
		arr := Value{Kind: ArrayValue, Pos: v.Pos}
		for _, e := range v.Elems {
			arr.Elems = append(arr.Elems, b.value(e))
		}
		return arr
	}
	return Value{Pos: v.Pos}
}

// num reads a decimal or hexadecimal literal as a 64-bit pattern.
func (b *stateBuilder) num(t state.Token) (int64, bool) {
	n, err := ParseInt(t.Text)
	if err != nil {
		b.errorf(t.Pos, "%v", err)
		return 0, false
	}
	return n, true
}

// ParseInt reads a litmus integer: decimal (possibly negative) or 0x hex,
// anything that fits in 64 bits, signed or not; the result is the 64-bit
// pattern.
func ParseInt(text string) (int64, error) {
	if n, err := strconv.ParseInt(text, 0, 64); err == nil {
		return n, nil
	}
	u, err := strconv.ParseUint(text, 0, 64)
	if err != nil {
		return 0, &strconv.NumError{Func: "value", Num: text, Err: strconv.ErrRange}
	}
	return int64(u), nil
}

// checkSymbol refuses a location or address herd7 reads as a page-table
// entry or a physical address (pte_x, phy_x).
func (b *stateBuilder) checkSymbol(name string, pos source.Pos) {
	if msg := herdSystemSymbol(name); msg != "" {
		b.errorf(pos, "%s", msg)
	}
}

func (b *stateBuilder) location(l state.Loc) Loc {
	switch l.Kind {
	case state.GlobalLoc:
		b.checkSymbol(l.Name, l.Pos)
		return Loc{Kind: GlobalLoc, Name: l.Name, Tag: l.Tag, Pos: l.Pos}
	case state.RegLoc:
		proc, err := strconv.Atoi(strings.TrimPrefix(l.Proc, "P"))
		if err != nil || proc < 0 {
			b.errorf(l.Pos, "bad process number %q", l.Proc)
		}
		return Loc{Kind: RegLoc, Proc: proc, Name: l.Name, Pos: l.Pos}
	case state.SymRegLoc:
		return Loc{Kind: SymRegLoc, Name: strings.TrimPrefix(l.Name, "%"), Pos: l.Pos}
	case state.CellLoc:
		n, _ := b.num(l.Index)
		out := Loc{Kind: IndexLoc, Name: l.Name, Index: int(n), Pos: l.Pos}
		b.checkSymbol(out.Name, out.Pos)
		return out
	}
	return Loc{Pos: l.Pos}
}

func (b *stateBuilder) locItem(it state.LocItem) LocItem {
	if it.Fault != nil {
		return LocItem{Fault: b.fault(it.Fault)}
	}
	out := LocItem{Loc: b.location(it.Loc), Type: it.Type}
	if it.Star {
		out.Type += "*"
	}
	return out
}

func (b *stateBuilder) fault(f *state.Fault) *Fault {
	proc, _ := strconv.Atoi(strings.TrimPrefix(f.Proc, "P"))
	return &Fault{Proc: proc, Label: f.Label, Args: f.Args, Pos: f.Pos}
}

func (b *stateBuilder) prop(p state.Prop) Prop {
	switch p := p.(type) {
	case state.Not:
		return Not{X: b.prop(p.X)}
	case state.Implies:
		return Implies{X: b.prop(p.X), Y: b.prop(p.Y)}
	case state.And:
		return And{X: b.prop(p.X), Y: b.prop(p.Y)}
	case state.Or:
		return Or{X: b.prop(p.X), Y: b.prop(p.Y)}
	case state.Bool:
		return Bool{Value: p.Value}
	case *state.Fault:
		return b.fault(p)
	case state.Atom:
		return b.atom(p)
	}
	return Bool{Value: false}
}

func (b *stateBuilder) atom(a state.Atom) Prop {
	loc := b.location(a.Loc)
	var p Prop
	switch v := a.Value; v.Kind {
	case state.DerefValue:
		p = LocEq{X: loc, Y: b.location(*v.Loc), Pos: a.Pos}
	case state.RegRefValue:
		proc, _ := ParseInt(v.Proc)
		p = LocEq{X: loc, Y: Loc{Kind: RegLoc, Proc: int(proc), Name: v.Name, Pos: v.Pos}, Pos: a.Pos}
	default:
		p = Eq{Loc: loc, Value: b.value(v), Pos: a.Pos}
	}
	if a.Negated {
		if _, ok := p.(LocEq); ok {
			// herd's grammar compares two locations with = and == only.
			b.errorf(a.Cmp.Pos, "unsupported %s between two locations (herd7 compares locations with = or ==: write not (%s))", a.Cmp.Text, FormatProp(p))
			return Bool{Value: false}
		}
		p = Not{X: p}
	}
	return p
}
