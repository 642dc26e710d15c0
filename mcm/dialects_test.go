package mcm

import (
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/cat"
	_ "github.com/purr-mcm/purr/litmus/x86"
)

// dialect is a folder of the repository's tests of one assembly dialect
// with the observation each gets, and the models that must give it.
type dialect struct {
	folder       string
	observations map[string]string
	models       map[string]func(*testing.T) *cat.Model
}

// dialects: X86 and X86_64 under x86-TSO, where the store buffer lets a
// load pass an earlier store (SB), MFENCE and locked instructions restore
// the order, XCHG is atomic, INC without LOCK is not, and nothing else is
// reordered. As in herd7, the
// read of an INC or XCHG is in po before its write (herd's iico), so an
// exchange cannot read a store that its own write precedes in co
// (XCHG+store: two executions, not three). X86_64's register views and
// flags compute as herd7's X86_64 semantics does.
var dialects = []dialect{
	{folder: "testdata/x86",
		observations: map[string]string{
			"SB":          "Sometimes 1 3",
			"SB+mfences":  "Never 0 3",
			"SB+xchgs":    "Never 0 3",
			"XCHG-atomic": "Never 0 2",
			"INC-race":    "Sometimes 2 2",
			"LOCK-ADD":    "Never 0 2",
			"MP+spin":     "Never 0 3",
			"flags":       "Always 1 0",
			"deref":       "Always 1 0",
		},
		models: map[string]func(*testing.T) *cat.Model{
			"x86tso":            func(t *testing.T) *cat.Model { return embeddedModel(t, "x86tso") },
			"herd's x86tso.cat": func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso.cat") },
		}},
	{folder: "testdata/x86_64",
		observations: map[string]string{
			"SB":         "Sometimes 1 3",
			"SB+mfences": "Never 0 3",
			"SB+xchgs":   "Never 0 3",
			"LOCK-INC":   "Never 0 2",
			"INC-race":   "Sometimes 2 2",
			"XCHG+store": "Never 0 2",
			"MP+spin":    "Never 0 3",
			"flags":      "Always 1 0",
			"views":      "Always 1 0",
		},
		models: map[string]func(*testing.T) *cat.Model{
			"x86tso-mixed":            func(t *testing.T) *cat.Model { return embeddedModel(t, "x86tso-mixed") },
			"herd's x86tso.cat":       func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso.cat") },
			"herd's x86tso-mixed.cat": func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso-mixed.cat") },
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
					if got := fmt.Sprintf("%s %d %d", r.Observation, r.Positive, r.Negative); got != want {
						t.Errorf("%s: Observation %s, want %s", test, got, want)
					}
				}
			})
		}
	}
}
