package mcm

import (
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

var herdLibAll = flag.Bool("herdlib-all", false, "TestHerdLibModels: run every test of the large folders, not a sample")

// herdLibCase runs one of herd7's own models (from ../shared/herd-libdir,
// unmodified) on a folder and compares with herd7's output under it.
type herdLibCase struct {
	folder, ref, model string
	// Unless -herdlib-all, only every every-th test runs, every short-th
	// under -short (see shared.Every; 0 counts as 1).
	every, short int
	// maxDiffer is the number of the tests run that may differ from herd7
	// in verdict, States or counts: where purr stands, lowered as herd's
	// event structure lands (a bound that holds for any sample).
	maxDiffer int
}

// herdLibCases are herd's models with where purr stands on each folder.
var herdLibCases = []herdLibCase{
	{folder: "herd-catalogue-aarch64", ref: "herd-7.57.txt", model: "aarch64.cat", short: 3},
	{folder: "dat3m-aarch64", ref: "herd-7.57.txt", model: "aarch64.cat", every: 10, short: 400},
	{folder: "dat3m-c11", ref: "herd-models/rc11.txt", model: "rc11.cat"},
	{folder: "dat3m-c11", ref: "herd-models/uniproc.txt", model: "uniproc.cat"},
}

// TestHerdLibModels measures how far purr runs herd7's own models as
// herd7 does: herd's aarch64.cat computes dependencies itself from
// register events (aarch64deps.cat), and herd's C models assume one event
// per read-modify-write.
func TestHerdLibModels(t *testing.T) {
	for _, c := range herdLibCases {
		t.Run(c.folder+"/"+c.model, func(t *testing.T) { runHerdLib(t, c) })
	}
}

// TestHerdLibEngines holds both engines to the same answers under herd's
// aarch64.cat, whose dependencies come from register events, and under
// herd's C models, which see a C11 read-modify-write as one event. Under
// -short, every other test of each folder (in the order of their paths).
func TestHerdLibEngines(t *testing.T) {
	for _, c := range []struct {
		folder, pattern, model string
		maxCandidates          float64
		// shortLeaveOut are tests left out under -short, for their time.
		shortLeaveOut []string
	}{
		{"herd-catalogue-aarch64", "*.litmus", "aarch64.cat", 20000, nil},
		{"dat3m-c11", "*/*.litmus", "uniproc.cat", 20000, nil},
		{"dat3m-c11", "*/*.litmus", "rc11.cat", 20000, nil},
		// Models that choose orders (with x from linearisations(...)) and
		// build no co from the engines' (herd's counting, both engines).
		// The explicit engine tries every order of every candidate, and
		// --check-models every order of every execution the SAT engine
		// finds: fewer candidates (simple-c11.cat's linearisations of all
		// SC events take minutes on iriw_sc in the explicit engine), and
		// under -short not iriw_sc at all (--check-models: over two
		// minutes, 95% of what -short ran).
		{"dat3m-c11", "*/*.litmus", "c11_orig.cat", 200, []string{"iriw_sc.litmus"}},
		{"dat3m-c11", "*/*.litmus", "naked.cat", 20000, nil},
		// herd's Power model, its ppo a recursive fixpoint: the tests of at
		// most 40 candidates (a third of the suite), for time; the engines
		// are compared on all of it under purr's ppc (TestDifferentialCorpora).
		{"dat3m-ppc", "*.litmus", "ppc.cat", 40, nil},
	} {
		t.Run(c.folder+"/"+c.model, func(t *testing.T) {
			dir := shared.Path(t, filepath.Join("corpus", c.folder))
			m := herdLibModel(t, c.model)
			paths, _ := filepath.Glob(filepath.Join(dir, c.pattern))
			if len(paths) == 0 {
				t.Fatal("no tests")
			}
			compared, every := 0, shared.Every(false, 1, 2)
			for i, p := range paths {
				if i%every != 0 || testing.Short() && slices.Contains(c.shortLeaveOut, filepath.Base(p)) {
					continue
				}
				lt, err := litmus.Parse(p, mustRead(t, p))
				if err != nil {
					continue // herd rejects these too
				}
				if n, err := candidateEstimate(lt, 2); err != nil || n > c.maxCandidates {
					continue
				}
				compared++
				if d := engineDiff(m, lt); len(d) > 0 {
					t.Errorf("%s: %s", filepath.Base(p), strings.Join(d, "; "))
				}
			}
			t.Logf("%d tests compared", compared)
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	src, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func herdLibModel(t *testing.T, name string) *cat.Model {
	t.Helper()
	libdir := shared.Path(t, "herd-libdir")
	loader := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := loader.LoadFile(filepath.Join(libdir, name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func runHerdLib(t *testing.T, c herdLibCase) {
	dir := shared.Path(t, filepath.Join("corpus", c.folder))
	refs, err := herdtest.ParseFile(filepath.Join(dir, c.ref))
	if err != nil {
		t.Fatal(err)
	}
	m := herdLibModel(t, c.model)
	compared, agreed := 0, 0
	every := shared.Every(*herdLibAll, c.every, c.short)
	var diffs []string
	for i, ref := range refs {
		if ref.Result == nil {
			continue // herd7 rejected the test or timed out
		}
		if i%every != 0 {
			continue
		}
		compared++
		got, err := checkFile(m, filepath.Join(dir, ref.Path))
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("%s: %v", ref.Path, err))
			continue
		}
		if d := herdtest.Compare(ref, got); len(d) > 0 {
			diffs = append(diffs, fmt.Sprintf("%s: %s", ref.Path, strings.Join(d, "; ")))
			continue
		}
		agreed++
	}
	sort.Strings(diffs)
	t.Logf("%s under herd's %s: %d/%d agree with herd7", c.folder, c.model, agreed, compared)
	if *corpusReport {
		for _, d := range diffs {
			t.Log(d)
		}
	}
	if compared == 0 {
		t.Errorf("%s under herd's %s: no test run", c.folder, c.model)
	}
	if compared-agreed > c.maxDiffer {
		t.Errorf("%s under herd's %s: %d of %d differ from herd7, want at most %d", c.folder, c.model, compared-agreed, compared, c.maxDiffer)
	}
}
