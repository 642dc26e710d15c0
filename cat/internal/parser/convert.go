package parser

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// Parse parses one Cat file (includes are not followed) into its syntax
// tree. On error it returns the first syntax error of the file, or the
// errors found while building the tree, in the order found.
func Parse(filename string, src []byte) (*ast.File, source.ErrorList) {
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
func parseText(text string, mode int, rep *syntaxReporter) (*ModelContext, bool) {
	failure := &failureFlag{}
	input := antlr.NewInputStream(text)
	lexer := NewCatLexer(input)
	lexer.RemoveErrorListeners()
	tokens := antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel)
	p := NewCatParser(tokens)
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
	tree := p.Model().(*ModelContext)
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

func (b *builder) model(c *ModelContext) *ast.File {
	f := &ast.File{Name: b.file}
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
			f.Stmts = append(f.Stmts, b.enum(e.(*EnumDeclContext)))
		} else {
			f.Stmts = append(f.Stmts, b.instr(t.Instruction()))
		}
	}
	return f
}

func (b *builder) enum(c *EnumDeclContext) *ast.Enum {
	e := &ast.Enum{Pos: b.posC(c), Name: c.NAME().GetText()}
	for _, t := range c.AllTAG() {
		e.Tags = append(e.Tags, t.GetText()[1:])
	}
	return e
}

func (b *builder) instrs(list []IInstructionContext) []ast.Stmt {
	var out []ast.Stmt
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

func (b *builder) instr(ic IInstructionContext) ast.Stmt {
	c := ic.(*InstructionContext)
	pos := b.posC(c)
	switch {
	case c.LetInstr() != nil:
		l := c.LetInstr().(*LetInstrContext)
		s := &ast.Let{Pos: pos, Rec: l.REC() != nil, Bindings: b.bindings(l.Bindings())}
		if l.WHEN() != nil {
			if !s.Rec {
				b.errs.Add(b.posT(l.WHEN()), "'when' is only allowed after 'let rec'")
			}
			s.When = b.checkTest(l.CheckTest().(*CheckTestContext), ast.Require, b.posC(l.CheckTest()))
		}
		return s
	case c.MatchInstr() != nil:
		m := c.MatchInstr().(*MatchInstrContext)
		s := &ast.MatchStmt{Pos: pos, X: b.expr(m.Expr())}
		cl := m.InsClauses().(*InsClausesContext)
		for _, k := range cl.AllInsClause() {
			k := k.(*InsClauseContext)
			s.Clauses = append(s.Clauses, &ast.StmtClause{Pos: b.posC(k), Tag: k.TAG().GetText()[1:], Body: b.instrs(k.AllInstruction())})
		}
		if cl.UNDERSCORE() != nil {
			s.HasDefault = true
			s.Default = b.instrs(cl.AllInstruction())
		}
		return s
	case c.CheckInstr() != nil:
		k := c.CheckInstr().(*CheckInstrContext)
		mode := ast.Require
		if m := k.CheckMode(); m != nil {
			m := m.(*CheckModeContext)
			switch {
			case m.FLAG() != nil:
				mode = ast.Flag
			case m.UNDEFINED_UNLESS() != nil:
				mode = ast.UndefinedUnless
			case m.ASSERT() != nil:
				mode = ast.Assert
			}
		}
		return b.checkTest(k.CheckTest().(*CheckTestContext), mode, pos)
	case c.ShowAsInstr() != nil:
		k := c.ShowAsInstr().(*ShowAsInstrContext)
		return &ast.ShowAs{Pos: pos, X: b.base(k.Base()), Name: k.NAME().GetText()}
	case c.ShowInstr() != nil:
		return &ast.Show{Pos: pos, Names: names(c.ShowInstr().(*ShowInstrContext).AllNAME())}
	case c.UnshowInstr() != nil:
		return &ast.Unshow{Pos: pos, Names: names(c.UnshowInstr().(*UnshowInstrContext).AllNAME())}
	case c.IncludeInstr() != nil:
		return &ast.Include{Pos: pos, Path: unquote(c.IncludeInstr().(*IncludeInstrContext).STRING().GetText())}
	case c.ProcedureInstr() != nil:
		k := c.ProcedureInstr().(*ProcedureInstrContext)
		s := &ast.Procedure{Pos: pos, Rec: k.REC() != nil, Name: k.NAME().GetText()}
		if k.LPAR() != nil {
			s.Params = b.formals(k.Formals())
		} else {
			s.Params = []string{k.Pat0().GetText()}
		}
		s.Body = b.instrs(k.AllInstruction())
		return s
	case c.CallInstr() != nil:
		k := c.CallInstr().(*CallInstrContext)
		s := &ast.Call{Pos: pos, Name: k.NAME(0).GetText(), Arg: b.simple(k.Simple())}
		if k.AS() != nil {
			s.As = k.NAME(1).GetText()
		}
		return s
	case c.DebugInstr() != nil:
		return &ast.Debug{Pos: pos, X: b.expr(c.DebugInstr().(*DebugInstrContext).Expr())}
	case c.ForallInstr() != nil:
		k := c.ForallInstr().(*ForallInstrContext)
		return &ast.Forall{Pos: pos, Var: k.NAME().GetText(), Set: b.expr(k.Expr()), Body: b.instrs(k.AllInstruction())}
	case c.WithInstr() != nil:
		k := c.WithInstr().(*WithInstrContext)
		return &ast.With{Pos: pos, Var: k.NAME().GetText(), Set: b.expr(k.Expr())}
	case c.EventsInstr() != nil:
		k := c.EventsInstr().(*EventsInstrContext)
		s := &ast.Instructions{Pos: pos, Default: k.DEFAULT() != nil, Name: k.NAME().GetText()}
		for _, a := range k.AllBase() {
			s.Args = append(s.Args, b.base(a))
		}
		return s
	case c.IfInstr() != nil:
		k := c.IfInstr().(*IfInstrContext)
		s := &ast.IfVariant{Pos: pos, Cond: b.variantCond(k.VariantCond())}
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
	return &ast.Debug{Pos: pos}
}

func (b *builder) checkTest(c *CheckTestContext, mode ast.CheckMode, pos source.Pos) *ast.Check {
	s := &ast.Check{Pos: pos, Mode: mode, Negated: c.COMP() != nil, X: b.expr(c.Expr())}
	switch {
	case c.ACYCLIC() != nil:
		s.Kind = ast.Acyclic
	case c.IRREFLEXIVE() != nil:
		s.Kind = ast.Irreflexive
	default:
		s.Kind = ast.IsEmpty
	}
	if c.NAME() != nil {
		s.Name = c.NAME().GetText()
	}
	return s
}

func (b *builder) formals(c IFormalsContext) []string {
	ps := []string{} // "()" is the empty tuple, not a single name
	if c == nil {
		return ps
	}
	for _, p := range c.(*FormalsContext).AllPat0() {
		ps = append(ps, p.GetText())
	}
	return ps
}

func (b *builder) bindings(c IBindingsContext) []*ast.Binding {
	var out []*ast.Binding
	for _, bc := range c.(*BindingsContext).AllBinding() {
		out = append(out, b.binding(bc.(*BindingContext)))
	}
	return out
}

func (b *builder) binding(c *BindingContext) *ast.Binding {
	pos := b.posC(c)
	value := b.expr(c.Expr())
	switch {
	case c.NAME() != nil && c.LPAR() != nil: // f(x, y) = e
		name := c.NAME().GetText()
		return &ast.Binding{Pos: pos, Names: []string{name},
			Value: &ast.Fun{Pos: pos, Name: name, Params: b.formals(c.Formals()), Body: value}}
	case c.NAME() != nil: // f x = e
		name := c.NAME().GetText()
		return &ast.Binding{Pos: pos, Names: []string{name},
			Value: &ast.Fun{Pos: pos, Name: name, Params: []string{c.Pat0(0).GetText()}, Body: value}}
	case c.LPAR() != nil: // (x, y) = e
		return &ast.Binding{Pos: pos, Names: b.formals(c.Formals()), Value: value}
	}
	var ns []string // x, y = e
	for _, p := range c.AllPat0() {
		ns = append(ns, p.GetText())
	}
	return &ast.Binding{Pos: pos, Names: ns, Value: value}
}

func (b *builder) expr(ic IExprContext) ast.Expr {
	pos := b.posC(ic)
	switch c := ic.(type) {
	case *LetExprContext:
		return &ast.LetIn{Pos: pos, Rec: c.REC() != nil, Bindings: b.bindings(c.Bindings()), Body: b.expr(c.Expr())}
	case *FunExprContext:
		f := &ast.Fun{Pos: pos, Body: b.expr(c.Expr())}
		if c.LPAR() != nil {
			f.Params = b.formals(c.Formals())
		} else {
			f.Params = []string{c.Pat0().GetText()}
		}
		return f
	case *TryExprContext:
		return &ast.Try{Pos: pos, X: b.expr(c.Expr(0)), Fallback: b.expr(c.Expr(1))}
	case *IfExprContext:
		return &ast.IfExpr{Pos: pos, Cond: b.cond(c.Cond().(*CondContext)), Then: b.expr(c.Expr(0)), Else: b.expr(c.Expr(1))}
	case *MatchExprContext:
		x := b.expr(c.Expr())
		if tc := c.TagClauses(); tc != nil {
			tc := tc.(*TagClausesContext)
			m := &ast.Match{Pos: pos, X: x}
			for _, k := range tc.AllTagClause() {
				k := k.(*TagClauseContext)
				m.Clauses = append(m.Clauses, &ast.TagClause{Pos: b.posC(k), Tag: k.TAG().GetText()[1:], Body: b.expr(k.Expr())})
			}
			if tc.UNDERSCORE() != nil {
				m.Default = b.expr(tc.Expr())
			}
			return m
		}
		sc := c.SetClauses().(*SetClausesContext)
		ec := sc.ElemClause().(*ElemClauseContext)
		m := &ast.MatchSet{Pos: pos, X: x, Empty: b.expr(sc.EmptyClause().(*EmptyClauseContext).Expr()), NonEmpty: b.expr(ec.Expr())}
		pats := ec.AllPat0()
		if len(pats) == 3 {
			m.Pre, pats = pats[0].GetText(), pats[1:]
		}
		m.Elem, m.Rest = pats[0].GetText(), pats[1].GetText()
		return m
	case *TupleExprContext:
		bs := c.AllBase()
		if len(bs) == 1 {
			return b.base(bs[0])
		}
		t := &ast.Tuple{Pos: pos}
		for _, x := range bs {
			t.Elems = append(t.Elems, b.base(x))
		}
		return t
	}
	b.errs.Add(pos, "internal error: unknown expression")
	return &ast.Empty{Pos: pos}
}

func (b *builder) cond(c *CondContext) ast.Cond {
	if v := c.VariantCond(); v != nil {
		return b.variantCond(v)
	}
	cmp := &ast.Compare{Pos: b.posC(c), X: b.expr(c.Expr(0)), Y: b.expr(c.Expr(1))}
	switch {
	case c.EQ() != nil:
		cmp.Op = ast.Equal
	case c.SUBSET() != nil:
		cmp.Op = ast.Subset
	default:
		cmp.Op = ast.MemberOf
	}
	return cmp
}

func (b *builder) variantCond(ic IVariantCondContext) ast.Cond {
	c := ic.(*VariantCondContext)
	var x ast.Cond
	for i, a := range c.AllVariantAnd() {
		y := b.variantAnd(a.(*VariantAndContext))
		if i == 0 {
			x = y
		} else {
			x = &ast.Or{Pos: b.posT(c.ALT(i - 1)), X: x, Y: y}
		}
	}
	return x
}

func (b *builder) variantAnd(c *VariantAndContext) ast.Cond {
	var x ast.Cond
	for i, a := range c.AllVariantAtom() {
		y := b.variantAtom(a.(*VariantAtomContext))
		if i == 0 {
			x = y
		} else {
			x = &ast.And{Pos: b.posT(c.LAND(i - 1)), X: x, Y: y}
		}
	}
	return x
}

func (b *builder) variantAtom(c *VariantAtomContext) ast.Cond {
	switch {
	case c.NOT() != nil:
		return &ast.Not{Pos: b.posC(c), X: b.variantAtom(c.VariantAtom().(*VariantAtomContext))}
	case c.STRING() != nil:
		return &ast.Variant{Pos: b.posC(c), Name: unquote(c.STRING().GetText())}
	}
	return b.variantCond(c.VariantCond())
}

// binaryLevels gives the precedence of herd's binary operators (loosest
// first) and whether they associate to the right.
var binaryLevels = map[int]struct {
	op    ast.BinOp
	prec  int
	right bool
}{
	CatParserBAR:       {ast.Union, 1, true},
	CatParserPLUSPLUS:  {ast.Add, 2, true},
	CatParserSEMI:      {ast.Seq, 3, true},
	CatParserBACKSLASH: {ast.Diff, 4, false},
	CatParserAMP:       {ast.Inter, 5, true},
}

func (b *builder) base(ic IBaseContext) ast.Expr {
	c := ic.(*BaseContext)
	var operands []ast.Expr
	var ops []antlr.Token
	for _, ch := range c.GetChildren() {
		switch ch := ch.(type) {
		case *ProdExprContext:
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
	var climb func(minPrec int) ast.Expr
	climb = func(minPrec int) ast.Expr {
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
			x = &ast.Binary{Pos: b.pos(tok), Op: lv.op, X: x, Y: y}
		}
		return x
	}
	return climb(0)
}

// prodExpr applies herd's rules for the non-associative level of ~, * (both
// meanings), + and ?, with ^-1 binding tighter. herd rejects ~a*, a*b*,
// a*b+ and the like as syntax errors; so do we, with a hint.
func (b *builder) prodExpr(c *ProdExprContext) ast.Expr {
	if c.COMP() != nil {
		operand := c.ProdExpr().(*ProdExprContext)
		if operand.COMP() == nil {
			for _, s := range operand.AllSuffix() {
				s := s.(*SuffixContext)
				if s.HAT() == nil {
					b.errs.Add(b.posC(s), "ambiguous: '~' and postfix or cartesian '%s' are at the same level, add parentheses: (~a)%s or ~(a%s)",
						s.GetStart().GetText(), s.GetStart().GetText(), s.GetStart().GetText())
					break
				}
			}
		}
		return &ast.Unary{Pos: b.posT(c.COMP()), Op: ast.Compl, X: b.prodExpr(operand)}
	}
	x := b.primary(c.Primary())
	cart := (*ast.Binary)(nil) // the last cartesian product built, while its right operand may still take ^-1
	for _, sc := range c.AllSuffix() {
		s := sc.(*SuffixContext)
		pos := b.posC(s)
		if s.HAT() != nil {
			op := ast.Inverse
			switch {
			case s.PLUS() != nil:
				op = ast.Plus
			case s.STAR() != nil:
				op = ast.Star
			}
			if cart != nil {
				cart.Y = &ast.Unary{Pos: pos, Op: op, X: cart.Y}
			} else {
				x = &ast.Unary{Pos: pos, Op: op, X: x}
			}
			continue
		}
		if cart != nil {
			b.errs.Add(pos, "ambiguous: cartesian '*' is not associative with '%s', add parentheses", s.GetStart().GetText())
			return x
		}
		switch {
		case s.PLUS() != nil:
			x = &ast.Unary{Pos: pos, Op: ast.Plus, X: x}
		case s.OPT() != nil:
			x = &ast.Unary{Pos: pos, Op: ast.Opt, X: x}
		case s.INV() != nil:
			x = &ast.Unary{Pos: pos, Op: ast.Inverse, X: x}
		case s.Primary() != nil:
			cart = &ast.Binary{Pos: pos, Op: ast.Cartesian, X: x, Y: b.primary(s.Primary())}
			x = cart
		default:
			x = &ast.Unary{Pos: pos, Op: ast.Star, X: x}
		}
	}
	return x
}

func (b *builder) primary(ic IPrimaryContext) ast.Expr {
	c := ic.(*PrimaryContext)
	if s := c.Simple(); s != nil {
		return b.simple(s)
	}
	pos := b.posT(c.NAME())
	var x ast.Expr = &ast.Var{Pos: pos, Name: c.NAME().GetText()}
	for _, ac := range c.AllArg() {
		arg := ac.(*ArgContext)
		var y ast.Expr
		if n := arg.NAME(); n != nil {
			y = &ast.Var{Pos: b.posT(n), Name: n.GetText()}
		} else {
			y = b.simple(arg.Simple())
		}
		x = &ast.App{Pos: pos, Fun: x, Arg: y}
	}
	return x
}

func (b *builder) simple(ic ISimpleContext) ast.Expr {
	pos := b.posC(ic)
	switch c := ic.(type) {
	case *ZeroSimpleContext:
		return &ast.Empty{Pos: pos}
	case *TagSimpleContext:
		return &ast.Tag{Pos: pos, Name: c.TAG().GetText()[1:]}
	case *SetSimpleContext:
		s := &ast.SetLit{Pos: pos}
		for _, x := range c.AllBase() {
			s.Elems = append(s.Elems, b.base(x))
		}
		return s
	case *UniverseSimpleContext:
		return &ast.Universe{Pos: pos}
	case *UnitSimpleContext:
		return &ast.Tuple{Pos: pos}
	case *ParenSimpleContext:
		return b.expr(c.Expr())
	case *BeginSimpleContext:
		return b.expr(c.Expr())
	case *IdSimpleContext:
		return &ast.Unary{Pos: pos, Op: ast.ToID, X: b.expr(c.Expr())}
	}
	b.errs.Add(pos, "internal error: unknown atom")
	return &ast.Empty{Pos: pos}
}
