package mcm

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalErrors checks that models that parse but cannot be evaluated
// get an error at the position of the fault, never a panic.
func TestEvalErrors(t *testing.T) {
	lt := parseTestFile(t, repoPath("testdata/classic/SB.litmus"))
	for _, c := range []struct{ name, src, want string }{
		{"unbounded recursion", "let rec f x = f x\nlet r = f po\nacyclic r\n",
			"inline.cat:2:15: calls of f nest deeper than 10000: unbounded recursion?"},
		{"mutual recursion", "let rec f x = g x\nand g x = f x\nacyclic f(po)\n",
			"calls of f nest deeper than 10000"},
		{"fixpoint that oscillates", "let rec r = po \\ r\nacyclic r\n",
			"the fixpoint of r does not converge"},
		{"undefined name", "acyclic po | nothere\n", "inline.cat:2:14: unbound name nothere"},
		{"not a function", "let r = po(rf)\nacyclic r\n", "inline.cat:2:9: a relation is not a function"},
		{"match without arm", "let r = match 'a with 'b -> po end\nacyclic r\n",
			"inline.cat:2:9: no arm of the match matches 'a"},
		{"set and relation", "acyclic domain(po) ; po\n", "inline.cat:2:20: ; of an event set and a relation"},
		{"set and relation under an intersection", "acyclic po & (domain(po) ; po)\n", "inline.cat:2:26: ; of an event set and a relation"},
		{"tuple arity", "let f (a, b) = a | b\nlet r = f po\nacyclic r\n", "inline.cat:3:9: expected a tuple of 2 values"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, engine := range []string{EngineSAT, EngineExplicit} {
				_, err := Check(inlineModel(t, "\"m\"\n"+c.src), lt, Options{Unroll: 1, Engine: engine})
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: got %v, want an error containing %q", engine, err, c.want)
				}
			}
		})
	}
}

// TestFixpoints checks that recursive definitions reach the least
// fixpoint in every execution, although the SAT algebra builds new
// literals each round (r;r): a closure by squaring equals ^+.
func TestFixpoints(t *testing.T) {
	lt := parseTestFile(t, repoPath("testdata/classic/IRIW.litmus"))
	m := inlineModel(t, `"fixpoints"
let com = rf | co | fr
let rec closure = po | com | closure; closure
flag ~empty (closure \ (po | com)^+) as too-big
flag ~empty ((po | com)^+ \ closure) as too-small
let rec left = po | com | left; (po | com)
flag ~empty (left \ closure) | (closure \ left) as squaring-differs
`)
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		out, err := Check(m, lt, Options{Unroll: 1, Engine: engine})
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		if len(out.Flags) != 0 || out.Positive+out.Negative == 0 {
			t.Errorf("%s: flags %v, %d executions", engine, out.Flags, out.Positive+out.Negative)
		}
	}
}

// TestPrefixpoints: let recs that only grow into required checks are
// encoded as prefixpoints by the SAT engine (mcm/internal/eval/letrec.go); the
// explicit engine iterates them. Both must agree, with the same let rec
// iterated where a flag or a shown relation reads it too.
func TestPrefixpoints(t *testing.T) {
	models := map[string]string{
		"order": `"order"
let rec S = po | rf | WW(Sloc;rf^-1)\id | RW(rf^-1;Sloc)\id | S;S
and Sloc = S & loc
acyclic S as sc
let c = WW(Sloc)
empty rmw & ((fr & ext);(c & ext)) as atom
`,
		"flagged": `"flagged"
let rec S = po | rf | WW(Sloc;rf^-1)\id | RW(rf^-1;Sloc)\id | S;S
and Sloc = S & loc
acyclic S as sc
flag ~empty (co \ WW(Sloc)) as other-co
`,
		"hb": `"hb"
let rec hb = po | rf | co | fr | hb;hb
irreflexive hb as sc
`,
	}
	paths, _ := filepath.Glob(repoPath("testdata/classic/*.litmus"))
	if len(paths) == 0 {
		t.Fatal("no tests")
	}
	for name, src := range models {
		m := inlineModel(t, src)
		for _, p := range paths {
			lt := parseTestFile(t, p)
			if d := engineDiff(m, lt); len(d) > 0 {
				t.Errorf("%s, %s: %s", name, filepath.Base(p), strings.Join(d, "; "))
			}
		}
	}
}
