package cparser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus/c/internal/cast"
)

// TestTreeMatchesParseTree converts the C programs and macro files of
// litmus/c's testdata and checks every expression of the syntax tree
// against the parse tree it comes from: its position, and Text against
// ANTLR's GetText, which the messages used to quote.
func TestTreeMatchesParseTree(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.litmus")
	defs, _ := filepath.Glob("../../testdata/macros/*.def")
	if len(files) == 0 || len(defs) == 0 {
		t.Fatal("no testdata")
	}
	programs := map[string]string{
		// What the testdata lacks: casts, ?:, unary operators, the
		// operator form, annotations alone, comments inside a statement.
		"inline.c": "void P0(const volatile int *x, _Atomic int* y, struct srcu_struct *s) {\n" +
			"  int r = (intptr_t *) (r ? -1 : ~ *x) + !(int)*y;\n" +
			"  __atomic_op ( x , & ~ , 1 ) ; __fence { rb - dep } ;\n" +
			"  r = /* c */ __srcu{srcu-lock}(s) << 0x10 >= 2 && 3 || (r != 4);\n" +
			"  if (r) ; else while (r < 2) { r = r + 1; }\n" +
			"  do { r += *x; r <<= 2; ++r; } while (r);\n" +
			"  for (int i = 0; i < 3; i++) { if (i) continue; *x -= 1; break; }\n  for (;;) r--;\n}\n",
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		// The program part: blank the header and the rest as the litmus
		// splitter does, keeping positions.
		from, to := strings.Index(text, "P0"), strings.Index(text, "exists")
		programs[f] = blank(text[:from]) + text[from:to] + blank(text[to:])
	}
	for f, text := range programs {
		prog, err := Parse(f, text)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := newParser(f, text)
		tree := p.Program()
		for i, th := range tree.AllThread() {
			got := prog.Threads[i]
			if got.Name != th.PROC().GetText() {
				t.Errorf("%s: thread %s, want %s", f, got.Name, th.PROC().GetText())
			}
			compareBlock(t, f, got.Body, th.Block())
		}
	}
	for _, f := range defs {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mf, err := ParseMacroFile(f, string(src))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := newParser(f, string(src))
		for i, d := range p.MacroFile().AllMacroDef() {
			m := mf.Defs[i]
			if m.Block != nil {
				compareBlock(t, f, m.Block, d.Block())
			} else {
				compareExpr(t, f, m.Expr, d.Expr())
			}
		}
	}
}

func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		return ' '
	}, s)
}

func compareBlock(t *testing.T, file string, b *cast.BlockStmt, c IBlockContext) {
	t.Helper()
	stmts := c.AllStatement()
	if len(b.Stmts) != len(stmts) {
		t.Fatalf("%s: %d statements, want %d", file, len(b.Stmts), len(stmts))
	}
	for i, s := range stmts {
		compareStmt(t, file, b.Stmts[i], s)
	}
}

func compareStmt(t *testing.T, file string, s cast.Stmt, c IStatementContext) {
	t.Helper()
	checkPos(t, file, s, c)
	switch c := c.(type) {
	case *BlockStmtContext:
		compareBlock(t, file, s.(*cast.BlockStmt), c.Block())
	case *DeclStmtContext:
		if d := s.(*cast.DeclStmt); d.Init != nil {
			compareExpr(t, file, d.Init, c.Expr())
		}
	case *IfStmtContext:
		st := s.(*cast.IfStmt)
		compareExpr(t, file, st.Cond, c.Expr())
		compareStmt(t, file, st.Then, c.Statement(0))
		if st.Else != nil {
			compareStmt(t, file, st.Else, c.Statement(1))
		}
	case *WhileStmtContext:
		st := s.(*cast.WhileStmt)
		compareExpr(t, file, st.Cond, c.Expr())
		compareStmt(t, file, st.Body, c.Statement())
	case *DoStmtContext:
		st := s.(*cast.DoStmt)
		compareStmt(t, file, st.Body, c.Statement())
		compareExpr(t, file, st.Cond, c.Expr())
	case *ForStmtContext:
		st := s.(*cast.ForStmt)
		if c.GetInit() != nil {
			compareClause(t, file, st.Init, c.GetInit())
		}
		if c.GetCond() != nil {
			compareExpr(t, file, st.Cond, c.GetCond())
		}
		if c.GetStep() != nil {
			compareClause(t, file, st.Step, c.GetStep())
		}
		compareStmt(t, file, st.Body, c.Statement())
	case *SimpleStmtContext:
		compareSimple(t, file, s, c.Simple())
	}
}

func compareClause(t *testing.T, file string, s cast.Stmt, c IForClauseContext) {
	t.Helper()
	switch c := c.(type) {
	case *ForDeclContext:
		checkPos(t, file, s, c)
		compareExpr(t, file, s.(*cast.DeclStmt).Init, c.Expr())
	case *ForSimpleContext:
		compareSimple(t, file, s, c.Simple())
	}
}

// compareSimple checks a call or an assignment; x += e is x = x + e, whose
// operator stands where += does.
func compareSimple(t *testing.T, file string, s cast.Stmt, c ISimpleContext) {
	t.Helper()
	checkPos(t, file, s, c)
	switch c := c.(type) {
	case *ExprSimpleContext:
		if a, ok := s.(*cast.AssignStmt); ok {
			compareExpr(t, file, a.LHS, c.Expr(0))
			compareExpr(t, file, a.RHS, c.Expr(1))
		} else {
			compareExpr(t, file, s.(*cast.ExprStmt).X, c.Expr(0))
		}
	case *CompoundSimpleContext:
		a := s.(*cast.AssignStmt)
		compareExpr(t, file, a.LHS, c.Expr(0))
		rhs := a.RHS.(*cast.BinaryExpr)
		if op := c.GetOp().GetText(); rhs.Op+"=" != op || rhs.OpPos.Col != c.GetOp().GetColumn()+1 {
			t.Errorf("%s: %s is %s at %v", file, op, rhs.Op, rhs.OpPos)
		}
		compareExpr(t, file, rhs.Y, c.Expr(1))
	case *PostfixSimpleContext:
		compareExpr(t, file, s.(*cast.AssignStmt).LHS, c.Expr())
	case *PrefixSimpleContext:
		compareExpr(t, file, s.(*cast.AssignStmt).LHS, c.Expr())
	}
}

func compareExpr(t *testing.T, file string, e cast.Expr, c antlr.ParserRuleContext) {
	t.Helper()
	checkPos(t, file, e, c)
	if got, want := cast.Text(e), c.GetText(); got != want {
		t.Errorf("%s: Text %q, want %q", file, got, want)
	}
	var subs []IExprContext
	switch c := c.(type) {
	case *PrimaryExprContext:
		compareExpr(t, file, e, c.Primary())
		return
	case *ParenPrimaryContext:
		compareExpr(t, file, e.(*cast.ParenExpr).X, c.Expr())
		return
	case *CallPrimaryContext:
		subs = c.AllExpr()
	case *AtomicOpPrimaryContext:
		subs = c.AllExpr()
	case *UnaryExprContext:
		compareExpr(t, file, e.(*cast.UnaryExpr).X, c.Expr())
	case *CastExprContext:
		compareExpr(t, file, e.(*cast.CastExpr).X, c.Expr())
	case *BinaryExprContext:
		compareExpr(t, file, e.(*cast.BinaryExpr).X, c.Expr(0))
		compareExpr(t, file, e.(*cast.BinaryExpr).Y, c.Expr(1))
	case *CondExprContext:
		ce := e.(*cast.CondExpr)
		compareExpr(t, file, ce.Cond, c.Expr(0))
		compareExpr(t, file, ce.X, c.Expr(1))
		compareExpr(t, file, ce.Y, c.Expr(2))
	}
	for i, s := range subs {
		compareExpr(t, file, e.(*cast.CallExpr).Args[i], s)
	}
}

func checkPos(t *testing.T, file string, n cast.Node, c antlr.ParserRuleContext) {
	t.Helper()
	p, tok := n.Position(), c.GetStart()
	if p.File != file || p.Line != tok.GetLine() || p.Col != tok.GetColumn()+1 {
		t.Errorf("%s: %T at %s, want line %d col %d", file, n, p, tok.GetLine(), tok.GetColumn()+1)
	}
}
