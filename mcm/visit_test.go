package mcm

import (
	"reflect"
	"slices"
	"testing"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestVisit checks Options.Visit under both engines: it gets the
// executions -show keeps, in the same order, built in full as kept or
// briefly (events, po, rf, co, fr, failed checks: no model relation);
// returning false stops the enumeration there.
func TestVisit(t *testing.T) {
	m := embeddedModel(t, "aarch64")
	test := parseTestFile(t, repoPath("testdata/classic/SB+dmb.sys.litmus"))
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		opt := Options{Unroll: 2, Show: outcome.ShowAll, Through: "all", Engine: engine}
		kept, err := Check(m, test, opt)
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		var full, brief []outcome.Execution
		opt.Visit = func(v outcome.Visited) bool {
			x, b := v.Build(false), v.Build(true)
			if v.Index != x.Index || v.Holds != x.Holds || !reflect.DeepEqual(v.State, x.State) || !slices.Equal(v.Flags, x.Flags) {
				t.Errorf("%s: visited %d as %+v, built as %d", engine, v.Index, v, x.Index)
			}
			full, brief = append(full, x), append(brief, b)
			return true
		}
		visited, err := Check(m, test, opt)
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		if len(visited.Executions) != 0 || !reflect.DeepEqual(full, kept.Executions) || !visited.Complete {
			t.Errorf("%s: visited %d executions, kept %d: not the same", engine, len(full), len(kept.Executions))
		}
		for i, b := range brief {
			x := full[i]
			for _, rel := range outcome.BaseRelations {
				if !reflect.DeepEqual(b.Relations[rel], x.Relations[rel]) {
					t.Errorf("%s: execution %d built briefly has %s %v, in full %v", engine, x.Index, rel, b.Relations[rel], x.Relations[rel])
				}
			}
			if len(b.Relations) != len(outcome.BaseRelations) || len(b.Sets) != 0 || !reflect.DeepEqual(b.Fails, x.Fails) {
				t.Errorf("%s: execution %d built briefly: %v %v %v", engine, x.Index, b.Relations, b.Sets, b.Fails)
			}
		}
		n := 0
		opt.Visit = func(outcome.Visited) bool { n++; return n < 2 }
		if stopped, err := Check(m, test, opt); err != nil || n != 2 || stopped.Complete {
			t.Errorf("%s: stopping at the second execution: visited %d, complete %v, %v", engine, n, stopped.Complete, err)
		}
	}
}
