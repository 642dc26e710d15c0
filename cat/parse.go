package cat

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/purr-mcm/purr/cat/internal/parser"
	"github.com/purr-mcm/purr/source"
)

// Parse parses one Cat file (includes are not followed). On error it returns
// the first syntax error, or the errors found while building the syntax
// tree (a source.ErrorList when there are several), in the order of their
// positions.
func Parse(filename string, src []byte) (*File, error) {
	f, errs := parse(filename, src)
	if errs != nil {
		errs.Sort()
		return nil, errs.Err()
	}
	return f, nil
}

// parse is Parse with its errors unsorted, in a list.
func parse(filename string, src []byte) (*File, source.ErrorList) {
	text, commentErr := blankComments(filename, string(src))
	// Stage 1: SLL prediction, fast and nearly always enough. Stage 2 (full
	// LL, with error reporting) runs only when stage 1 fails, as ANTLR's
	// documentation recommends: SLL may reject input that LL accepts.
	tree, failed := parseText(text, antlr.PredictionModeSLL, nil)
	if failed || commentErr != nil {
		rep := &syntaxReporter{file: filename, src: text, commentErr: commentErr}
		parseText(text, antlr.PredictionModeLL, rep)
		return nil, source.ErrorList{rep.result()}
	}
	b := &builder{file: filename}
	f := b.model(tree)
	if b.errs != nil {
		return nil, b.errs
	}
	return f, nil
}

// parseText runs the ANTLR parser. With rep nil it only reports whether any
// error occurred; otherwise rep collects the first error.
func parseText(text string, mode int, rep *syntaxReporter) (*parser.ModelContext, bool) {
	failure := &failureFlag{}
	input := antlr.NewInputStream(text)
	lexer := parser.NewCatLexer(input)
	lexer.RemoveErrorListeners()
	tokens := antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel)
	p := parser.NewCatParser(tokens)
	p.RemoveErrorListeners()
	p.GetInterpreter().SetPredictionMode(mode)
	if rep != nil {
		lexer.AddErrorListener(&lexerListener{rep: rep})
		p.AddErrorListener(&parserListener{rep: rep})
		p.SetErrorHandler(&errorStrategy{DefaultErrorStrategy: antlr.NewDefaultErrorStrategy(), rep: rep})
	} else {
		lexer.AddErrorListener(failure)
		p.AddErrorListener(failure)
	}
	tree := p.Model().(*parser.ModelContext)
	return tree, failure.failed
}

type failureFlag struct {
	antlr.DefaultErrorListener
	failed bool
}

func (f *failureFlag) SyntaxError(antlr.Recognizer, any, int, int, string, antlr.RecognitionException) {
	f.failed = true
}

// ---------------------------------------------------------------- builder

// builder turns the ANTLR parse tree into the AST. It only runs on trees
// without syntax errors.
type builder struct {
	file string
	errs source.ErrorList
}

func (b *builder) pos(t antlr.Token) source.Pos {
	return source.Pos{File: b.file, Line: t.GetLine(), Col: t.GetColumn() + 1}
}

func (b *builder) posT(n antlr.TerminalNode) source.Pos { return b.pos(n.GetSymbol()) }

func (b *builder) posC(c antlr.ParserRuleContext) source.Pos { return b.pos(c.GetStart()) }

func unquote(s string) string { return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`) }

func (b *builder) model(c *parser.ModelContext) *File {
	f := &File{Name: b.file}
	if h := c.Header(); h != nil {
		names := h.AllNAME()
		if len(names) > 0 {
			f.Arch = names[0].GetText()
			f.Title = f.Arch
		}
		if len(names) > 1 {
			f.Title = names[1].GetText()
		}
		if s := h.STRING(); s != nil {
			f.Title = unquote(s.GetText())
		}
	}
	opts := c.Options()
	f.CatDep = len(opts.AllCATDEP()) > 0
	// herd7's defaults are withoutco and withinit (and withoutinit only
	// acts with withco): those pass. Under withco herd7 enumerates every
	// coherence order and tells executions apart by all final writes,
	// which purr's counting does not do.
	for _, t := range opts.AllWITHCO() {
		b.errs.Add(b.posT(t), "unsupported model option withco: herd7 then enumerates every coherence order, whatever the model reads, and counts executions by them")
	}
	for _, t := range c.AllTopInstruction() {
		if e := t.EnumDecl(); e != nil {
			f.Stmts = append(f.Stmts, b.enum(e.(*parser.EnumDeclContext)))
		} else {
			f.Stmts = append(f.Stmts, b.instr(t.Instruction()))
		}
	}
	return f
}

func (b *builder) enum(c *parser.EnumDeclContext) *Enum {
	e := &Enum{Pos: b.posC(c), Name: c.NAME().GetText()}
	for _, t := range c.AllTAG() {
		e.Tags = append(e.Tags, t.GetText()[1:])
	}
	return e
}

func (b *builder) instrs(list []parser.IInstructionContext) []Stmt {
	var out []Stmt
	for _, c := range list {
		out = append(out, b.instr(c))
	}
	return out
}

func names(list []antlr.TerminalNode) []string {
	var out []string
	for _, n := range list {
		out = append(out, n.GetText())
	}
	return out
}

func (b *builder) instr(ic parser.IInstructionContext) Stmt {
	c := ic.(*parser.InstructionContext)
	pos := b.posC(c)
	switch {
	case c.LetInstr() != nil:
		l := c.LetInstr().(*parser.LetInstrContext)
		s := &Let{Pos: pos, Rec: l.REC() != nil, Bindings: b.bindings(l.Bindings())}
		if l.WHEN() != nil {
			if !s.Rec {
				b.errs.Add(b.posT(l.WHEN()), "'when' is only allowed after 'let rec'")
			}
			s.When = b.checkTest(l.CheckTest().(*parser.CheckTestContext), Require, b.posC(l.CheckTest()))
		}
		return s
	case c.MatchInstr() != nil:
		m := c.MatchInstr().(*parser.MatchInstrContext)
		s := &MatchStmt{Pos: pos, X: b.expr(m.Expr())}
		cl := m.InsClauses().(*parser.InsClausesContext)
		for _, k := range cl.AllInsClause() {
			k := k.(*parser.InsClauseContext)
			s.Clauses = append(s.Clauses, &StmtClause{Pos: b.posC(k), Tag: k.TAG().GetText()[1:], Body: b.instrs(k.AllInstruction())})
		}
		if cl.UNDERSCORE() != nil {
			s.HasDefault = true
			s.Default = b.instrs(cl.AllInstruction())
		}
		return s
	case c.CheckInstr() != nil:
		k := c.CheckInstr().(*parser.CheckInstrContext)
		mode := Require
		if m := k.CheckMode(); m != nil {
			m := m.(*parser.CheckModeContext)
			switch {
			case m.FLAG() != nil:
				mode = Flag
			case m.UNDEFINED_UNLESS() != nil:
				mode = UndefinedUnless
			case m.ASSERT() != nil:
				mode = Assert
			}
		}
		return b.checkTest(k.CheckTest().(*parser.CheckTestContext), mode, pos)
	case c.ShowAsInstr() != nil:
		k := c.ShowAsInstr().(*parser.ShowAsInstrContext)
		return &ShowAs{Pos: pos, X: b.base(k.Base()), Name: k.NAME().GetText()}
	case c.ShowInstr() != nil:
		return &Show{Pos: pos, Names: names(c.ShowInstr().(*parser.ShowInstrContext).AllNAME())}
	case c.UnshowInstr() != nil:
		return &Unshow{Pos: pos, Names: names(c.UnshowInstr().(*parser.UnshowInstrContext).AllNAME())}
	case c.IncludeInstr() != nil:
		return &Include{Pos: pos, Path: unquote(c.IncludeInstr().(*parser.IncludeInstrContext).STRING().GetText())}
	case c.ProcedureInstr() != nil:
		k := c.ProcedureInstr().(*parser.ProcedureInstrContext)
		s := &Procedure{Pos: pos, Rec: k.REC() != nil, Name: k.NAME().GetText()}
		if k.LPAR() != nil {
			s.Params = b.formals(k.Formals())
		} else {
			s.Params = []string{k.Pat0().GetText()}
		}
		s.Body = b.instrs(k.AllInstruction())
		return s
	case c.CallInstr() != nil:
		k := c.CallInstr().(*parser.CallInstrContext)
		s := &Call{Pos: pos, Name: k.NAME(0).GetText(), Arg: b.simple(k.Simple())}
		if k.AS() != nil {
			s.As = k.NAME(1).GetText()
		}
		return s
	case c.DebugInstr() != nil:
		return &Debug{Pos: pos, X: b.expr(c.DebugInstr().(*parser.DebugInstrContext).Expr())}
	case c.ForallInstr() != nil:
		k := c.ForallInstr().(*parser.ForallInstrContext)
		return &Forall{Pos: pos, Var: k.NAME().GetText(), Set: b.expr(k.Expr()), Body: b.instrs(k.AllInstruction())}
	case c.WithInstr() != nil:
		k := c.WithInstr().(*parser.WithInstrContext)
		return &With{Pos: pos, Var: k.NAME().GetText(), Set: b.expr(k.Expr())}
	case c.EventsInstr() != nil:
		k := c.EventsInstr().(*parser.EventsInstrContext)
		s := &Instructions{Pos: pos, Default: k.DEFAULT() != nil, Name: k.NAME().GetText()}
		for _, a := range k.AllBase() {
			s.Args = append(s.Args, b.base(a))
		}
		return s
	case c.IfInstr() != nil:
		k := c.IfInstr().(*parser.IfInstrContext)
		s := &IfVariant{Pos: pos, Cond: b.variantCond(k.VariantCond())}
		// Instructions before 'else' go to Then, the others to Else.
		elseAt := -1
		if e := k.ELSE(); e != nil {
			elseAt = e.GetSymbol().GetTokenIndex()
		}
		for _, ins := range k.AllInstruction() {
			st := b.instr(ins)
			if elseAt >= 0 && ins.GetStart().GetTokenIndex() > elseAt {
				s.Else = append(s.Else, st)
			} else {
				s.Then = append(s.Then, st)
			}
		}
		return s
	}
	b.errs.Add(pos, "internal error: unknown instruction")
	return &Debug{Pos: pos}
}

func (b *builder) checkTest(c *parser.CheckTestContext, mode CheckMode, pos source.Pos) *Check {
	s := &Check{Pos: pos, Mode: mode, Negated: c.COMP() != nil, X: b.expr(c.Expr())}
	switch {
	case c.ACYCLIC() != nil:
		s.Kind = Acyclic
	case c.IRREFLEXIVE() != nil:
		s.Kind = Irreflexive
	default:
		s.Kind = IsEmpty
	}
	if c.NAME() != nil {
		s.Name = c.NAME().GetText()
	}
	return s
}

func (b *builder) formals(c parser.IFormalsContext) []string {
	ps := []string{} // "()" is the empty tuple, not a single name
	if c == nil {
		return ps
	}
	for _, p := range c.(*parser.FormalsContext).AllPat0() {
		ps = append(ps, p.GetText())
	}
	return ps
}

func (b *builder) bindings(c parser.IBindingsContext) []*Binding {
	var out []*Binding
	for _, bc := range c.(*parser.BindingsContext).AllBinding() {
		out = append(out, b.binding(bc.(*parser.BindingContext)))
	}
	return out
}

func (b *builder) binding(c *parser.BindingContext) *Binding {
	pos := b.posC(c)
	value := b.expr(c.Expr())
	switch {
	case c.NAME() != nil && c.LPAR() != nil: // f(x, y) = e
		name := c.NAME().GetText()
		return &Binding{Pos: pos, Names: []string{name},
			Value: &Fun{Pos: pos, Name: name, Params: b.formals(c.Formals()), Body: value}}
	case c.NAME() != nil: // f x = e
		name := c.NAME().GetText()
		return &Binding{Pos: pos, Names: []string{name},
			Value: &Fun{Pos: pos, Name: name, Params: []string{c.Pat0(0).GetText()}, Body: value}}
	case c.LPAR() != nil: // (x, y) = e
		return &Binding{Pos: pos, Names: b.formals(c.Formals()), Value: value}
	}
	var ns []string // x, y = e
	for _, p := range c.AllPat0() {
		ns = append(ns, p.GetText())
	}
	return &Binding{Pos: pos, Names: ns, Value: value}
}

func (b *builder) expr(ic parser.IExprContext) Expr {
	pos := b.posC(ic)
	switch c := ic.(type) {
	case *parser.LetExprContext:
		return &LetIn{Pos: pos, Rec: c.REC() != nil, Bindings: b.bindings(c.Bindings()), Body: b.expr(c.Expr())}
	case *parser.FunExprContext:
		f := &Fun{Pos: pos, Body: b.expr(c.Expr())}
		if c.LPAR() != nil {
			f.Params = b.formals(c.Formals())
		} else {
			f.Params = []string{c.Pat0().GetText()}
		}
		return f
	case *parser.TryExprContext:
		return &Try{Pos: pos, X: b.expr(c.Expr(0)), Fallback: b.expr(c.Expr(1))}
	case *parser.IfExprContext:
		return &IfExpr{Pos: pos, Cond: b.cond(c.Cond().(*parser.CondContext)), Then: b.expr(c.Expr(0)), Else: b.expr(c.Expr(1))}
	case *parser.MatchExprContext:
		x := b.expr(c.Expr())
		if tc := c.TagClauses(); tc != nil {
			tc := tc.(*parser.TagClausesContext)
			m := &Match{Pos: pos, X: x}
			for _, k := range tc.AllTagClause() {
				k := k.(*parser.TagClauseContext)
				m.Clauses = append(m.Clauses, &TagClause{Pos: b.posC(k), Tag: k.TAG().GetText()[1:], Body: b.expr(k.Expr())})
			}
			if tc.UNDERSCORE() != nil {
				m.Default = b.expr(tc.Expr())
			}
			return m
		}
		sc := c.SetClauses().(*parser.SetClausesContext)
		ec := sc.ElemClause().(*parser.ElemClauseContext)
		m := &MatchSet{Pos: pos, X: x, Empty: b.expr(sc.EmptyClause().(*parser.EmptyClauseContext).Expr()), NonEmpty: b.expr(ec.Expr())}
		pats := ec.AllPat0()
		if len(pats) == 3 {
			m.Pre, pats = pats[0].GetText(), pats[1:]
		}
		m.Elem, m.Rest = pats[0].GetText(), pats[1].GetText()
		return m
	case *parser.TupleExprContext:
		bs := c.AllBase()
		if len(bs) == 1 {
			return b.base(bs[0])
		}
		t := &Tuple{Pos: pos}
		for _, x := range bs {
			t.Elems = append(t.Elems, b.base(x))
		}
		return t
	}
	b.errs.Add(pos, "internal error: unknown expression")
	return &Empty{Pos: pos}
}

func (b *builder) cond(c *parser.CondContext) Cond {
	if v := c.VariantCond(); v != nil {
		return b.variantCond(v)
	}
	cmp := &Compare{Pos: b.posC(c), X: b.expr(c.Expr(0)), Y: b.expr(c.Expr(1))}
	switch {
	case c.EQ() != nil:
		cmp.Op = Equal
	case c.SUBSET() != nil:
		cmp.Op = Subset
	default:
		cmp.Op = MemberOf
	}
	return cmp
}

func (b *builder) variantCond(ic parser.IVariantCondContext) Cond {
	c := ic.(*parser.VariantCondContext)
	var x Cond
	for i, a := range c.AllVariantAnd() {
		y := b.variantAnd(a.(*parser.VariantAndContext))
		if i == 0 {
			x = y
		} else {
			x = &Or{Pos: b.posT(c.ALT(i - 1)), X: x, Y: y}
		}
	}
	return x
}

func (b *builder) variantAnd(c *parser.VariantAndContext) Cond {
	var x Cond
	for i, a := range c.AllVariantAtom() {
		y := b.variantAtom(a.(*parser.VariantAtomContext))
		if i == 0 {
			x = y
		} else {
			x = &And{Pos: b.posT(c.LAND(i - 1)), X: x, Y: y}
		}
	}
	return x
}

func (b *builder) variantAtom(c *parser.VariantAtomContext) Cond {
	switch {
	case c.NOT() != nil:
		return &Not{Pos: b.posC(c), X: b.variantAtom(c.VariantAtom().(*parser.VariantAtomContext))}
	case c.STRING() != nil:
		return &Variant{Pos: b.posC(c), Name: unquote(c.STRING().GetText())}
	}
	return b.variantCond(c.VariantCond())
}

// binaryLevels gives the precedence of herd's binary operators (loosest
// first) and whether they associate to the right.
var binaryLevels = map[int]struct {
	op    BinOp
	prec  int
	right bool
}{
	parser.CatParserBAR:       {Union, 1, true},
	parser.CatParserPLUSPLUS:  {Add, 2, true},
	parser.CatParserSEMI:      {Seq, 3, true},
	parser.CatParserBACKSLASH: {Diff, 4, false},
	parser.CatParserAMP:       {Inter, 5, true},
}

func (b *builder) base(ic parser.IBaseContext) Expr {
	c := ic.(*parser.BaseContext)
	var operands []Expr
	var ops []antlr.Token
	for _, ch := range c.GetChildren() {
		switch ch := ch.(type) {
		case *parser.ProdExprContext:
			operands = append(operands, b.prodExpr(ch))
		case antlr.TerminalNode:
			ops = append(ops, ch.GetSymbol())
		}
	}
	if len(operands) == 1 {
		return operands[0]
	}
	i := 0
	// climb is precedence climbing over operands[i:] and ops[i:]: it
	// groups the operators binding at least as tightly as minPrec.
	var climb func(minPrec int) Expr
	climb = func(minPrec int) Expr {
		x := operands[i]
		for i < len(ops) {
			lv := binaryLevels[ops[i].GetTokenType()]
			if lv.prec < minPrec {
				break
			}
			tok := ops[i]
			i++
			next := lv.prec + 1
			if lv.right {
				next = lv.prec
			}
			y := climb(next)
			x = &Binary{Pos: b.pos(tok), Op: lv.op, X: x, Y: y}
		}
		return x
	}
	return climb(0)
}

// prodExpr applies herd's rules for the non-associative level of ~, * (both
// meanings), + and ?, with ^-1 binding tighter. herd rejects ~a*, a*b*,
// a*b+ and the like as syntax errors; so do we, with a hint.
func (b *builder) prodExpr(c *parser.ProdExprContext) Expr {
	if c.COMP() != nil {
		operand := c.ProdExpr().(*parser.ProdExprContext)
		if operand.COMP() == nil {
			for _, s := range operand.AllSuffix() {
				s := s.(*parser.SuffixContext)
				if s.HAT() == nil {
					b.errs.Add(b.posC(s), "ambiguous: '~' and postfix or cartesian '%s' are at the same level, add parentheses: (~a)%s or ~(a%s)",
						s.GetStart().GetText(), s.GetStart().GetText(), s.GetStart().GetText())
					break
				}
			}
		}
		return &Unary{Pos: b.posT(c.COMP()), Op: Compl, X: b.prodExpr(operand)}
	}
	x := b.primary(c.Primary())
	cart := (*Binary)(nil) // the last cartesian product built, while its right operand may still take ^-1
	for _, sc := range c.AllSuffix() {
		s := sc.(*parser.SuffixContext)
		pos := b.posC(s)
		if s.HAT() != nil {
			op := Inverse
			switch {
			case s.PLUS() != nil:
				op = Plus
			case s.STAR() != nil:
				op = Star
			}
			if cart != nil {
				cart.Y = &Unary{Pos: pos, Op: op, X: cart.Y}
			} else {
				x = &Unary{Pos: pos, Op: op, X: x}
			}
			continue
		}
		if cart != nil {
			b.errs.Add(pos, "ambiguous: cartesian '*' is not associative with '%s', add parentheses", s.GetStart().GetText())
			return x
		}
		switch {
		case s.PLUS() != nil:
			x = &Unary{Pos: pos, Op: Plus, X: x}
		case s.OPT() != nil:
			x = &Unary{Pos: pos, Op: Opt, X: x}
		case s.INV() != nil:
			x = &Unary{Pos: pos, Op: Inverse, X: x}
		case s.Primary() != nil:
			cart = &Binary{Pos: pos, Op: Cartesian, X: x, Y: b.primary(s.Primary())}
			x = cart
		default:
			x = &Unary{Pos: pos, Op: Star, X: x}
		}
	}
	return x
}

func (b *builder) primary(ic parser.IPrimaryContext) Expr {
	c := ic.(*parser.PrimaryContext)
	if s := c.Simple(); s != nil {
		return b.simple(s)
	}
	pos := b.posT(c.NAME())
	var x Expr = &Var{Pos: pos, Name: c.NAME().GetText()}
	for _, ac := range c.AllArg() {
		arg := ac.(*parser.ArgContext)
		var y Expr
		if n := arg.NAME(); n != nil {
			y = &Var{Pos: b.posT(n), Name: n.GetText()}
		} else {
			y = b.simple(arg.Simple())
		}
		x = &App{Pos: pos, Fun: x, Arg: y}
	}
	return x
}

func (b *builder) simple(ic parser.ISimpleContext) Expr {
	pos := b.posC(ic)
	switch c := ic.(type) {
	case *parser.ZeroSimpleContext:
		return &Empty{Pos: pos}
	case *parser.TagSimpleContext:
		return &Tag{Pos: pos, Name: c.TAG().GetText()[1:]}
	case *parser.SetSimpleContext:
		s := &SetLit{Pos: pos}
		for _, x := range c.AllBase() {
			s.Elems = append(s.Elems, b.base(x))
		}
		return s
	case *parser.UniverseSimpleContext:
		return &Universe{Pos: pos}
	case *parser.UnitSimpleContext:
		return &Tuple{Pos: pos}
	case *parser.ParenSimpleContext:
		return b.expr(c.Expr())
	case *parser.BeginSimpleContext:
		return b.expr(c.Expr())
	case *parser.IdSimpleContext:
		return &Unary{Pos: pos, Op: ToID, X: b.expr(c.Expr())}
	}
	b.errs.Add(pos, "internal error: unknown atom")
	return &Empty{Pos: pos}
}
