package events_test

import (
	"context"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// TestPrefixes checks the unfolding of partial executions: the same
// events as without Prefixes, a leaf where the thread stops before each
// read (a SWP's too), and the bound's cuts as leaves that execute.
func TestPrefixes(t *testing.T) {
	tests := []struct {
		name, src string
		unroll    int
		cuts      int  // leaves that reach a cut
		fused     bool // the program has a one-event read-modify-write
	}{
		{name: "a loop that writes",
			src:    "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n MOV W2,#1 ;\nL0: ;\n LDR W0,[X1] ;\n STR W2,[X3] ;\n CBZ W0,L0 ;\nexists (0:X0=1)\n",
			unroll: 1, cuts: 1},
		{name: "no loop",
			src:    "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\n STR W0,[X3] ;\nL0: ;\nexists (0:X0=1)\n",
			unroll: 1},
		{name: "a SWP",
			src:    "AArch64 T\n{ 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\n SWP W0,W2,[X1] ;\nexists (0:X2=0)\n",
			unroll: 1},
		{name: "a C11 read-modify-write in a loop",
			src:    "C T\n{ }\nP0(atomic_int *x) {\n  while (atomic_fetch_add_explicit(x, 1, memory_order_relaxed) < 2) { }\n}\nexists (x=0)\n",
			unroll: 2, cuts: 1, fused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test, err := litmus.Parse("T.litmus", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			_, regs, mem, err := events.InitialState(test)
			if err != nil {
				t.Fatal(err)
			}
			opt := events.UnfoldOptions{Unroll: tt.unroll, Retries: 0}
			whole, err := events.UnfoldWith(context.Background(), test.Program, opt, regs, mem)
			if err != nil {
				t.Fatal(err)
			}
			opt.Prefixes = true
			u, err := events.UnfoldWith(context.Background(), test.Program, opt, regs, mem)
			if err != nil {
				t.Fatal(err)
			}
			if len(u.Events) != len(whole.Events) {
				t.Fatalf("%d events, %d without prefixes", len(u.Events), len(whole.Events))
			}
			for i, e := range u.Events {
				if w := whole.Events[i]; e.Kind != w.Kind || e.Pos != w.Pos || e.Depth != w.Depth {
					t.Errorf("event %d is %v at %s, %v at %s without prefixes", i, e.Kind, e.Pos, w.Kind, w.Pos)
				}
			}
			if got := len(u.CutLeaves()); got != tt.cuts || len(u.Cuts) != tt.cuts {
				t.Errorf("%d leaves reach a cut (%d cuts), want %d", got, len(u.Cuts), tt.cuts)
			}
			if got := len(u.OneEventPairs()) > 0; got != tt.fused {
				t.Errorf("one-event pairs: %v, want %v", got, tt.fused)
			}
			leaves := map[*events.Segment]bool{}
			for _, l := range u.Leaves[0] {
				leaves[l] = true
			}
			for _, s := range u.Segments {
				if s.Cut {
					t.Errorf("segment %d is cut: with prefixes, cuts are leaves", s.ID)
				}
				if len(s.Children) == 0 && !s.Dead && !leaves[s] {
					t.Errorf("segment %d ends a path and is not among the leaves", s.ID)
				}
				if s.ReachesCut && len(s.Children) > 0 {
					t.Errorf("segment %d reaches a cut and goes on", s.ID)
				}
				for i, e := range s.Events {
					switch {
					case e.IsWrite() && e.OneEvent && e.RMW != nil && e.Seg != e.RMW.Seg:
						t.Errorf("%v at %s, a one-event write half, is apart from its read: a stop splits the pair", e, e.Pos)
					case !e.IsRead():
					case i > 0:
						t.Errorf("%v at %s follows another event of its segment: no stop before the read", e, e.Pos)
					case !hasStop(s):
						t.Errorf("%v at %s: no leaf beside its segment to stop before the read", e, e.Pos)
					}
				}
			}
		})
	}
}

// hasStop tells whether s has an empty leaf beside it: a stop.
func hasStop(s *events.Segment) bool {
	if s.Parent == nil {
		return false
	}
	for _, c := range s.Parent.Children {
		if c != s && len(c.Events) == 0 && len(c.Children) == 0 && len(c.Assumes) == 0 {
			return true
		}
	}
	return false
}

// TestUnorderedReadWrite finds the reads and later writes of one
// instruction that po leaves unordered: a SWP's and an XCHG's, not a load
// and a store, not the halves of a one-event read-modify-write.
func TestUnorderedReadWrite(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"a SWP", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\n SWP W0,W2,[X1] ;\nexists (0:X2=0)\n", true},
		{"a load and a store", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\n STR W0,[X1] ;\nexists (0:X0=0)\n", false},
		{"an XCHG", "X86 T\n{ }\n P0 ;\n MOV EAX,$1 ;\n XCHG [x],EAX ;\nexists (0:EAX=0)\n", true},
		{"a C11 exchange", "C T\n{ }\nP0(atomic_int *x) {\n  int r0 = atomic_exchange_explicit(x, 1, memory_order_relaxed);\n}\nexists (0:r0=0)\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := unfoldSource(t, tt.src, events.UnfoldOptions{Unroll: 1, Retries: -1, Prefixes: true})
			if _, _, got := u.UnorderedReadWrite(); got != tt.want {
				t.Errorf("UnorderedReadWrite: %v, want %v", got, tt.want)
			}
		})
	}
}
