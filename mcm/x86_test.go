package mcm

import (
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/cat"
	_ "github.com/purr-mcm/purr/litmus/x86"
)

// x86Observations are the repository's X86 tests (testdata/x86) with the
// observation x86-TSO gives them: the store buffer lets a load pass an
// earlier store (SB), MFENCE and a locked XCHG restore the order, XCHG is
// atomic, INC without LOCK is not, and nothing else is reordered. As in
// herd7, program order relates instructions, not the read and the write
// of one INC: an INC may read the other's write yet have its own write
// coherence-before it, so two of INC-race's four positive executions end
// with the lost increment that way, and two XCHGs of one location have
// four executions, not two (an exchange may read the other's write with
// its own write coherence-before that one).
var x86Observations = map[string]string{
	"SB":          "Sometimes 1 3",
	"SB+mfences":  "Never 0 3",
	"SB+xchgs":    "Never 0 3",
	"XCHG-atomic": "Never 0 4",
	"INC-race":    "Sometimes 4 2",
	"MP+spin":     "Never 0 3",
	"flags":       "Always 1 0",
	"deref":       "Always 1 0",
}

// TestX86Models checks the X86 tests under purr's x86tso (the X86
// default) and under herd's own x86tso.cat (when ../shared has it), with
// both engines agreeing.
func TestX86Models(t *testing.T) {
	models := map[string]func(*testing.T) *cat.Model{
		"x86tso":            func(t *testing.T) *cat.Model { return embeddedModel(t, "x86tso") },
		"herd's x86tso.cat": func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso.cat") },
	}
	for name, load := range models {
		t.Run(name, func(t *testing.T) {
			m := load(t)
			for test, want := range x86Observations {
				lt := parseTestFile(t, repoPath("testdata/x86/"+test+".litmus"))
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
