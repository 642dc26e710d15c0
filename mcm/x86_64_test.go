package mcm

import (
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/cat"
	_ "github.com/purr-mcm/purr/litmus/x86"
)

// x86_64Observations are the repository's X86_64 tests (testdata/x86_64)
// with the observation x86-TSO gives them: the store buffer lets a load
// pass an earlier store (SB), MFENCE and locked instructions restore the
// order, LOCK makes INC atomic and XCHG is atomic without it; register
// views and flags compute as herd7's X86_64 semantics does. As for X86,
// the read and the write of one INC are not ordered by po, so INC-race
// counts four positive executions.
var x86_64Observations = map[string]string{
	"SB":         "Sometimes 1 3",
	"SB+mfences": "Never 0 3",
	"SB+xchgs":   "Never 0 3",
	"LOCK-INC":   "Never 0 2",
	"INC-race":   "Sometimes 4 2",
	"MP+spin":    "Never 0 3",
	"flags":      "Always 1 0",
	"views":      "Always 1 0",
}

// TestX86_64Models checks the X86_64 tests under purr's x86tso-mixed (the
// X86_64 default, which is x86-TSO) and under herd's own x86tso.cat and
// x86tso-mixed.cat (herd7's X86_64 default) when ../shared has them, with
// both engines agreeing.
func TestX86_64Models(t *testing.T) {
	models := map[string]func(*testing.T) *cat.Model{
		"x86tso-mixed":            func(t *testing.T) *cat.Model { return embeddedModel(t, "x86tso-mixed") },
		"herd's x86tso.cat":       func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso.cat") },
		"herd's x86tso-mixed.cat": func(t *testing.T) *cat.Model { return herdLibModel(t, "x86tso-mixed.cat") },
	}
	for name, load := range models {
		t.Run(name, func(t *testing.T) {
			m := load(t)
			for test, want := range x86_64Observations {
				lt := parseTestFile(t, repoPath("testdata/x86_64/"+test+".litmus"))
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
