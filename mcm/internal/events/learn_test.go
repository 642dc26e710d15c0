package events_test

import (
	"slices"
	"testing"

	"github.com/purr-mcm/purr/mcm/internal/events"
)

// TestLearnedComparisons checks the paths a bounded unfolding leaves out
// as its assumptions contradict earlier ones. An AArch64 CAS retried by
// CMP and B.NE on the value it read: a CAS that succeeded does not branch
// back, one that failed does not go on, though the CMP compares sign-
// extensions of what the CAS compared and a success leaves in W0 a pick
// of the value expected.
func TestLearnedComparisons(t *testing.T) {
	tests := []struct {
		name, code string
		paths      []string
	}{
		{name: "a CAS counter",
			code: " LDR W0,[X1] ;\nL0: ;\n MOV W3,W0 ;\n ADD W2,W0,#1 ;\n CAS W0,W2,[X1] ;\n CMP W0,W3 ;\n B.NE L0 ;\n",
			// herd's CAS fails in two ways and succeeds in two: every
			// path the bound does not cut ends in a success.
			paths: []string{"Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx Wx", "Rx Rx Wx"}},
		{name: "64-bit registers compared after a 32-bit CAS",
			// CMP X0,X3 compares the registers whole: the same values.
			code:  " LDR W0,[X1] ;\nL0: ;\n MOV W3,W0 ;\n ADD W2,W0,#1 ;\n CAS W0,W2,[X1] ;\n CMP X0,X3 ;\n B.NE L0 ;\n",
			paths: []string{"Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx Wx", "Rx Rx Wx"}},
		{name: "a comparison the CAS did not make",
			// W4 is not the value expected: both sides of each branch stay.
			code: " LDR W0,[X1] ;\nL0: ;\n MOV W3,W0 ;\n ADD W2,W0,#1 ;\n CAS W0,W2,[X1] ;\n CMP W0,W4 ;\n B.NE L0 ;\n",
			paths: []string{"Rx Rx Rx", "Rx Rx Rx", "Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx", "Rx Rx Rx", "Rx Rx Rx",
				"Rx Rx Rx Wx", "Rx Rx Rx Wx", "Rx Rx", "Rx Rx Wx Rx", "Rx Rx Wx Rx", "Rx Rx Wx Rx Wx", "Rx Rx Wx Rx Wx",
				"Rx Rx Wx", "Rx Rx Wx Rx", "Rx Rx Wx Rx", "Rx Rx Wx Rx Wx", "Rx Rx Wx Rx Wx", "Rx Rx Wx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "AArch64 T\n{ 0:X1=x; 0:X4=5; }\n P0 ;\n" + tt.code + "exists (x=1)\n"
			u := unfoldSource(t, src, events.UnfoldOptions{Unroll: 1, Retries: -1, Learn: true})
			if got := livePaths(u); !slices.Equal(got, tt.paths) {
				t.Errorf("live paths %q, want %q", got, tt.paths)
			}
		})
	}
}
