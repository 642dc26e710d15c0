package cat

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat/ast"
)

func parseExpr(t *testing.T, src string) ast.Expr {
	t.Helper()
	f, err := Parse("e.cat", []byte("let x = "+src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return f.Stmts[0].(*ast.Let).Bindings[0].Value
}

func TestPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a | b | c", "(| a (| b c))"},
		{"a ; b ; c", "(; a (; b c))"},
		{"a \\ b \\ c", "(\\ (\\ a b) c)"},
		{"a & b & c", "(& a (& b c))"},
		{"a | b ++ c", "(| a (++ b c))"},
		{"a ++ b ; c", "(++ a (; b c))"},
		{"a ; b \\ c", "(; a (\\ b c))"},
		{"a \\ b & c", "(\\ a (& b c))"},
		{"a & b \\ c", "(\\ (& a b) c)"},
		{"a & b * c", "(& a (* b c))"},
		{"W * M & R", "(& (* W M) R)"},
		{"a*", "(* a)"},
		{"a* b", "(* a b)"},
		{"a+ * b", "(* (+ a) b)"},
		{"a * b^-1", "(* a (^-1 b))"},
		{"a*^-1", "(^-1 (* a))"},
		{"a^-1*", "(* (^-1 a))"},
		{"rf -1", "(^-1 rf)"},
		{"(rf) ^ -1", "(^-1 rf)"},
		{"r^+", "(+ r)"},
		{"r^*", "(* r)"},
		{"~a", "(~ a)"},
		{"~a | b", "(| (~ a) b)"},
		{"~a & b", "(& (~ a) b)"},
		{"~a^-1", "(~ (^-1 a))"},
		{"~~a", "(~ (~ a))"},
		{"a?; b+", "(; (? a) (+ b))"},
		{"f x y", "(app (app f x) y)"},
		{"f(x, y)", "(app f (tuple x y))"},
		{"f()", "(app f (tuple ))"},
		{"f x | g y", "(| (app f x) (app g y))"},
		{"f x^-1", "(^-1 (app f x))"},
		{"[R]; po; [W]", "(; ([] R) (; po ([] W)))"},
		{"f [R]", "(app f ([] R))"},
		{"po-loc | DMB.SY | dmb.full", "(| po-loc (| DMB.SY dmb.full))"},
		{"a-b", "a-b"},
		{"x' | _x", "(| x' _x)"},
		{"0 | _ | 'tag", "(| 0 (| _ 'tag))"},
		{"{}", "{}"},
		{"{a, b | c}", "{a (| b c)}"},
		{"a, b | c", "(tuple a (| b c))"},
		{"(a, b)", "(tuple a b)"},
		{"begin a | b end ; c", "(; (| a b) c)"},
		{"s ++ t ++ u", "(++ s (++ t u))"},
		{"fun x -> x | y", "(fun x (| x y))"},
		{"fun (x, _) -> x", "(fun x,_ x)"},
		{"try a with b | c", "(try a (| b c))"},
		{"let y = a in y; y", "(let 1 (; y y))"},
		{`if "v" then a else b | c`, `(if "v" a (| b c))`},
		{`if not "a" && "b" || "c" then a else b`, `(if not "a" && "b" || "c" a b)`},
		{`if not ("a" || "b") then a else b`, `(if not ("a" || "b") a b)`},
		{`if "a" || "b" && "c" then a else b`, `(if "a" || "b" && "c" a b)`},
		{`if a = b then a else b`, `(if a = b a b)`},
	}
	for _, tc := range tests {
		if got := sexpr(parseExpr(t, tc.src)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestHerdRejects lists inputs at herd's non-associative level, which
// herd7 rejects as syntax errors and so do we.
func TestHerdRejects(t *testing.T) {
	for _, src := range []string{"~a*", "~a+ | b", "~a * b", "a * b * c", "a * b+", "a * b?", "a - b", "a ^ b"} {
		if _, err := Parse("e.cat", []byte("let x = "+src)); err == nil {
			t.Errorf("%s: accepted", src)
		}
	}
}

func TestStatements(t *testing.T) {
	src := `AArch64 "A title"
catdep
enum Scopes = || 'a || 'b
instructions R[{'rlx, 'acq}]
default W[{'rlx}]
let a = po and (b, c) = (rf, co)
let f(x, y) = x | y
let g x = x
let h () = 0
let rec r = r; r | po when acyclic r as cyc in
let _ = 0
acyclic po as sc
~irreflexive po
flag ~empty rf as bad
undefined_unless empty rf
assert empty co as c
show a, b
show a | b as ab
unshow a
procedure p(x, y) = acyclic x | y end
procedure rec q z = call q(z) end
call p(po, rf) as named
forall e in {a, b} do empty e end
with co from cos
if "vmsa" && not "x"
  let a = 0
else
  let a = _
end
if "v" then show a end
match a with
|| 'x -> show a
|| _ ->
end
debug a
include "other.cat"
`
	f, err := Parse("s.cat", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Arch != "AArch64" || f.Title != "A title" || !f.CatDep {
		t.Errorf("header: %q %q %v", f.Arch, f.Title, f.CatDep)
	}
	var kinds []string
	for _, s := range f.Stmts {
		kinds = append(kinds, strings.TrimPrefix(typeName(s), "*cat."))
	}
	want := "Enum Instructions Instructions Let Let Let Let Let Let Check Check Check Check Check Show ShowAs Unshow Procedure Procedure Call Forall With IfVariant IfVariant MatchStmt Debug Include"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("statements:\n got %s\nwant %s", got, want)
	}
	let := f.Stmts[3].(*ast.Let)
	if len(let.Bindings) != 2 || strings.Join(let.Bindings[1].Names, ",") != "b,c" {
		t.Errorf("let bindings: %s", ast.String(let))
	}
	fn := f.Stmts[4].(*ast.Let).Bindings[0].Value.(*ast.Fun)
	if fn.Name != "f" || strings.Join(fn.Params, ",") != "x,y" {
		t.Errorf("function sugar: %+v", fn)
	}
	if h := f.Stmts[6].(*ast.Let).Bindings[0].Value.(*ast.Fun); len(h.Params) != 0 {
		t.Errorf("h (): params %q", h.Params)
	}
	rec := f.Stmts[7].(*ast.Let)
	if !rec.Rec || rec.When == nil || rec.When.Name != "cyc" {
		t.Errorf("let rec when: %s", ast.String(rec))
	}
	checks := f.Stmts[9:14]
	wantChecks := []struct {
		mode    ast.CheckMode
		negated bool
		kind    ast.CheckKind
		name    string
	}{{ast.Require, false, ast.Acyclic, "sc"}, {ast.Require, true, ast.Irreflexive, ""}, {ast.Flag, true, ast.IsEmpty, "bad"},
		{ast.UndefinedUnless, false, ast.IsEmpty, ""}, {ast.Assert, false, ast.IsEmpty, "c"}}
	for i, s := range checks {
		c := s.(*ast.Check)
		w := wantChecks[i]
		if c.Mode != w.mode || c.Negated != w.negated || c.Kind != w.kind || c.Name != w.name {
			t.Errorf("check %d: %s", i, ast.String(c))
		}
	}
	iv := f.Stmts[22].(*ast.IfVariant)
	if len(iv.Then) != 1 || len(iv.Else) != 1 || ast.String(iv.Cond) != `"vmsa" && not "x"` {
		t.Errorf("if: %s", ast.String(iv))
	}
	if pos := f.Stmts[19].Position(); pos.String() != "s.cat:22:1" {
		t.Errorf("call position %s", pos)
	}
	ms := f.Stmts[24].(*ast.MatchStmt)
	if len(ms.Clauses) != 1 || !ms.HasDefault || len(ms.Default) != 0 {
		t.Errorf("match: %s", ast.String(ms))
	}
	checkRoundTrip(t, "s.cat", []byte(src))
}

func typeName(v any) string { return strings.Split(strings.TrimPrefix(fmtType(v), "*"), ".")[1] }

func fmtType(v any) string { return strings.ReplaceAll(typeString(v), " ", "") }

func TestMatchExpressions(t *testing.T) {
	src := `let rec f s = match s with {} -> 0 || x ++ r -> x | f r end
let g s = match s with e ++ _ -> e || {} -> _ end
let h s = match s with a | b ++ c -> a || {} -> 0 end
let k t = match t with 'a -> 0 || 'b -> _ || _ -> t end
let j t = match t with _ -> t end`
	f, err := Parse("m.cat", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Stmts[0].(*ast.Let).Bindings[0].Value.(*ast.Fun).Body.(*ast.MatchSet)
	if m.Elem != "x" || m.Rest != "r" || m.Pre != "" {
		t.Errorf("set match: %+v", m)
	}
	if m := f.Stmts[2].(*ast.Let).Bindings[0].Value.(*ast.Fun).Body.(*ast.MatchSet); m.Pre != "a" || m.Elem != "b" || m.Rest != "c" {
		t.Errorf("pre | elem ++ rest: %+v", m)
	}
	tm := f.Stmts[3].(*ast.Let).Bindings[0].Value.(*ast.Fun).Body.(*ast.Match)
	if len(tm.Clauses) != 2 || tm.Default == nil {
		t.Errorf("tag match: %s", ast.String(tm))
	}
	checkRoundTrip(t, "m.cat", []byte(src))
}

func TestComments(t *testing.T) {
	src := "(* a (* nested *) comment *) let a = po // line\n# hash line\nlet b = (* inline *) a\n"
	f, err := Parse("c.cat", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Stmts) != 2 {
		t.Fatalf("got %d statements", len(f.Stmts))
	}
	if p := f.Stmts[1].Position(); p.Line != 3 || p.Col != 1 {
		t.Errorf("position %s", p)
	}
}

// TestModelOptions parses herd7's model options after the header: its
// defaults (withinit, withoutco, and withoutinit, which acts only with
// withco) pass, and withco is refused at its position (see the errors
// golden files).
func TestModelOptions(t *testing.T) {
	f, err := Parse("o.cat", []byte("\"C11\"\nwithinit withoutco\nwithoutinit catdep\nlet x = po\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.CatDep || len(f.Stmts) != 1 {
		t.Errorf("catdep %v, %d statements", f.CatDep, len(f.Stmts))
	}
}
