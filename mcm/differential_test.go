package mcm

import (
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/explicit"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
)

var differentialAll = flag.Bool("differential-all", false,
	"compare the engines on every test of every corpus (by default, a fixed subset of dat3m-aarch64)")

// differentialLimit is the largest estimated number of candidate
// executions of a test that the differential tests give the explicit
// engine.
const differentialLimit = 20000

// sameOutcome compares two engines' outcomes of one test field by field.
func sameOutcome(t *litmus.Test, want, got *outcome.Outcome) []string {
	rw, rg := want.Result(t, false), got.Result(t, false)
	diffs := herdtest.Compare(herdtest.Block{Result: &rw}, herdtest.Block{Result: &rg})
	if a, b := strings.Join(rw.Flags, ","), strings.Join(rg.Flags, ","); a != b {
		diffs = append(diffs, fmt.Sprintf("flags: want {%s}, got {%s}", a, b))
	}
	if rw.Loop != rg.Loop {
		diffs = append(diffs, fmt.Sprintf("loop: want %v, got %v", rw.Loop, rg.Loop))
	}
	return diffs
}

// candidateEstimate is explicit.Candidates for a test.
func candidateEstimate(t *litmus.Test, unroll int) (float64, error) {
	u, err := analysed(t, unroll)
	if err != nil {
		return 0, err
	}
	return explicit.Candidates(u), nil
}

// analysed unfolds a test, its loops unrolled unroll times, and runs the
// value analysis on it.
func analysed(t *litmus.Test, unroll int) (*events.Unfolding, error) {
	_, regs, mem, err := events.InitialState(t)
	if err != nil {
		return nil, err
	}
	u, err := events.Unfold(t.Program, unroll, regs, mem)
	if err != nil {
		return nil, err
	}
	return u, u.AnalyseValues()
}

// engineDiff runs both engines (the SAT one re-checking its executions)
// and describes how they differ; nil when they agree. Errors of both
// engines agree when they are the same error.
func engineDiff(m *cat.Model, t *litmus.Test) []string {
	_, d := compareEngines(m, t)
	return d
}

// compareEngines is engineDiff that also returns the SAT engine's outcome
// (nil on an error).
func compareEngines(m *cat.Model, t *litmus.Test) (*outcome.Outcome, []string) {
	want, werr := Check(m, t, engineOptions(EngineSAT, 2))
	got, gerr := Check(m, t, engineOptions(EngineExplicit, 2))
	if werr != nil {
		want = nil
	}
	return want, resultsDiff(t, want, werr, got, gerr)
}

// engineOptions are the options the engines are compared with: the SAT
// engine re-checks every execution it accepts.
func engineOptions(engine string, unroll int) Options {
	return Options{Unroll: unroll, Engine: engine, CheckModels: engine == EngineSAT}
}

// resultsDiff describes how the SAT engine's result of a test (want,
// werr) differs from the explicit engine's; nil when they agree. Errors
// agree when they are the same error.
func resultsDiff(t *litmus.Test, want *outcome.Outcome, werr error, got *outcome.Outcome, gerr error) []string {
	switch {
	case werr != nil && gerr != nil:
		if werr.Error() != gerr.Error() {
			return []string{fmt.Sprintf("sat: %v; explicit: %v", werr, gerr)}
		}
		return nil
	case werr != nil:
		return []string{fmt.Sprintf("sat: %v", werr)}
	case gerr != nil:
		return []string{fmt.Sprintf("explicit: %v", gerr)}
	}
	return sameOutcome(t, want, got)
}

// differentialCorpus is a folder of tests, the models to compare the
// engines under, and the fraction of its tests compared by default.
type differentialCorpus struct {
	folder string // under ../shared/corpus
	models []string
	// Without -differential-all, every every-th test (in the order of
	// their paths), every short-th under -short (see shared.Every).
	every, short int
}

func TestDifferentialCorpora(t *testing.T) {
	aarch64 := []string{"sc", "tso", "pso", "aarch64"}
	c11 := []string{"sc", "tso", "pso"}
	if _, err := fs.Stat(models.FS, "rc11.cat"); err == nil {
		c11 = append(c11, "rc11")
	}
	for _, c := range []differentialCorpus{
		{folder: "herd-catalogue-aarch64", models: aarch64, every: 1, short: 1},
		{folder: "herd-regression/AArch64", models: aarch64, every: 1, short: 4},
		{folder: "dat3m-aarch64", models: aarch64, every: 16, short: 128},
		{folder: "herd-regression/C", models: c11, every: 1, short: 1},
		{folder: "dat3m-c11", models: c11, every: 1, short: 2},
		{folder: "dat3m-ppc", models: []string{"ppc"}, every: 8, short: 64},
	} {
		t.Run(strings.ReplaceAll(c.folder, "/", "-"), func(t *testing.T) { runDifferential(t, c) })
	}
}

func runDifferential(t *testing.T, c differentialCorpus) {
	tests := differentialTests(t, c)
	for _, name := range c.models {
		m := embeddedModel(t, name)
		bad := 0
		for _, lt := range tests {
			if d := engineDiff(m, lt); len(d) > 0 {
				bad++
				t.Errorf("%s under %s: the engines disagree: %s", lt.File, name, strings.Join(d, "; "))
			}
		}
		t.Logf("%s under %s: %d tests compared, %d agree", c.folder, name, len(tests), len(tests)-bad)
	}
}

// differentialTests reads the tests of a corpus the engines are compared
// on: those purr reads, of at most differentialLimit candidates.
func differentialTests(t *testing.T, c differentialCorpus) []*litmus.Test {
	dir := shared.Path(t, filepath.Join("corpus", c.folder))
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".litmus") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var tests []*litmus.Test
	unreadable, big := 0, 0
	every := shared.Every(*differentialAll, c.every, c.short)
	for i, f := range files {
		if i%every != 0 {
			continue
		}
		src, err := readFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(f, src)
		if err != nil {
			unreadable++
			continue
		}
		n, err := candidateEstimate(lt, 2)
		if err != nil {
			unreadable++
			continue
		}
		if n > differentialLimit {
			big++
			continue
		}
		tests = append(tests, lt)
	}
	t.Logf("%s: %d tests left out (%d unreadable by purr, %d over %d candidates)", c.folder,
		len(files)-len(tests), unreadable, big, differentialLimit)
	return tests
}

// TestDifferentialThrough compares the engines under -through invalid:
// the same counts and states, and, execution by execution, the same
// checks failed.
func TestDifferentialThrough(t *testing.T) {
	for _, c := range []differentialCorpus{
		{folder: "herd-catalogue-aarch64", models: []string{"aarch64", "sc"}, every: 1, short: 2},
		{folder: "herd-regression/AArch64", models: []string{"aarch64"}, every: 1, short: 8},
		{folder: "dat3m-aarch64", models: []string{"aarch64"}, every: 16, short: 512},
		{folder: "herd-regression/C", models: []string{"rc11"}, every: 1, short: 4},
		{folder: "dat3m-c11", models: []string{"rc11"}, every: 1, short: 8},
	} {
		t.Run(strings.ReplaceAll(c.folder, "/", "-"), func(t *testing.T) {
			tests := differentialTests(t, c)
			for _, name := range c.models {
				m := embeddedModel(t, name)
				for _, lt := range tests {
					opt := Options{Through: "invalid", Show: outcome.ShowAll}
					opt.Engine = EngineSAT
					want, werr := Check(m, lt, opt)
					opt.Engine = EngineExplicit
					got, gerr := Check(m, lt, opt)
					d := resultsDiff(lt, want, werr, got, gerr)
					if len(d) == 0 && werr == nil {
						if a, b := failsByExecution(want), failsByExecution(got); a != b {
							d = append(d, fmt.Sprintf("failed checks: sat\n%s\nexplicit\n%s", a, b))
						}
					}
					if len(d) > 0 {
						t.Errorf("%s under %s, -through invalid: the engines disagree: %s", lt.File, name, strings.Join(d, "; "))
					}
				}
			}
		})
	}
}

// failsByExecution lists, one line per execution in a fixed order, an
// execution's identity and the checks it fails.
func failsByExecution(out *outcome.Outcome) string {
	var lines []string
	for _, x := range out.Executions {
		var checks []string
		for _, f := range x.Fails {
			checks = append(checks, f.Check)
		}
		sort.Strings(checks)
		lines = append(lines, x.Canonical()+" fails "+strings.Join(checks, ","))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
