package mcm

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	_ "github.com/purr-mcm/purr/litmus/x86"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// dialect is a folder of the repository's tests of one assembly dialect
// with the observation each gets, and the models that must give it;
// herd757 are the observations of herd 7.57's own files where they differ.
type dialect struct {
	folder       string
	observations map[string]string
	herd757      map[string]string
	models       map[string]func(*testing.T) *cat.Model
}

// dialects: X86 and X86_64 under x86-TSO, where the store buffer lets a
// load pass an earlier store (SB), MFENCE and locked instructions restore
// the order, XCHG is atomic, INC without LOCK is not, and nothing else is
// reordered. As in herd7, the read of an INC is in po before its write
// (herd's iico_data), but an XCHG's read and write are not: herd 7.57's
// x86tso.cat and x86tso-mixed.cat then let an exchange read a store that
// its own write precedes in co (XCHG+store, XCHG-atomic: herd757), which
// herd's later files (amo in their coherence: "fixed") and purr's models
// forbid. X86_64's register views and flags compute as herd7's X86_64
// semantics does.
var dialects = []dialect{
	{folder: "testdata/x86",
		observations: map[string]string{
			"SB":            "Sometimes 1 3",
			"SB+mfences":    "Never 0 3",
			"SB+xchgs":      "Never 0 3",
			"XCHG-atomic":   "Never 0 2",
			"INC-race":      "Sometimes 2 2",
			"LOCK-ADD":      "Never 0 2",
			"MP+spin":       "Never 0 3",
			"flags":         "Always 1 0",
			"deref":         "Always 1 0",
			"XCHG+store":    "Never 0 2",
			"CMPXCHG":       "Always 1 0",
			"LOCK-CMPXCHG":  "Never 0 2",
			"SB+final-with": "Sometimes 1 3",
		},
		herd757: map[string]string{"XCHG-atomic": "Never 0 4", "XCHG+store": "Sometimes 1 2"},
		models: map[string]func(*testing.T) *cat.Model{
			"x86tso":                  func(t *testing.T) *cat.Model { return embeddedModel(t, "x86tso") },
			"herd's x86tso.cat":       func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso.cat") },
			"fixed herd's x86tso.cat": func(t *testing.T) *cat.Model { return fixedHerdX86Model(t, "x86tso.cat") },
		}},
	{folder: "testdata/x86_64",
		observations: map[string]string{
			"SB":           "Sometimes 1 3",
			"SB+mfences":   "Never 0 3",
			"SB+xchgs":     "Never 0 3",
			"LOCK-INC":     "Never 0 2",
			"INC-race":     "Sometimes 2 2",
			"XCHG+store":   "Never 0 2",
			"MP+spin":      "Never 0 3",
			"flags":        "Always 1 0",
			"views":        "Always 1 0",
			"indexed":      "Always 1 0",
			"cmpxchg":      "Always 1 0",
			"LOCK-CMPXCHG": "Never 0 2",
			"shl":          "Always 1 0",
			"segments":     "Always 1 0",
		},
		herd757: map[string]string{"XCHG+store": "Sometimes 1 2"},
		models: map[string]func(*testing.T) *cat.Model{
			"x86tso-mixed":                  func(t *testing.T) *cat.Model { return embeddedModel(t, "x86tso-mixed") },
			"herd's x86tso.cat":             func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso.cat") },
			"herd's x86tso-mixed.cat":       func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso-mixed.cat") },
			"fixed herd's x86tso.cat":       func(t *testing.T) *cat.Model { return fixedHerdX86Model(t, "x86tso.cat") },
			"fixed herd's x86tso-mixed.cat": func(t *testing.T) *cat.Model { return fixedHerdX86Model(t, "x86tso-mixed.cat") },
		}},
	{folder: "testdata/bpf",
		// Plain accesses are reordered (SB), an atomic that returns a
		// value is a full barrier (SB+fetches), store_release and
		// load_acquire pass a message, a branch and a data dependency
		// order load buffering, atomic additions lose no update (the
		// one-event atomics), exactly one of two cmpxchg of the same value
		// succeeds, a thread's own arithmetic and jumps are sequential,
		// and an address dependency orders reads: r1 += r5; r1 -= r5
		// leaves the address and depends on r5 (the value analysis must
		// see the one address, else it would refuse the read as
		// mixed-size).
		observations: map[string]string{
			"SB":            "Sometimes 1 3",
			"SB+fetches":    "Never 0 3",
			"MP+rel+acq":    "Never 0 3",
			"LB+ctrl+data":  "Never 0 2",
			"lock-add":      "Always 2 0",
			"cmpxchg":       "Never 0 2",
			"jumps":         "Always 1 0",
			"MP+fetch+addr": "Never 0 3",
		},
		models: map[string]func(*testing.T) *cat.Model{
			"bpf": func(t *testing.T) *cat.Model { return embeddedModel(t, "bpf") },
		}},
}

// TestDialectModels checks the X86, X86_64 and BPF tests under purr's
// default model of each dialect and, for X86, under herd's own x86tso.cat
// (and x86tso-mixed.cat, herd7's X86_64 default) when ../shared has them,
// with both engines agreeing.
func TestDialectModels(t *testing.T) {
	for _, d := range dialects {
		for name, load := range d.models {
			t.Run(d.folder+"/"+name, func(t *testing.T) {
				m := load(t)
				for test, want := range d.observations {
					lt := parseTestFile(t, repoPath(d.folder+"/"+test+".litmus"))
					out, diff := compareEngines(m, lt)
					if diff != nil {
						t.Errorf("%s: the engines differ: %v", test, diff)
						continue
					}
					if out == nil {
						t.Errorf("%s: no outcome", test)
						continue
					}
					r := out.Result(lt, false)
					if w, ok := d.herd757[test]; ok && strings.HasPrefix(name, "herd's") {
						want = w
					}
					if got := fmt.Sprintf("%s %d %d", r.Observation, r.Positive, r.Negative); got != want {
						t.Errorf("%s: Observation %s, want %s", test, got, want)
					}
				}
			})
		}
	}
}

// fixedHerdX86Model loads herd 7.57's x86tso.cat or x86tso-mixed.cat with
// the one line herd changed after 7.57: an atomic instruction's read before
// its write in the uniproc check (amo with po-loc).
func fixedHerdX86Model(t *testing.T, name string) *cat.Model {
	t.Helper()
	libdir := shared.Path(t, "herd-libdir")
	src, err := os.ReadFile(filepath.Join(libdir, name))
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(src), "acyclic po-loc | com", "acyclic po-loc | amo | com", 1)
	fixed = strings.Replace(fixed, "acyclic po-loc | ca | rf as internal", "acyclic po-loc | amo | ca | rf as internal", 1)
	if fixed == string(src) {
		t.Fatalf("%s: no uniproc check to fix", name)
	}
	loader := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := loader.LoadSource(filepath.Join(libdir, name), []byte(fixed))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
