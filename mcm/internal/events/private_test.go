package events

import (
	"slices"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/aarch64"
	_ "github.com/purr-mcm/purr/litmus/c"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/xcfa"
)

// TestOwnLocations checks which locations are a thread's own: only it
// accesses them, at one address and one size, and every access of the
// program is at an address known before it runs.
func TestOwnLocations(t *testing.T) {
	tests := []struct {
		name, src string
		want      [][]string // each thread's own locations; nil: none known
	}{
		{name: "a CAS's expected value",
			src:  "C T\n{ }\nP0(atomic_int *l, int *e) { *e = 0; int r = atomic_compare_exchange_strong_explicit(l, e, 1, memory_order_relaxed, memory_order_relaxed); }\nP1(atomic_int *l) { atomic_store_explicit(l, 1, memory_order_relaxed); }\nexists (l=1)\n",
			want: [][]string{{"e"}, {}}},
		{name: "a location two threads access",
			src:  "C T\n{ }\nP0(int *x, int *y) { *x = 1; *y = 1; }\nP1(int *x) { int r = *x; }\nexists (x=1)\n",
			want: [][]string{{"y"}, {}}},
		{name: "two sizes",
			src:  "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n STR W0,[X1] ;\n STRB W0,[X1] ;\n STR W0,[X3] ;\nexists (x=0)\n",
			want: [][]string{{"y"}}},
		{name: "an address computed",
			src:  "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n LDR X2,[X1] ;\n STR W0,[X2] ;\n STR W0,[X3] ;\nexists (x=0)\n",
			want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test, consts := parseConsts(t, tt.src)
			own := ownLocations(test.Program, consts)
			if tt.want == nil {
				if own != nil {
					t.Errorf("own locations %v, want none known", own)
				}
				return
			}
			for i, want := range tt.want {
				var got []string
				for a := range own[i] {
					got = append(got, a.Sym)
				}
				slices.Sort(got)
				if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Errorf("thread %d: own locations %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestOwnAccesses: the accesses to a thread's own location are the
// thread's, those to a shared one no one's.
func TestOwnAccesses(t *testing.T) {
	test, err := litmus.Parse("T.litmus", []byte("C T\n{ }\nP0(atomic_int *l, int *e) { *e = 0; int r = atomic_compare_exchange_strong_explicit(l, e, 1, memory_order_relaxed, memory_order_relaxed); }\nP1(atomic_int *l, int *f) { *f = 1; atomic_store_explicit(l, 1, memory_order_relaxed); }\nexists (l=1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, regs, _, err := InitialState(test)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int{}
	for e, p := range OwnAccesses(test.Program, regs) {
		addr, _, _ := accessOf(e.Op)
		a, _ := knownAddr(addr, constRegisters(test.Program.Procs[p], regs))
		if !slices.Contains(got[a.Sym], p) {
			got[a.Sym] = append(got[a.Sym], p)
		}
	}
	if len(got) != 2 || !slices.Equal(got["e"], []int{0}) || !slices.Equal(got["f"], []int{1}) {
		t.Errorf("owners by location %v, want e of P0 and f of P1", got)
	}
}

// TestOwnLiveness checks that an own location is live where some path
// reads it before writing it: a CAS's expected value is dead just after
// the CAS reads it (the failure writes it first), and live at the loop's
// head.
func TestOwnLiveness(t *testing.T) {
	src := "C T\n{ }\nP0(atomic_int *l, int *e) {\n  *e = 0;\n  while (!atomic_compare_exchange_strong_explicit(l, e, 1, memory_order_acquire, memory_order_relaxed)) { *e = 0; }\n}\nP1(atomic_int *l) { atomic_store_explicit(l, 1, memory_order_relaxed); }\nexists (l=1)\n"
	test, consts := parseConsts(t, src)
	e := outcome.Value{Sym: "e"}
	proc := test.Program.Procs[0]
	live := ownLiveness(proc, map[outcome.Value]bool{e: true}, consts[0])
	reads := 0
	for _, edge := range proc.Edges {
		if load, ok := edge.Op.(xcfa.Load); ok && xcfa.Reads(load.Addr, "e") {
			reads++
			if !live[edge.From][e] {
				t.Errorf("e dead before its read at %v", edge.Pos)
			}
			if live[edge.To][e] {
				t.Errorf("e live just after the CAS reads it, at %v", edge.Pos)
			}
		}
	}
	if reads != 1 {
		t.Fatalf("%d reads of e, want the CAS's one", reads)
	}
}

// parseConsts parses a test and gives each process's registers that
// hold an address from the start and are never set.
func parseConsts(t *testing.T, src string) (*litmus.Test, []map[string]outcome.Value) {
	t.Helper()
	test, err := litmus.Parse("T.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, regs, _, err := InitialState(test)
	if err != nil {
		t.Fatal(err)
	}
	var consts []map[string]outcome.Value
	for _, proc := range test.Program.Procs {
		consts = append(consts, constRegisters(proc, regs))
	}
	return test, consts
}
