package events_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/purr-mcm/purr/mcm/internal/events"
)

// TestCutsByValues checks when the reads' domains keep every path from
// the bound's cuts: P0 counts while it reads its count from y, which P1
// writes; at two iterations the path to the cut reads 3 from y.
func TestCutsByValues(t *testing.T) {
	p0 := []string{"MOV W5,#0", "L0:", "LDR W1,[X21]", "ADD W5,W5,#1", "STR W5,[X20]", "CMP W1,W5", "B.EQ L0"}
	count := func(to int) []string { // P1 writes 1, ..., to to y
		out := []string{"MOV W9,#1", "STR W9,[X21]"}
		for range to - 1 {
			out = append(out, "ADD W9,W9,#1", "STR W9,[X21]")
		}
		return out
	}
	tests := []struct {
		name   string
		p1     []string
		budget int
		want   bool
	}{
		{"y takes 0, 1, 2", count(2), 1000, true},
		{"y takes 3 too", count(3), 1000, false},
		{"a budget too small", count(2), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "AArch64 T\n{ 0:X20=x; 0:X21=y; 1:X21=y; }\n P0 | P1 ;\n"
			for i := range max(len(p0), len(tt.p1)) {
				line := func(code []string) string {
					if i < len(code) {
						return code[i]
					}
					return ""
				}
				src += fmt.Sprintf(" %s | %s ;\n", line(p0), line(tt.p1))
			}
			u := unfoldSource(t, src+"exists (0:X1=0)\n", events.UnfoldOptions{Unroll: 2, Retries: 0})
			if !u.Cut {
				t.Fatal("the bound cuts no loop")
			}
			if err := u.AnalyseValues(); err != nil {
				t.Fatal(err)
			}
			decisive, ok := u.CutsByValues(tt.budget)
			if ok != tt.want {
				t.Fatalf("CutsByValues = %v, want %v", ok, tt.want)
			}
			if ok && (len(decisive) == 0 || slices.ContainsFunc(decisive, func(e *events.Event) bool { return e.Pos.Line != 6 })) {
				t.Errorf("decisive reads %v, want the reads of y at line 6", decisive)
			}
		})
	}
}
