package state

import (
	"github.com/antlr4-go/antlr/v4"

	sp "github.com/purr-mcm/purr/litmus/internal/stateparser"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// ParseInit reads the initial state, src[start:end] of file (the text
// between the braces). Its error is the syntax errors, positioned in the
// file.
func ParseInit(file string, src []byte, start, end int) ([]InitItem, error) {
	tree, err := parse(file, src, start, end, (*sp.StateParser).InitBlock)
	if err != nil {
		return nil, err
	}
	c := &converter{file: file}
	var out []InitItem
	for _, item := range tree.AllInitItem() {
		out = append(out, c.initItem(item))
	}
	return out, c.errs.Err()
}

// ParseConstraints reads the final part, src[start:end] of file:
// locations, filter, condition.
func ParseConstraints(file string, src []byte, start, end int) (*Constraints, error) {
	tree, err := parse(file, src, start, end, (*sp.StateParser).Constraints)
	if err != nil {
		return nil, err
	}
	c := &converter{file: file}
	out := &Constraints{}
	if lc := tree.LocationsClause(); lc != nil {
		for _, it := range lc.AllLocItem() {
			out.Locations = append(out.Locations, c.locItem(it))
		}
	}
	if fc := tree.FilterClause(); fc != nil {
		out.Filter = c.prop(fc.Prop())
	}
	var p sp.IPropContext
	switch k := tree.Constr().(type) {
	case *sp.ForallConstrContext:
		out.Quant, p = Forall, k.Prop()
	case *sp.ExistsConstrContext:
		out.Quant, p = Exists, k.Prop()
	case *sp.NotExistsConstrContext:
		out.Quant, p = NotExists, k.Prop()
	case *sp.FinalConstrContext:
		out.Quant, p = Final, k.Prop()
	case *sp.BareConstrContext:
		out.Quant, p = Bare, k.Prop()
	}
	if p != nil {
		out.Cond, out.Pos = c.prop(p), c.pos(tree.Constr())
	}
	return out, c.errs.Err()
}

// parse reads src[start:end] of file from the grammar's rule.
func parse[T any](file string, src []byte, start, end int, rule func(*sp.StateParser) T) (T, error) {
	lexer := sp.NewStateLexer(nil)
	return syntax.Parse(file, src, start, end, lexer, lexer.BaseLexer, sp.NewStateParser, rule)
}

// converter turns the parse tree into the syntax tree. A tree that parsed
// without errors has only the grammar's alternatives; errs holds what
// would be anything else.
type converter struct {
	file string
	errs source.ErrorList
}

func (c *converter) pos(ctx antlr.ParserRuleContext) source.Pos { return syntax.CtxPos(c.file, ctx) }

func (c *converter) token(t antlr.TerminalNode) Token {
	return Token{Text: t.GetText(), Pos: syntax.TokenPos(c.file, t.GetSymbol())}
}

func (c *converter) initItem(item sp.IInitItemContext) InitItem {
	e := InitItem{Pos: c.pos(item)}
	switch it := item.(type) {
	case *sp.TypedInitContext:
		e.Form, e.Type = TypedInit, it.GetTypeName().GetText()
		e.Atomic, e.Star = it.ATOMIC() != nil, it.GetStar() != nil
		e.Loc, e.Value = c.leftLoc(it.LeftLoc()), c.initValue(it.InitValue())
	case *sp.UntypedPointerInitContext:
		e.Form = PointerInit
		e.Loc, e.Value = c.leftLoc(it.LeftLoc()), c.initValue(it.InitValue())
	case *sp.ArrayInitContext:
		e.Form, e.Type = ArrayInit, it.GetTypeName().GetText()
		e.Loc = c.arrayName(it.GetArrayName())
		e.Size = c.token(it.NUM())
		if vl := it.ValueList(); vl != nil {
			e.Value = &Value{Kind: ListValue, Pos: c.pos(vl), Elems: c.values(vl)}
		}
	case *sp.ArrayCellInitContext:
		e.Form = ArrayCellInit
		e.Loc, e.Size, e.Value = c.arrayName(it.GetArrayName()), c.token(it.NUM()), c.initValue(it.InitValue())
	case *sp.PlainInitContext:
		e.Form = PlainInit
		e.Loc, e.Value = c.leftLoc(it.LeftLoc()), c.initValue(it.InitValue())
	default:
		c.errs.Add(e.Pos, "unexpected initial-state item %q", item.GetText())
	}
	return e
}

func (c *converter) arrayName(t antlr.Token) Loc {
	return Loc{Kind: GlobalLoc, Name: t.GetText(), Pos: syntax.TokenPos(c.file, t)}
}

func (c *converter) values(vl sp.IValueListContext) []Value {
	var out []Value
	for _, v := range vl.AllValue() {
		out = append(out, c.value(v))
	}
	return out
}

// initValue converts an initial value; nil for none.
func (c *converter) initValue(v sp.IInitValueContext) *Value {
	if v == nil {
		return nil
	}
	pos := c.pos(v)
	switch {
	case v.GetMacro() != nil:
		arg := c.value(v.Value())
		return &Value{Kind: MacroValue, Pos: pos, Name: v.GetMacro().GetText(), Arg: &arg}
	case v.Value() != nil:
		val := c.value(v.Value())
		return &val
	case v.INSTR() != nil:
		return &Value{Kind: InstrValue, Pos: pos, Text: v.INSTR().GetText()}
	case v.NOP() != nil:
		return &Value{Kind: NopValue, Pos: pos}
	}
	return &Value{Kind: LabelValue, Pos: pos, Proc: v.PROC().GetText(), Name: v.NAME().GetText()}
}

func (c *converter) value(v sp.IValueContext) Value {
	pos := c.pos(v)
	switch v := v.(type) {
	case *sp.NumValueContext:
		return Value{Kind: NumValue, Pos: pos, Num: c.token(v.NUM())}
	case *sp.SymValueContext:
		val := Value{Kind: SymValue, Pos: pos, Name: v.NAME(0).GetText()}
		if v.GetTag() != nil {
			val.Tag = v.GetTag().GetText()
		}
		return val
	case *sp.IndexedSymValueContext:
		return Value{Kind: IndexedSymValue, Pos: pos, Name: v.NAME().GetText(), Num: c.token(v.NUM())}
	case *sp.TagValueContext:
		return Value{Kind: TagValue, Pos: pos, Name: v.NAME().GetText()}
	}
	c.errs.Add(pos, "unexpected value %q", v.GetText())
	return Value{Kind: NumValue, Pos: pos, Num: Token{Text: "0", Pos: pos}}
}

func (c *converter) leftLoc(l sp.ILeftLocContext) Loc {
	if g := l.GlobalLoc(); g != nil {
		return c.globalLoc(g)
	}
	return c.location(l.Location())
}

func (c *converter) globalLoc(g sp.IGlobalLocContext) Loc {
	l := Loc{Kind: GlobalLoc, Name: g.NAME(0).GetText(), Pos: c.pos(g)}
	if g.GetTag() != nil {
		l.Tag = g.GetTag().GetText()
	}
	return l
}

func (c *converter) location(l sp.ILocationContext) Loc {
	switch l := l.(type) {
	case *sp.RegLocationContext:
		loc := Loc{Kind: RegLoc, Proc: l.GetProc().GetText(), Pos: c.pos(l)}
		if l.NAME() != nil {
			loc.Name = l.NAME().GetText()
		} else {
			loc.Name = l.SYMREG().GetText()
		}
		return loc
	case *sp.SymbolicRegLocationContext:
		return Loc{Kind: SymRegLoc, Name: l.SYMREG().GetText(), Pos: c.pos(l)}
	case *sp.GlobalLocationContext:
		return c.globalLoc(l.GlobalLoc())
	}
	c.errs.Add(c.pos(l), "unexpected location %q", l.GetText())
	return Loc{Pos: c.pos(l)}
}

func (c *converter) condLoc(l sp.ICondLocContext) Loc {
	if ll := l.LeftLoc(); ll != nil {
		return c.leftLoc(ll)
	}
	return Loc{Kind: CellLoc, Name: l.GetArrayName().GetText(), Index: c.token(l.NUM()), Pos: c.pos(l)}
}

func (c *converter) locItem(it sp.ILocItemContext) LocItem {
	if f := it.Fault(); f != nil {
		return LocItem{Fault: c.fault(f)}
	}
	out := LocItem{Loc: c.condLoc(it.CondLoc()), Star: it.STAR() != nil}
	if it.GetTypeName() != nil {
		out.Type = it.GetTypeName().GetText()
	}
	return out
}

func (c *converter) fault(f sp.IFaultContext) *Fault {
	out := &Fault{Proc: f.PROC().GetText(), Pos: c.pos(f)}
	if f.NAME() != nil {
		out.Label = f.NAME().GetText()
	}
	for _, a := range f.AllFaultArg() {
		out.Args = append(out.Args, a.GetText())
	}
	return out
}

func (c *converter) prop(p sp.IPropContext) Prop {
	switch p := p.(type) {
	case *sp.NotPropContext:
		return Not{X: c.prop(p.Prop())}
	case *sp.ImpliesPropContext:
		return Implies{X: c.prop(p.Prop(0)), Y: c.prop(p.Prop(1))}
	case *sp.AndPropContext:
		return And{X: c.prop(p.Prop(0)), Y: c.prop(p.Prop(1))}
	case *sp.OrPropContext:
		return Or{X: c.prop(p.Prop(0)), Y: c.prop(p.Prop(1))}
	case *sp.ParenPropContext:
		return c.prop(p.Prop())
	case *sp.TruePropContext:
		return Bool{Value: true}
	case *sp.FalsePropContext:
		return Bool{Value: false}
	case *sp.AtomPropContext:
		return c.atom(p.Atom())
	}
	c.errs.Add(c.pos(p), "unexpected proposition %q", p.GetText())
	return Bool{Value: false}
}

func (c *converter) atom(a sp.IAtomContext) Prop {
	switch a := a.(type) {
	case *sp.FaultAtomContext:
		return c.fault(a.Fault())
	case *sp.ValueAtomContext:
		at := Atom{Pos: c.pos(a), Loc: c.condLoc(a.CondLoc()), Value: c.condValue(a.CondValue()),
			Negated: a.GetCmp().GetTokenType() == sp.StateParserNEQ}
		at.Cmp = Token{Text: a.GetCmp().GetText(), Pos: syntax.TokenPos(c.file, a.GetCmp())}
		return at
	}
	c.errs.Add(c.pos(a), "unexpected atom %q", a.GetText())
	return Bool{Value: false}
}

func (c *converter) condValue(v sp.ICondValueContext) Value {
	pos := c.pos(v)
	switch {
	case v.STAR() != nil:
		l := c.location(v.Location())
		return Value{Kind: DerefValue, Pos: pos, Loc: &l}
	case v.NUM() != nil && v.NAME() != nil:
		return Value{Kind: RegRefValue, Pos: pos, Proc: v.NUM().GetText(), Name: v.NAME().GetText()}
	case v.PROC() != nil:
		return Value{Kind: LabelValue, Pos: pos, Proc: v.PROC().GetText(), Name: v.NAME().GetText()}
	case v.INSTR() != nil:
		return Value{Kind: InstrValue, Pos: pos, Text: v.INSTR().GetText()}
	case v.NOP() != nil:
		return Value{Kind: NopValue, Pos: pos}
	case v.ValueList() != nil:
		return Value{Kind: ListValue, Pos: pos, Elems: c.values(v.ValueList())}
	}
	return c.value(v.Value())
}
