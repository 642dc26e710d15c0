package mcm

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// canonicalExecutions lists the canonical forms of an outcome's
// executions, sorted.
func canonicalExecutions(out *outcome.Outcome) []string {
	var keys []string
	for i := range out.Executions {
		keys = append(keys, out.Executions[i].Canonical())
	}
	slices.Sort(keys)
	return keys
}

// TestExecutionsDifferential checks that both engines, each capturing its
// executions its own way, find the same executions (events, rf, co) of
// every classic test under sc, tso, pso and aarch64, and that -show all
// keeps as many as Positive + Negative.
func TestExecutionsDifferential(t *testing.T) {
	files, err := filepath.Glob(repoPath("testdata/classic/*.litmus"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no classic tests: %v", err)
	}
	for _, model := range []string{"sc", "tso", "pso", "aarch64"} {
		m := embeddedModel(t, model)
		for _, f := range files {
			test := parseTestFile(t, f)
			name := model + "/" + filepath.Base(f)
			sat, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			exp, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll, Engine: EngineExplicit})
			if err != nil {
				t.Fatalf("%s (explicit): %v", name, err)
			}
			if n := sat.Positive + sat.Negative; len(sat.Executions) != n || len(exp.Executions) != n {
				t.Errorf("%s: %d and %d executions kept, want %d", name, len(sat.Executions), len(exp.Executions), n)
			}
			a, b := canonicalExecutions(sat), canonicalExecutions(exp)
			if !slices.Equal(a, b) {
				t.Errorf("%s: the engines' executions differ:\nsat:      %q\nexplicit: %q", name, a, b)
			}
			if len(slices.Compact(slices.Clone(a))) != len(a) {
				t.Errorf("%s: an execution is listed twice: %q", name, a)
			}
			// Beyond events, rf and co: every relation and set captured.
			byKey := map[string]outcome.Execution{}
			for _, x := range exp.Executions {
				byKey[x.Canonical()] = x
			}
			for _, x := range sat.Executions {
				y, ok := byKey[x.Canonical()]
				if !ok {
					continue
				}
				if !reflect.DeepEqual(x.Relations, y.Relations) || !reflect.DeepEqual(x.Sets, y.Sets) {
					t.Errorf("%s: the engines capture different relations or sets of %s:\nsat:      %v %v\nexplicit: %v %v",
						name, x.Canonical(), x.Relations, x.Sets, y.Relations, y.Sets)
				}
			}
		}
	}
}

// TestShowSelects checks each -show selection against herd7's meaning on
// SB under tso (exists; 1 positive, 3 negative executions).
func TestShowSelects(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/classic/SB.litmus"))
	m := embeddedModel(t, "tso")
	for _, c := range []struct {
		show outcome.Show
		want int
	}{{outcome.ShowAll, 4}, {outcome.ShowProp, 1}, {outcome.ShowNeg, 3}, {outcome.ShowCond, 1}, {outcome.ShowWit, 1}, {outcome.ShowNone, 0}, {"", 0}} {
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(m, test, Options{Unroll: 2, Show: c.show, Engine: engine})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Executions) != c.want {
				t.Errorf("-show %q (%s): %d executions, want %d", c.show, engine, len(out.Executions), c.want)
			}
			for _, x := range out.Executions {
				if !c.show.Selects(test.Quant, x.Holds) {
					t.Errorf("-show %q (%s): execution %d does not belong", c.show, engine, x.Index)
				}
			}
		}
	}
}

// TestCaptureBindings checks what an execution keeps of a model: its
// top-level relations and sets, what it shows (show, show as, unshow),
// what a "with" over relations binds (each execution is one choice), and
// nothing bound after a "with" over tags, whose branches bind differently;
// in both engines.
func TestCaptureBindings(t *testing.T) {
	m := inlineModel(t, `"capture"
let a = po
let s = R
show a
show rf as seen
show s
unshow a
with r from {po, rf}
let d = r
show d
acyclic r
with t from {'a, 'b}
let e = po
show e
`)
	test := parseTestFile(t, repoPath("testdata/classic/MP.litmus"))
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		out, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll, Engine: engine, Capture: []string{"addr", "IW"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"seen", "s", "d"}; !slices.Equal(out.Shown, want) {
			t.Errorf("%s: shown %q, want %q", engine, out.Shown, want)
		}
		if len(out.Executions) == 0 {
			t.Fatalf("%s: no execution", engine)
		}
		x := out.Executions[0]
		for _, name := range []string{"a", "seen", "addr", "po-loc"} {
			if _, ok := x.Relations[name]; !ok {
				t.Errorf("%s: relation %s not captured", engine, name)
			}
		}
		for _, name := range []string{"s", "IW"} {
			if _, ok := x.Sets[name]; !ok {
				t.Errorf("%s: set %s not captured", engine, name)
			}
		}
		if _, ok := x.Relations["d"]; !ok {
			t.Errorf("%s: d, the relation chosen, was not captured", engine)
		}
		if _, ok := x.Relations["e"]; ok {
			t.Errorf("%s: e, bound after a choice of tags, was captured", engine)
		}
		if !reflect.DeepEqual(x.Relations["seen"], x.Relations["rf"]) || len(x.Relations["rf"]) != 2 {
			t.Errorf("%s: seen %v, rf %v", engine, x.Relations["seen"], x.Relations["rf"])
		}
		if got := x.Sets["IW"]; !slices.Equal(got, []int{0, 1}) {
			t.Errorf("%s: IW = %v, want the two init writes [0 1]", engine, got)
		}
	}
}
