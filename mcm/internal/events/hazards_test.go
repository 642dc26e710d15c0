package events_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/mcm/internal/events"
)

// TestHazardFree: a test is hazard-free when no location may hold an
// address and every operation that may meet one is defined on any number
// it meets.
func TestHazardFree(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"numbers only", `AArch64 T
{ 0:X1=x; 0:X3=y; }
 P0          ;
 LDR W0,[X1] ;
 ADD W2,W0,#1 ;
 STR W2,[X3] ;
exists (0:X0=1)`, true},
		{"an address offset by a read's number", `AArch64 T
{ 0:X1=x; 0:X2=y; }
 P0                  ;
 LDR W0,[X1]         ;
 EOR W3,W0,W0        ;
 LDR W4,[X2,W3,SXTW] ;
exists (0:X4=1)`, true},
		{"an address stored", `AArch64 T
{ 0:X1=x; 0:X2=y; }
 P0          ;
 STR X1,[X2] ;
exists (y=0)`, false},
		{"a write address read from memory", `AArch64 T
{ 0:X1=x; 0:X5=1; }
 P0          ;
 LDR X0,[X1] ;
 STR W5,[X0] ;
exists (x=0)`, false},
		{"an address ordered against a read's number", `C T
{}
P0(int *x, int *y)
{
	int r0 = *x;
	int r1 = (y < r0);
}
exists (0:r1=1)`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := unfoldSource(t, tt.src, events.UnfoldOptions{Unroll: 1})
			if got := u.HazardFree(); got != tt.want {
				t.Errorf("HazardFree = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestValuesAcyclic: with path order ∪ rf acyclic, a read takes no value
// computed from a read after it in its thread. P0's read of x may read
// the write of y's value plus one after it: 6 only in a cycle.
func TestValuesAcyclic(t *testing.T) {
	src := `AArch64 T
{ x=0; y=5; 0:X1=x; 0:X3=y; }
 P0           ;
 LDR W0,[X1]  ;
 LDR W2,[X3]  ;
 ADD W2,W2,#1 ;
 STR W2,[X1]  ;
exists (0:X0=6)`
	for _, tt := range []struct {
		acyclic bool
		want    string
	}{{false, "[0 6]"}, {true, "[0]"}} {
		u := unfoldSource(t, src, events.UnfoldOptions{Unroll: 1})
		if err := u.AnalyseValuesWith(context.Background(), events.ValueOptions{Acyclic: tt.acyclic}); err != nil {
			t.Fatal(err)
		}
		var got string
		for _, e := range u.Events {
			if e.IsRead() && e.Addr.Val.Sym == "x" {
				got = fmt.Sprint(e.Val.Dom)
			}
		}
		if got != tt.want {
			t.Errorf("Acyclic %v: the read of x takes %s, want %s", tt.acyclic, got, tt.want)
		}
	}
}
