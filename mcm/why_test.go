package mcm

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestWhyMinimalSets checks purr why on the suites whose outcomes the
// models forbid, as a user would check it with -skipchecks: for every set
// S it names, the outcome is observed with -skipchecks S and not with
// S less any one of its checks; the set's execution shows the outcome
// and fails exactly S, each failure with its witness; an outcome why calls
// allowed is observed with no check left out. The catalogue's sets are
// checked by the explicit engine too.
func TestWhyMinimalSets(t *testing.T) {
	for _, c := range []struct {
		folder, model string
		every, short  int // see shared.Every
		explicit      bool
	}{
		{"herd-catalogue-aarch64", "aarch64", 1, 1, true},
		{"herd-catalogue-aarch64", "sc", 1, 2, true},
		{"dat3m-aarch64", "aarch64", 2, 40, false},
		{"dat3m-aarch64", "sc", 2, 40, false},
		{"dat3m-c11", "rc11", 1, 8, false},
	} {
		t.Run(c.folder+"/"+c.model, func(t *testing.T) {
			dir := shared.Path(t, filepath.Join("corpus", c.folder))
			m := embeddedModel(t, c.model)
			var paths []string
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".litmus") {
					paths = append(paths, p)
				}
				return nil
			})
			every := shared.Every(*corpusAll, c.every, c.short)
			forbidden := 0
			for i, p := range paths {
				if i%every != 0 {
					continue
				}
				lt, err := litmus.Parse(p, mustRead(t, p))
				if err != nil {
					continue // refused tests are the corpus tests' business
				}
				w, err := Why(context.Background(), m, lt, Options{}, 0)
				if err != nil {
					continue
				}
				if len(w.Sets) > 0 {
					forbidden++
				}
				checkWhy(t, m, lt, w, EngineSAT)
				if c.explicit {
					checkWhy(t, m, lt, w, EngineExplicit)
				}
			}
			if forbidden == 0 {
				t.Fatalf("no test of %s is forbidden under %s", c.folder, c.model)
			}
		})
	}
}

// checkWhy checks Why's answer for a test with the engine.
func checkWhy(t *testing.T, m *cat.Model, lt *litmus.Test, w *outcome.Why, engine string) {
	t.Helper()
	observed := func(skip []string) bool {
		out, err := Check(m, lt, Options{Engine: engine, SkipChecks: skip})
		if err != nil {
			t.Fatalf("%s: %s: -skipchecks %v: %v", lt.File, engine, skip, err)
		}
		if lt.Quant == litmus.Forall {
			return out.Negative > 0
		}
		return out.Positive > 0
	}
	if w.Allowed != nil {
		if !observed(nil) {
			t.Errorf("%s: %s: why says the outcome is allowed; it is not observed", lt.File, engine)
		}
		return
	}
	if len(w.Sets) > 0 && observed(nil) {
		t.Errorf("%s: %s: why gives sets of checks; the outcome is observed with every check", lt.File, engine)
	}
	for _, set := range w.Sets {
		if !observed(set.Checks) {
			t.Errorf("%s: %s: -skipchecks %s does not let the outcome be observed", lt.File, engine, strings.Join(set.Checks, ","))
		}
		for i := range set.Checks {
			less := slices.Delete(slices.Clone(set.Checks), i, i+1)
			if observed(less) {
				t.Errorf("%s: %s: -skipchecks %s is not minimal: %v suffices", lt.File, engine, strings.Join(set.Checks, ","), less)
			}
		}
		if engine != EngineSAT {
			continue
		}
		x := set.Execution
		if x.Holds == (lt.Quant == litmus.Forall) {
			t.Errorf("%s: the execution of set %v does not show the outcome", lt.File, set.Checks)
		}
		var failed []string
		for _, f := range x.Fails {
			failed = append(failed, f.Check)
			if f.Kind == "acyclic" && (len(f.Witness) == 0 || f.Witness[0].From != f.Witness[len(f.Witness)-1].To) {
				t.Errorf("%s: %s: the witness %v is no cycle", lt.File, f.Check, f.Witness)
			}
		}
		slices.Sort(failed)
		failed = slices.Compact(failed)
		want := slices.Sorted(slices.Values(set.Checks))
		if !slices.Equal(failed, want) {
			t.Errorf("%s: the execution of set %v fails %v", lt.File, set.Checks, failed)
		}
	}
}

// BenchmarkWhy compares purr why with the ordinary check on the Dat3M
// AArch64 tests whose outcome aarch64 forbids (every tenth): why must take
// at most three times the check (docs/performance.md records the ratio).
func BenchmarkWhy(b *testing.B) {
	dir := shared.Path(b, filepath.Join("corpus", "dat3m-aarch64"))
	m := embeddedModel(b, "aarch64")
	var tests []*litmus.Test
	i := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".litmus") {
			return nil
		}
		if i++; i%10 != 0 {
			return nil
		}
		src, _ := os.ReadFile(p)
		lt, err := litmus.Parse(p, src)
		if err != nil {
			return nil
		}
		if out, err := Check(m, lt, Options{}); err == nil && out.Positive == 0 && lt.Quant == litmus.Exists {
			tests = append(tests, lt)
		}
		return nil
	})
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			for _, lt := range tests {
				if _, err := Check(m, lt, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("why", func(b *testing.B) {
		for b.Loop() {
			for _, lt := range tests {
				if _, err := Why(context.Background(), m, lt, Options{}, 0); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
