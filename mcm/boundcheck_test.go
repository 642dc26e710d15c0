package mcm

import (
	"context"
	"testing"
)

// TestCutReachable asks, at several bounds, whether a consistent partial
// execution reaches a cut: Dekker's back-off runs at most once under SC,
// so the bound 1 is enough and 0 is not; a loop that writes until it
// reads another thread's write may run any number of times.
func TestCutReachable(t *testing.T) {
	tests := []struct {
		file, model string
		reached     map[int]bool // by bound
	}{
		{"dekker.c.litmus", "sc", map[int]bool{0: true, 1: false, 2: false}},
		{"unbounded.c.litmus", "sc", map[int]bool{0: true, 1: true, 3: true}},
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
