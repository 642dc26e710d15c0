package litmus

import (
	"strconv"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	sp "github.com/purr-mcm/purr/litmus/internal/stateparser"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// stateBuilder turns parse trees of the State grammar into our types,
// collecting errors with positions.
type stateBuilder struct {
	file string
	errs source.ErrorList
}

func newStateParser(sec Section) (*sp.StateParser, *syntax.Listener) {
	l := syntax.NewListener(sec.File)
	lexer := sp.NewStateLexer(nil)
	sec.Feed(lexer.BaseLexer)
	parser := sp.NewStateParser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
	l.Attach(lexer, parser)
	return parser, l
}

// ParseInit parses the initial state (the text between the braces).
func ParseInit(sec Section) ([]InitEntry, error) {
	parser, l := newStateParser(sec)
	tree := parser.InitBlock()
	if len(l.Errs) > 0 {
		if err := herdSystemStateError(sec); err != nil {
			return nil, err
		}
		return nil, l.Errs.Err()
	}
	b := &stateBuilder{file: sec.File}
	var out []InitEntry
	for _, item := range tree.AllInitItem() {
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
	parser, l := newStateParser(sec)
	tree := parser.Constraints()
	if len(l.Errs) > 0 {
		if err := herdSystemStateError(sec); err != nil {
			return nil, err
		}
		return nil, l.Errs.Err()
	}
	b := &stateBuilder{file: sec.File}
	c := &Constraints{Quant: Forall, Cond: Bool{Value: true}, Pos: sec.StartPos()}
	if lc := tree.LocationsClause(); lc != nil {
		for _, it := range lc.AllLocItem() {
			c.Locations = append(c.Locations, b.locItem(it))
		}
	}
	if fc := tree.FilterClause(); fc != nil {
		c.Filter = b.prop(fc.Prop())
	}
	switch k := tree.Constr().(type) {
	case *sp.ForallConstrContext:
		c.Quant, c.Cond, c.Pos = Forall, b.prop(k.Prop()), b.pos(k)
	case *sp.ExistsConstrContext:
		c.Quant, c.Cond, c.Pos = Exists, b.prop(k.Prop()), b.pos(k)
	case *sp.NotExistsConstrContext:
		c.Quant, c.Cond, c.Pos = NotExists, b.prop(k.Prop()), b.pos(k)
	case *sp.FinalConstrContext:
		c.Quant, c.Cond, c.Pos = Exists, b.prop(k.Prop()), b.pos(k)
	case *sp.BareConstrContext:
		c.Quant, c.Cond, c.Pos = Exists, b.prop(k.Prop()), b.pos(k)
	}
	return c, b.errs.Err()
}

func (b *stateBuilder) pos(c antlr.ParserRuleContext) source.Pos { return syntax.CtxPos(b.file, c) }

func (b *stateBuilder) tokPos(t antlr.TerminalNode) source.Pos {
	return syntax.TokenPos(b.file, t.GetSymbol())
}

func (b *stateBuilder) errorf(pos source.Pos, format string, args ...any) {
	b.errs = append(b.errs, source.Errorf(pos, format, args...))
}

func (b *stateBuilder) initItem(item sp.IInitItemContext) (InitEntry, bool) {
	e := InitEntry{Pos: b.pos(item)}
	switch it := item.(type) {
	case *sp.TypedInitContext:
		e.Type = it.GetTypeName().GetText()
		e.Atomic = it.ATOMIC() != nil
		e.Pointer = it.GetStar() != nil
		e.Loc = b.leftLoc(it.LeftLoc())
		if v := it.InitValue(); v != nil {
			val := b.initValue(v)
			e.Value = &val
		}
	case *sp.UntypedPointerInitContext:
		e.Pointer = true
		e.Loc = b.leftLoc(it.LeftLoc())
		if v := it.InitValue(); v != nil {
			val := b.initValue(v)
			e.Value = &val
		}
	case *sp.ArrayInitContext:
		e.Type = it.GetTypeName().GetText()
		e.Loc = Loc{Kind: GlobalLoc, Name: it.GetArrayName().GetText(), Pos: syntax.TokenPos(b.file, it.GetArrayName())}
		b.checkSymbol(e.Loc.Name, e.Loc.Pos)
		n, ok := b.num(it.NUM())
		if !ok {
			return e, false
		}
		if n <= 0 {
			b.errorf(b.tokPos(it.NUM()), "array %s needs a positive size, not %d", e.Loc.Name, n)
			return e, false
		}
		e.ArrayLen = int(n)
		if vl := it.ValueList(); vl != nil {
			arr := Value{Kind: ArrayValue, Pos: b.pos(vl)}
			for _, v := range vl.AllValue() {
				arr.Elems = append(arr.Elems, b.value(v))
			}
			if len(arr.Elems) != e.ArrayLen {
				b.errorf(arr.Pos, "array %s is declared with %d cells but initialised with %d values", e.Loc.Name, e.ArrayLen, len(arr.Elems))
				return e, false
			}
			e.Value = &arr
		}
	case *sp.ArrayCellInitContext:
		b.errorf(e.Pos, "unsupported initialisation of a single array cell (herd rejects it too: write %s[N]={...} in its declaration)", it.GetArrayName().GetText())
		return e, false
	case *sp.PlainInitContext:
		e.Loc = b.leftLoc(it.LeftLoc())
		if v := it.InitValue(); v != nil {
			val := b.initValue(v)
			e.Value = &val
		}
	}
	return e, true
}

func (b *stateBuilder) initValue(c sp.IInitValueContext) Value {
	switch {
	case c.GetMacro() != nil:
		// herd reads the Linux kernel's ATOMIC_INIT(v) as v.
		if name := c.GetMacro().GetText(); name != "ATOMIC_INIT" {
			b.errorf(b.pos(c), "unsupported initial value %s(...) (herd7 knows ATOMIC_INIT only)", name)
		}
		return b.value(c.Value())
	case c.Value() != nil:
		return b.value(c.Value())
	case c.INSTR() != nil:
		return instrValue(c.INSTR().GetText(), b.pos(c))
	case c.NOP() != nil:
		return Value{Kind: InstrValue, Sym: "NOP", Pos: b.pos(c)}
	}
	proc, _ := strconv.Atoi(strings.TrimPrefix(c.PROC().GetText(), "P"))
	return Value{Kind: LabelValue, Index: proc, Sym: c.NAME().GetText(), Pos: b.pos(c)}
}

func instrValue(tok string, pos source.Pos) Value {
	text := strings.TrimSuffix(strings.TrimPrefix(tok, `instr:"`), `"`)
	return Value{Kind: InstrValue, Sym: text, Pos: pos}
}

func (b *stateBuilder) value(c sp.IValueContext) Value {
	pos := b.pos(c)
	switch v := c.(type) {
	case *sp.NumValueContext:
		n, _ := b.num(v.NUM())
		text := v.NUM().GetText()
		return Value{Kind: IntValue, Int: n, Hex: strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X"), Text: text, Pos: pos}
	case *sp.SymValueContext:
		val := Value{Kind: AddrValue, Sym: v.NAME(0).GetText(), Pos: pos}
		b.checkSymbol(val.Sym, pos)
		if v.GetTag() != nil {
			val.Tag = v.GetTag().GetText()
		}
		return val
	case *sp.IndexedSymValueContext:
		n, _ := b.num(v.NUM())
		b.checkSymbol(v.NAME().GetText(), pos)
		return Value{Kind: AddrValue, Sym: v.NAME().GetText(), Index: int(n), Pos: pos}
	case *sp.TagValueContext:
		return Value{Kind: TagValue, Sym: v.NAME().GetText(), Pos: pos}
	}
	return Value{Pos: pos}
}

// num reads a decimal or hexadecimal literal as a 64-bit pattern.
func (b *stateBuilder) num(t antlr.TerminalNode) (int64, bool) {
	n, err := ParseInt(t.GetText())
	if err != nil {
		b.errorf(b.tokPos(t), "%v", err)
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

func (b *stateBuilder) leftLoc(c sp.ILeftLocContext) Loc {
	if g := c.GlobalLoc(); g != nil {
		return b.globalLoc(g)
	}
	return b.location(c.Location())
}

func (b *stateBuilder) globalLoc(c sp.IGlobalLocContext) Loc {
	l := Loc{Kind: GlobalLoc, Name: c.NAME(0).GetText(), Pos: b.pos(c)}
	b.checkSymbol(l.Name, l.Pos)
	if c.GetTag() != nil {
		l.Tag = c.GetTag().GetText()
	}
	return l
}

func (b *stateBuilder) location(c sp.ILocationContext) Loc {
	switch l := c.(type) {
	case *sp.RegLocationContext:
		p := strings.TrimPrefix(l.GetProc().GetText(), "P")
		proc, err := strconv.Atoi(p)
		if err != nil || proc < 0 {
			b.errorf(b.pos(l), "bad process number %q", l.GetProc().GetText())
		}
		name := ""
		if l.NAME() != nil {
			name = l.NAME().GetText()
		} else {
			name = l.SYMREG().GetText()
		}
		return Loc{Kind: RegLoc, Proc: proc, Name: name, Pos: b.pos(l)}
	case *sp.SymbolicRegLocationContext:
		return Loc{Kind: SymRegLoc, Name: strings.TrimPrefix(l.SYMREG().GetText(), "%"), Pos: b.pos(l)}
	case *sp.GlobalLocationContext:
		return b.globalLoc(l.GlobalLoc())
	}
	return Loc{Pos: b.pos(c)}
}

func (b *stateBuilder) condLoc(c sp.ICondLocContext) Loc {
	if ll := c.LeftLoc(); ll != nil {
		return b.leftLoc(ll)
	}
	n, _ := b.num(c.NUM())
	l := Loc{Kind: IndexLoc, Name: c.GetArrayName().GetText(), Index: int(n), Pos: b.pos(c)}
	b.checkSymbol(l.Name, l.Pos)
	return l
}

func (b *stateBuilder) locItem(c sp.ILocItemContext) LocItem {
	if f := c.Fault(); f != nil {
		return LocItem{Fault: b.fault(f)}
	}
	it := LocItem{Loc: b.condLoc(c.CondLoc())}
	if c.GetTypeName() != nil {
		it.Type = c.GetTypeName().GetText()
	}
	if c.STAR() != nil {
		it.Type += "*"
	}
	return it
}

func (b *stateBuilder) fault(c sp.IFaultContext) *Fault {
	proc, _ := strconv.Atoi(strings.TrimPrefix(c.PROC().GetText(), "P"))
	f := &Fault{Proc: proc, Pos: b.pos(c)}
	if c.NAME() != nil {
		f.Label = c.NAME().GetText()
	}
	for _, a := range c.AllFaultArg() {
		f.Args = append(f.Args, a.GetText())
	}
	return f
}

func (b *stateBuilder) prop(c sp.IPropContext) Prop {
	switch p := c.(type) {
	case *sp.NotPropContext:
		return Not{X: b.prop(p.Prop())}
	case *sp.ImpliesPropContext:
		return Implies{X: b.prop(p.Prop(0)), Y: b.prop(p.Prop(1))}
	case *sp.AndPropContext:
		return And{X: b.prop(p.Prop(0)), Y: b.prop(p.Prop(1))}
	case *sp.OrPropContext:
		return Or{X: b.prop(p.Prop(0)), Y: b.prop(p.Prop(1))}
	case *sp.ParenPropContext:
		return b.prop(p.Prop())
	case *sp.TruePropContext:
		return Bool{Value: true}
	case *sp.FalsePropContext:
		return Bool{Value: false}
	case *sp.AtomPropContext:
		return b.atom(p.Atom())
	}
	b.errorf(b.pos(c), "unexpected proposition %q", c.GetText())
	return Bool{Value: false}
}

func (b *stateBuilder) atom(c sp.IAtomContext) Prop {
	switch a := c.(type) {
	case *sp.FaultAtomContext:
		return b.fault(a.Fault())
	case *sp.ValueAtomContext:
		loc := b.condLoc(a.CondLoc())
		pos := b.pos(a)
		cv := a.CondValue()
		var p Prop
		switch {
		case cv.STAR() != nil:
			p = LocEq{X: loc, Y: b.location(cv.Location()), Pos: pos}
		case cv.NUM() != nil && cv.NAME() != nil:
			proc, _ := ParseInt(cv.NUM().GetText())
			p = LocEq{X: loc, Y: Loc{Kind: RegLoc, Proc: int(proc), Name: cv.NAME().GetText(), Pos: b.pos(cv)}, Pos: pos}
		case cv.PROC() != nil:
			proc, _ := strconv.Atoi(strings.TrimPrefix(cv.PROC().GetText(), "P"))
			p = Eq{Loc: loc, Value: Value{Kind: LabelValue, Index: proc, Sym: cv.NAME().GetText(), Pos: b.pos(cv)}, Pos: pos}
		case cv.INSTR() != nil:
			p = Eq{Loc: loc, Value: instrValue(cv.INSTR().GetText(), b.pos(cv)), Pos: pos}
		case cv.NOP() != nil:
			p = Eq{Loc: loc, Value: Value{Kind: InstrValue, Sym: "NOP", Pos: b.pos(cv)}, Pos: pos}
		case cv.ValueList() != nil:
			arr := Value{Kind: ArrayValue, Pos: b.pos(cv)}
			for _, v := range cv.ValueList().AllValue() {
				arr.Elems = append(arr.Elems, b.value(v))
			}
			p = Eq{Loc: loc, Value: arr, Pos: pos}
		default:
			p = Eq{Loc: loc, Value: b.value(cv.Value()), Pos: pos}
		}
		if a.GetCmp().GetTokenType() == sp.StateParserNEQ {
			if _, ok := p.(LocEq); ok {
				// herd's grammar compares two locations with = and == only.
				b.errorf(b.tokPos(a.NEQ()), "unsupported %s between two locations (herd7 compares locations with = or ==: write not (%s))", a.GetCmp().GetText(), FormatProp(p))
				return Bool{Value: false}
			}
			p = Not{X: p}
		}
		return p
	}
	b.errorf(b.pos(c), "unexpected atom %q", c.GetText())
	return Bool{Value: false}
}
