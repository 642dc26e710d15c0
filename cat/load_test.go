package cat

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/internal/shared"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestIncludeSearchOrder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main/m.cat":   `include "a.cat" include "b.cat" include "c.cat" include "a.cat" include "e.cat"`,
		"main/a.cat":   "let overridden = 0",
		"main/e.cat":   "let beside = 0",
		"lib1/b.cat":   "let b = 0",
		"lib2/b.cat":   "let b2 = 0",
		"lib2/a.cat":   "let a = 0",
		"other/c.cat":  "let unused = 0",
		"lib1/sub.cat": "let sub = 0",
	})
	embedded := fstest.MapFS{
		"c.cat":       {Data: []byte(`include "d.cat"`)},
		"d.cat":       {Data: []byte("let d = 0")},
		"b.cat":       {Data: []byte("let wrong = 0")},
		"lib/one.cat": {Data: []byte("let one = 0")},
	}
	l := &Loader{IncludeDirs: []string{filepath.Join(dir, "lib1"), filepath.Join(dir, "lib2")}, Embedded: []fs.FS{embedded}}
	m, err := l.LoadFile(filepath.Join(dir, "main", "m.cat"))
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, f := range m.Files {
		rel = append(rel, strings.TrimPrefix(filepath.ToSlash(f), filepath.ToSlash(dir)+"/"))
	}
	// As herd7: the -I folders before the including file's folder (herd's
	// library, for its models), which comes before purr's embedded files.
	if got := strings.Join(rel, " "); got != "main/m.cat lib2/a.cat lib1/b.cat embed:c.cat embed:d.cat main/e.cat" {
		t.Errorf("files read: %s", got)
	}
	incs := m.Stmts
	if len(incs) != 5 {
		t.Fatalf("%d statements", len(incs))
	}
	if inc := incs[3].(*ast.Include); inc.Stmts != nil || inc.Resolved == "" {
		t.Errorf("second include of a.cat: %+v", inc)
	}
	c := incs[2].(*ast.Include)
	if c.Resolved != "embed:c.cat" || len(c.Stmts) != 1 || c.Stmts[0].(*ast.Include).Resolved != "embed:d.cat" {
		t.Errorf("embedded include: %s", ast.String(c))
	}
	if p := c.Stmts[0].Position(); p.String() != "embed:c.cat:1:1" {
		t.Errorf("position in embedded file: %s", p)
	}
}

// An include under an if is expanded in each branch; a later include of
// the same file is expanded again unless every branch included it.
func TestIncludeUnderIf(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"m.cat": `if "v" include "a.cat" include "b.cat" else include "a.cat" end
include "a.cat"
include "b.cat"`,
		"a.cat": "let a = 0",
		"b.cat": "let b = 0",
	})
	m, err := (&Loader{}).LoadFile(filepath.Join(dir, "m.cat"))
	if err != nil {
		t.Fatal(err)
	}
	iv := m.Stmts[0].(*ast.IfVariant)
	if iv.Then[0].(*ast.Include).Stmts == nil || iv.Else[0].(*ast.Include).Stmts == nil || iv.Then[1].(*ast.Include).Stmts == nil {
		t.Errorf("branches not expanded: %s", ast.String(iv))
	}
	if m.Stmts[1].(*ast.Include).Stmts != nil {
		t.Error("a.cat included on every path, yet expanded again")
	}
	if m.Stmts[2].(*ast.Include).Stmts == nil {
		t.Error("b.cat included on one path only, yet not expanded")
	}
	if len(m.Files) != 3 {
		t.Errorf("files read %q: each file is read once", m.Files)
	}
}

func TestPredefinedCheck(t *testing.T) {
	src := `let a = po | rf
let f(x) = x; a
let rec r = r; po
let b = try undefinedOK with a
let c = fun y -> y | z
let d = match 0 with {} -> 0 || e ++ s -> e | s | f(s) end
procedure p(x) = let q = x | w end
forall v in {a} do acyclic v end
with co from cos
acyclic co | unknown | c(po)
call p(po)
`
	pre := map[string]Kind{"po": KindRelation, "rf": KindRelation, "cos": KindSet}
	l := &Loader{Predefined: pre}
	_, err := l.LoadSource("u.cat", []byte(src))
	want := "u.cat:5:22: undefined name 'z'\nu.cat:7:30: undefined name 'w'\nu.cat:10:14: undefined name 'unknown'"
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
	l.Predefined = nil
	if _, err := l.LoadSource("u.cat", []byte(src)); err != nil {
		t.Errorf("without Predefined: %v", err)
	}
}

// TestReachableNames checks which unbound names the check reports: those
// herd would meet running the model with the given variants.
func TestReachableNames(t *testing.T) {
	pre := map[string]Kind{"po": KindRelation, "W": KindSet, "domain": KindFunction, "gen": KindFunction}
	tests := []struct {
		name, src, want string
		variants        []string
	}{
		{"unused function", "let f(x) = x | nope\nacyclic po\n", "", nil},
		{"used function", "let f(x) = x | nope\nacyclic f(po)\n", "1:16: undefined name 'nope'", nil},
		{"function passed on", "let f(x) = x | nope\nlet g(h) = h(po)\nacyclic g(f)\n", "1:16: undefined name 'nope'", nil},
		{"through an unused function", "let f(x) = x | nope\nlet g(y) = f(y)\nacyclic po\n", "", nil},
		{"through a used function", "let f(x) = x | nope\nlet g(y) = f(y)\nacyclic g(po)\n", "1:16: undefined name 'nope'", nil},
		{"let rec function", "let rec f(x) = f(x) | nope\nacyclic f(po)\n", "1:23: undefined name 'nope'", nil},
		{"let in function", "let f = let k = po in fun x -> x | k | nope\nacyclic f(po)\n", "1:40: undefined name 'nope'", nil},
		{"uncalled procedure", "procedure p(x) = acyclic x | nope end\n", "", nil},
		{"called procedure", "procedure p(x) = acyclic x | nope end\ncall p(po)\n", "1:30: undefined name 'nope'", nil},
		{"procedure defined after its caller", "procedure p(x) = call q(x) end\nprocedure q(x) = acyclic nope end\ncall p(po)\ncall q(po)\n", "1:18: call of undefined procedure 'q'\nm.cat:2:26: undefined name 'nope'", nil},
		{"procedure called in procedure", "procedure q(x) = acyclic nope end\nprocedure p(x) = call q(x) end\ncall p(po)\n", "1:26: undefined name 'nope'", nil},
		{"bound after the function", "let f(x) = x | later\nlet later = po\nacyclic f(po)\n", "1:16: undefined name 'later'", nil},
		{"bound after the procedure", "procedure p(x) = acyclic later end\nlet later = po\ncall p(po)\n", "1:26: undefined name 'later'", nil},
		{"bound in a forall body", "forall e in W do let k = po end\nacyclic k\n", "2:9: undefined name 'k'", nil},
		{"variant branch not taken", `let k = if "v" then nope else po` + "\nacyclic k\n", "", nil},
		{"variant branch taken", `let k = if "v" then nope else po` + "\nacyclic k\n", "1:21: undefined name 'nope'", []string{"v"}},
		{"bound in the branch taken", `if "v" then let k = po else let j = po end` + "\nacyclic k\n", "2:9: undefined name 'k'", nil},
		{"with binds", "with x from W\nacyclic x | po\n", "", nil},
		{"native with", "let gen2(x) = nope\nwith co from gen2(po)\nacyclic co\n", "", nil},
		{"try", "let f(x) = nope\nacyclic try f(po) | nope2 with po\n", "", nil},
		{"unbound function", "acyclic nofun(po)\n", "1:9: undefined function 'nofun'", nil},
		{"relation applied", "acyclic po(W)\n", "1:9: 'po' is a predefined relation, not a function", nil},
		{"relation called", "call po(W)\n", "1:1: 'po' is a predefined relation, not a procedure", nil},
		{"shadowed predefined", "let po(x) = x\nacyclic po(W)\n", "", nil},
	}
	for _, tc := range tests {
		l := &Loader{Predefined: pre, Variants: tc.variants,
			NativeWith: func(w *ast.With) bool { return w.Var == "co" }}
		_, err := l.LoadSource("m.cat", []byte(tc.src))
		got := ""
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "m.cat:")
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestProcedures(t *testing.T) {
	tests := []struct{ src, want string }{
		{"procedure p(a, b) = end call p(x, y)", ""},
		{"procedure p(a) = end call p(x, y, z)", ""},
		{"procedure p(a, b) = end call p(t)", ""},
		{"procedure p() = end call p()", ""},
		{"procedure p(a, b) = end call p({})", "p.cat:1:25: procedure 'p' (defined at p.cat:1:1) takes 2 arguments, got 1 argument"},
		{"procedure rec p(a) = call p(a) end", ""},
		{"procedure p(a) = call p(a) end", "p.cat:1:18: call of undefined procedure 'p'"},
		{"call p(a) procedure p(a) = end", "p.cat:1:1: call of undefined procedure 'p'"},
		{"procedure p(a) = procedure q(b) = end end call q(a)", "p.cat:1:43: call of undefined procedure 'q'"},
		{`if "v" procedure p(a) = end end call p(a)`, ""},
	}
	for _, tc := range tests {
		_, err := (&Loader{}).LoadSource("p.cat", []byte(tc.src))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func BenchmarkLoadAArch64(b *testing.B) {
	dir := shared.Path(b, "herd-libdir")
	l := &Loader{IncludeDirs: []string{dir}}
	path := filepath.Join(dir, "aarch64.cat")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.LoadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}
