package cparser

import (
	"fmt"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/source"
)

// Parse reads text, the program part of a test, into its syntax tree.
// Positions name file; syntax errors stop at the first.
func Parse(file, text string) (*cast.Program, error) {
	p, l := newParser(file, text)
	tree := p.Program()
	if len(l.errs) > 0 {
		return nil, l.errs.Err()
	}
	b := &builder{file: file}
	prog := &cast.Program{}
	for _, th := range tree.AllThread() {
		prog.Threads = append(prog.Threads, b.thread(th))
	}
	return prog, nil
}

// ParseMacroFile reads text, a herd7 macro file, into its syntax tree.
func ParseMacroFile(file, text string) (*cast.MacroFile, error) {
	p, l := newParser(file, text)
	tree := p.MacroFile()
	if len(l.errs) > 0 {
		return nil, l.errs.Err()
	}
	b := &builder{file: file}
	mf := &cast.MacroFile{}
	for _, d := range tree.AllMacroDef() {
		ids := d.AllIDENT()
		m := &cast.MacroDef{Pos: b.pos(d), Name: ids[0].GetText()}
		for _, id := range ids[1:] {
			m.Params = append(m.Params, b.ident(id))
		}
		if d.Block() != nil {
			m.Block = b.block(d.Block())
		} else {
			m.Expr = b.expr(d.Expr())
		}
		mf.Defs = append(mf.Defs, m)
	}
	return mf, nil
}

// newParser is a parser of text whose syntax errors, positioned in file,
// collect in the listener it returns; it stops at the first.
func newParser(file, text string) (*CParser, *errorListener) {
	lexer := NewCLexer(antlr.NewInputStream(text))
	parser := NewCParser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
	l := &errorListener{DefaultErrorListener: antlr.NewDefaultErrorListener(), file: file}
	lexer.RemoveErrorListeners()
	lexer.AddErrorListener(l)
	parser.RemoveErrorListeners()
	parser.AddErrorListener(l)
	parser.SetErrorHandler(&stopAtFirstError{antlr.NewDefaultErrorStrategy()})
	return parser, l
}

// stopAtFirstError reports the first syntax error (with ANTLR's usual
// single-token repairs) and then skips the rest of the input: resynchronising
// at every level of a deeply nested input costs quadratic time, and the
// errors after the first are rarely worth reading.
type stopAtFirstError struct{ *antlr.DefaultErrorStrategy }

func (s *stopAtFirstError) Recover(p antlr.Parser, _ antlr.RecognitionException) {
	for p.GetTokenStream().LA(1) != antlr.TokenEOF {
		p.Consume()
	}
}

func (s *stopAtFirstError) Sync(antlr.Parser) {}

// RecoverInline repairs the first error only: computing the expected tokens
// again at every level of the unwinding is what costs quadratic time.
func (s *stopAtFirstError) RecoverInline(p antlr.Parser) antlr.Token {
	if s.InErrorRecoveryMode(p) {
		p.SetError(antlr.NewInputMisMatchException(p))
		return nil
	}
	return s.DefaultErrorStrategy.RecoverInline(p)
}

// maxSyntaxErrors bounds what the listener keeps: after a few, errors are
// consequences of the first.
const maxSyntaxErrors = 5

// unsupportedKeywords are C statements herd7's C dialect does not have.
var unsupportedKeywords = map[int]string{
	CLexerFOR:    "for statement",
	CLexerDO:     "do statement",
	CLexerSWITCH: "switch statement",
	CLexerRETURN: "return statement",
	CLexerGOTO:   "goto statement",
	CLexerLBRK:   "array subscript",
	CLexerDOT:    "structure member",
	CLexerARROW:  "structure member",
}

type errorListener struct {
	*antlr.DefaultErrorListener
	file string
	errs source.ErrorList
}

func (l *errorListener) SyntaxError(_ antlr.Recognizer, offending any, line, column int, msg string, _ antlr.RecognitionException) {
	if len(l.errs) >= maxSyntaxErrors {
		return
	}
	pos := source.Pos{File: l.file, Line: line, Col: column + 1}
	if tok, ok := offending.(antlr.Token); ok && tok != nil {
		if what, ok := unsupportedKeywords[tok.GetTokenType()]; ok {
			msg = "unsupported " + what
		} else if tok.GetTokenType() == antlr.TokenEOF {
			msg = "unexpected end of the program: " + msg
		} else {
			msg = fmt.Sprintf("syntax error at %q: %s", tok.GetText(), msg)
		}
	} else if strings.HasPrefix(msg, "token recognition error at: ") {
		msg = "unexpected character " + strings.TrimPrefix(msg, "token recognition error at: ")
	}
	// After an unsupported construct the rest is noise.
	if len(l.errs) > 0 && strings.HasPrefix(l.errs[len(l.errs)-1].Msg, "unsupported ") {
		return
	}
	l.errs.Add(pos, "%s", msg)
}

// builder converts a parse tree free of syntax errors, in which every
// child the grammar requires is present.
type builder struct {
	file string
}

func (b *builder) tokPos(t antlr.Token) source.Pos {
	return source.Pos{File: b.file, Line: t.GetLine(), Col: t.GetColumn() + 1}
}

func (b *builder) pos(c antlr.ParserRuleContext) source.Pos { return b.tokPos(c.GetStart()) }

func (b *builder) ident(n antlr.TerminalNode) *cast.Ident {
	return &cast.Ident{Pos: b.tokPos(n.GetSymbol()), Name: n.GetText()}
}

// sourceText is a piece of the program as written, its spaces collapsed
// and without its final semicolon.
func sourceText(c antlr.ParserRuleContext) string {
	start, stop := c.GetStart(), c.GetStop()
	if start == nil || stop == nil || start.GetInputStream() == nil {
		return c.GetText()
	}
	return spanText(start, stop)
}

// spanText is the source from token start to token stop, spaces collapsed
// and a final semicolon dropped.
func spanText(start, stop antlr.Token) string {
	text := start.GetInputStream().GetTextFromInterval(antlr.NewInterval(start.GetStart(), stop.GetStop()))
	return strings.TrimSuffix(strings.Join(strings.Fields(text), " "), ";")
}

func (b *builder) thread(c IThreadContext) *cast.Thread {
	th := &cast.Thread{Pos: b.tokPos(c.PROC().GetSymbol()), Name: c.PROC().GetText(), Body: b.block(c.Block())}
	for _, p := range c.AllParam() {
		th.Params = append(th.Params, &cast.Param{Type: b.typeSpec(p.TypeSpec()), Name: b.ident(p.IDENT())})
	}
	// The text between the braces, exactly as written.
	open, end := c.Block().GetStart(), c.Block().GetStop()
	if from, to := open.GetStart()+1, end.GetStart(); from <= to && open.GetInputStream() != nil {
		th.BodyText = open.GetInputStream().GetText(from, to-1)
	}
	return th
}

func (b *builder) typeSpec(c ITypeSpecContext) *cast.TypeSpec {
	ts := &cast.TypeSpec{Pos: b.pos(c), Pointers: len(c.AllPointer())}
	for _, w := range c.AllTypeWord() {
		tw := &cast.TypeWord{Pos: b.pos(w), Name: w.GetText()}
		switch {
		case w.CONST() != nil:
			tw.Kind = cast.Const
		case w.VOLATILE() != nil:
			tw.Kind = cast.Volatile
		case w.ATOMIC() != nil:
			tw.Kind = cast.Atomic
		case w.VOID() != nil:
			tw.Kind = cast.Void
		case w.TYPE() != nil:
			tw.Kind = cast.BaseType
		case w.STRUCT() != nil:
			tw.Kind, tw.Name = cast.Struct, w.IDENT().GetText()
		default:
			tw.Kind = cast.Unknown
		}
		ts.Words = append(ts.Words, tw)
	}
	return ts
}

func (b *builder) block(c IBlockContext) *cast.BlockStmt {
	blk := &cast.BlockStmt{Pos: b.pos(c)}
	for _, s := range c.AllStatement() {
		blk.Stmts = append(blk.Stmts, b.stmt(s))
	}
	return blk
}

func (b *builder) stmt(c IStatementContext) cast.Stmt {
	pos := b.pos(c)
	switch c := c.(type) {
	case *BlockStmtContext:
		return b.block(c.Block())
	case *DeclStmtContext:
		s := &cast.DeclStmt{Pos: pos, Type: b.typeSpec(c.TypeSpec()), Name: c.IDENT().GetText(), Text: sourceText(c)}
		if c.Expr() != nil {
			s.Init = b.expr(c.Expr())
		}
		return s
	case *IfStmtContext:
		s := &cast.IfStmt{Pos: pos, Cond: b.expr(c.Expr()), CondText: sourceText(c.Expr()), Then: b.stmt(c.Statement(0))}
		if c.ELSE() != nil {
			s.Else = b.stmt(c.Statement(1))
		}
		return s
	case *WhileStmtContext:
		return &cast.WhileStmt{Pos: pos, Cond: b.expr(c.Expr()), CondText: sourceText(c.Expr()), Body: b.stmt(c.Statement())}
	case *DoStmtContext:
		return &cast.DoStmt{Pos: pos, Body: b.stmt(c.Statement()), Cond: b.expr(c.Expr()), CondText: sourceText(c.Expr())}
	case *ForStmtContext:
		s := &cast.ForStmt{Pos: pos, Body: b.stmt(c.Statement()), HeaderText: spanText(c.GetStart(), c.RPAR().GetSymbol())}
		if c.GetInit() != nil {
			s.Init = b.forClause(c.GetInit())
		}
		if c.GetCond() != nil {
			s.Cond = b.expr(c.GetCond())
		}
		if c.GetStep() != nil {
			s.Step = b.forClause(c.GetStep())
		}
		return s
	case *SimpleStmtContext:
		s := b.simple(c.Simple())
		switch s := s.(type) { // the statement's text ends with its semicolon
		case *cast.AssignStmt:
			s.Text = sourceText(c)
		case *cast.ExprStmt:
			s.Text = sourceText(c)
		}
		return s
	}
	return &cast.EmptyStmt{Pos: pos} // SkipStmtContext, the only other form
}

// forClause converts the first or third clause of a for statement.
func (b *builder) forClause(c IForClauseContext) cast.Stmt {
	pos := b.pos(c)
	switch c := c.(type) {
	case *ForDeclContext:
		return &cast.DeclStmt{Pos: pos, Type: b.typeSpec(c.TypeSpec()), Name: c.IDENT().GetText(), Init: b.expr(c.Expr()), Text: sourceText(c)}
	case *ForSimpleContext:
		return b.simple(c.Simple())
	}
	panic(fmt.Sprintf("cparser: unknown for clause %T", c))
}

// simple converts a call or an assignment; x op= e, x++ and ++x become
// x = x op e and x = x + 1.
func (b *builder) simple(c ISimpleContext) cast.Stmt {
	pos, text := b.pos(c), sourceText(c)
	update := func(x cast.Expr, op antlr.Token, y cast.Expr) cast.Stmt {
		bin := strings.TrimSuffix(op.GetText(), "=") // "+=" is +
		if op.GetTokenType() == CParserINCR || op.GetTokenType() == CParserDECR {
			bin = bin[:1] // "++" is + 1
		}
		return &cast.AssignStmt{Pos: pos, LHS: x, Text: text,
			RHS: &cast.BinaryExpr{Pos: x.Position(), X: x, Op: bin, OpPos: b.tokPos(op), Y: y}}
	}
	one := func(op antlr.Token) *cast.Number { return &cast.Number{Pos: b.tokPos(op), Text: "1"} }
	switch c := c.(type) {
	case *ExprSimpleContext:
		if c.ASSIGN() != nil {
			return &cast.AssignStmt{Pos: pos, LHS: b.expr(c.Expr(0)), RHS: b.expr(c.Expr(1)), Text: text}
		}
		return &cast.ExprStmt{Pos: pos, X: b.expr(c.Expr(0)), Text: text}
	case *CompoundSimpleContext:
		return update(b.expr(c.Expr(0)), c.GetOp(), b.expr(c.Expr(1)))
	case *PostfixSimpleContext:
		return update(b.expr(c.Expr()), c.GetOp(), one(c.GetOp()))
	case *PrefixSimpleContext:
		return update(b.expr(c.Expr()), c.GetOp(), one(c.GetOp()))
	}
	panic(fmt.Sprintf("cparser: unknown statement %T", c))
}

func (b *builder) expr(c IExprContext) cast.Expr {
	pos := b.pos(c)
	switch c := c.(type) {
	case *PrimaryExprContext:
		return b.primary(c.Primary())
	case *UnaryExprContext:
		return &cast.UnaryExpr{Pos: pos, Op: c.GetOp().GetText(), X: b.expr(c.Expr())}
	case *CastExprContext:
		return &cast.CastExpr{Pos: pos, Type: c.CastType().GetText(), Pointers: len(c.CastType().AllPointer()), X: b.expr(c.Expr())}
	case *BinaryExprContext:
		op := c.GetOp()
		return &cast.BinaryExpr{Pos: pos, X: b.expr(c.Expr(0)), Op: op.GetText(), OpPos: b.tokPos(op), Y: b.expr(c.Expr(1))}
	case *CondExprContext:
		return &cast.CondExpr{Pos: pos, Cond: b.expr(c.Expr(0)), X: b.expr(c.Expr(1)), Y: b.expr(c.Expr(2))}
	}
	panic(fmt.Sprintf("cparser: unknown expression %T", c))
}

func (b *builder) primary(c IPrimaryContext) cast.Expr {
	pos := b.pos(c)
	switch c := c.(type) {
	case *NumberPrimaryContext:
		return &cast.Number{Pos: pos, Text: c.NUMBER().GetText()}
	case *NamePrimaryContext:
		return &cast.Ident{Pos: pos, Name: c.IDENT().GetText()}
	case *ParenPrimaryContext:
		return &cast.ParenExpr{Pos: pos, X: b.expr(c.Expr())}
	case *CallPrimaryContext:
		return &cast.CallExpr{Pos: pos, Name: c.IDENT().GetText(), Annots: annotations(c.Annotations()), Args: b.exprs(c.AllExpr()), Parens: true}
	case *AnnotatedPrimaryContext:
		return &cast.CallExpr{Pos: pos, Name: c.IDENT().GetText(), Annots: annotations(c.Annotations())}
	case *AtomicOpPrimaryContext:
		op := c.AtomicOp()
		return &cast.CallExpr{Pos: pos, Name: c.IDENT().GetText(), Annots: annotations(c.Annotations()), Args: b.exprs(c.AllExpr()),
			Op: op.GetText(), OpPos: b.pos(op), Parens: true}
	}
	panic(fmt.Sprintf("cparser: unknown primary %T", c))
}

func (b *builder) exprs(cs []IExprContext) []cast.Expr {
	var out []cast.Expr
	for _, c := range cs {
		out = append(out, b.expr(c))
	}
	return out
}

// annotations are the words of {a,b-c}, each as written without spaces;
// nil when there are none.
func annotations(c IAnnotationsContext) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, a := range c.AllAnnotation() {
		out = append(out, a.GetText())
	}
	return out
}
