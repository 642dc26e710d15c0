package mcm

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCutReachable asks, at several bounds, whether a consistent partial
// execution reaches a cut of the bound. Dekker's back-off runs at most
// once (under SC and RC11: coherence keeps the turn P0 gives), so the
// bound 1 is enough and 0 is not; a loop that writes until it reads
// another thread's write may run any number of times, also when the other
// thread's complete paths need what the loop writes after it (handshake:
// the other thread must stop early).
func TestCutReachable(t *testing.T) {
	tests := []struct {
		file, model string
		reached     map[int]bool // by bound
	}{
		{"dekker.c.litmus", "sc", map[int]bool{0: true, 1: false, 3: false}},
		{"dekker.c.litmus", "rc11", map[int]bool{0: true, 1: false, 2: false}},
		{"dekker.litmus", "sc", map[int]bool{0: true, 1: false, 3: false}},
		{"unbounded.c.litmus", "sc", map[int]bool{0: true, 1: true, 4: true}},
		{"unbounded.c.litmus", "rc11", map[int]bool{0: true, 2: true}},
		{"unbounded.litmus", "sc", map[int]bool{0: true, 1: true, 4: true}},
		{"handshake.c.litmus", "sc", map[int]bool{0: true, 1: true, 3: true}},
	}
	for _, tt := range tests {
		test := parseTestFile(t, "testdata/boundcheck/"+tt.file)
		m := embeddedModel(t, tt.model)
		for n, want := range tt.reached {
			got, err := cutReachable(context.Background(), m, test, Options{}, n)
			if err != nil {
				t.Fatalf("%s under %s, bound %d: %v", tt.file, tt.model, n, err)
			}
			if got != want {
				t.Errorf("%s under %s, bound %d: a cut reached %v, want %v", tt.file, tt.model, n, got, want)
			}
		}
	}
}

// TestCutReachableRefuses: a SWP's read and write are parts of one
// instruction that po leaves unordered, so the model's acyclic po | rf
// does not make the argument's order acyclic; and a model that walks
// sets that differ between executions needs the explicit engine, which
// has no partial executions.
func TestCutReachableRefuses(t *testing.T) {
	tas := parseTestFile(t, "testdata/boundcheck/tas.litmus")
	_, err := cutReachable(context.Background(), embeddedModel(t, "sc"), tas, Options{}, 1)
	if err == nil || !strings.Contains(err.Error(), "tas.litmus:9:2: purr cannot tell whether the bound 1 is enough") {
		t.Errorf("SWP loop: %v, want a refusal at the SWP", err)
	}
	varying := inlineModel(t, "\"varies\"\nlet f(s) = match s with {} -> 0 || e ++ _ -> po end\nacyclic f(R) | rf\n")
	unbounded := parseTestFile(t, "testdata/boundcheck/unbounded.litmus")
	_, err = cutReachable(context.Background(), varying, unbounded, Options{}, 1)
	if err == nil || !strings.Contains(err.Error(), "needs the explicit engine") {
		t.Errorf("a model that walks sets: %v, want a refusal", err)
	}
}

// TestCutReachableLimits: the formula's bounds refuse the question as
// they refuse a check, with a *LimitError.
func TestCutReachableLimits(t *testing.T) {
	test := parseTestFile(t, "testdata/boundcheck/dekker.litmus")
	_, err := cutReachable(context.Background(), embeddedModel(t, "sc"), test, Options{MaxVars: 10}, 1)
	var limit *LimitError
	if !errors.As(err, &limit) || limit.Limit != 10 {
		t.Errorf("err = %v, want a *LimitError of 10 variables", err)
	}
}
