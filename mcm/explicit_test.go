package mcm

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
)

// BenchmarkEngines compares the SAT and explicit engines on the classic
// tests, one sub-benchmark per model, engine and test; the estimated
// number of candidates of each test is in its name. It is why purr has
// no automatic choice of engine (see EngineSAT).
func BenchmarkEngines(b *testing.B) {
	files, err := filepath.Glob(repoPath("testdata/classic/*.litmus"))
	if err != nil || len(files) == 0 {
		b.Fatal("no classic tests", err)
	}
	var tests []*litmus.Test
	for _, f := range files {
		tests = append(tests, parseTestFile(b, f))
	}
	for _, model := range []string{"sc", "aarch64"} {
		m := embeddedModel(b, model)
		for _, lt := range tests {
			n, err := candidateEstimate(lt, 2)
			if err != nil {
				b.Fatal(err)
			}
			for _, engine := range []string{EngineSAT, EngineExplicit} {
				b.Run(fmt.Sprintf("%s/%s/%.0f/%s", model, lt.Name, n, engine), func(b *testing.B) {
					for b.Loop() {
						if _, err := Check(m, lt, Options{Unroll: 2, Engine: engine}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// TestExplicitCandidates counts the consistent executions the explicit
// engine finds under no model (every candidate: explicit.TestCandidates
// counts them) and under sc: herd7's figures for these shapes. The model
// without axioms reads co (co is always acyclic), so that executions are
// told apart by co as under a model that builds co from the engine's.
func TestExplicitCandidates(t *testing.T) {
	none := inlineModel(t, `"no axioms"`+"\nacyclic co\n")
	sc := embeddedModel(t, "sc")
	for _, c := range []struct {
		path                string
		candidates, underSC int
	}{
		// Two reads of two values each.
		{"testdata/classic/SB.litmus", 4, 3},
		// One thread's two writes to x in both co orders; sc keeps po's.
		{"testdata/classic/CoWW.litmus", 2, 1},
		// Four reads, two values each.
		{"testdata/classic/IRIW.litmus", 16, 15},
		// Each SWP reads the initial value or the other thread's store, and
		// each location has two co orders. Three are the interleavings; sc
		// (herd's sc.cat alike) also keeps the two where a SWP reads the
		// other store although its own write is co-before that store: no
		// axiom of sc relates a SWP's read to its write.
		{"testdata/classic/SB+swps.litmus", 16, 5},
	} {
		lt := parseTestFile(t, repoPath(c.path))
		for _, m := range []struct {
			name  string
			model *cat.Model
			want  int
		}{{"no model", none, c.candidates}, {"sc", sc, c.underSC}} {
			out, err := Check(m.model, lt, Options{Unroll: 2, Engine: EngineExplicit})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Positive + out.Negative; got != m.want {
				t.Errorf("%s under %s: %d consistent executions, want %d", c.path, m.name, got, m.want)
			}
		}
	}
}

func TestEngineOption(t *testing.T) {
	lt := inlineTest(t, sb)
	m := embeddedModel(t, "sc")
	for _, engine := range []string{"", EngineSAT, EngineExplicit} {
		out, err := Check(m, lt, Options{Engine: engine})
		if err != nil {
			t.Fatalf("engine %q: %v", engine, err)
		}
		if out.Positive != 0 || out.Negative != 3 || len(out.States) != 3 {
			t.Errorf("engine %q: Positive %d Negative %d, %d states; want 0, 3, 3", engine, out.Positive, out.Negative, len(out.States))
		}
	}
	for _, engine := range []string{"herd", "auto"} {
		if _, err := Check(m, lt, Options{Engine: engine}); err == nil || !strings.Contains(err.Error(), `unknown engine "`+engine+`"`) {
			t.Errorf("engine %s: got %v, want an unknown-engine error", engine, err)
		}
	}
}
