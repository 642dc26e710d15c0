package mcm

import (
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// Thread identity: a thread's P-number, not its place in the program, is
// what the initial state and the condition name. The front ends refuse
// programs whose threads are not P0, P1, ... in order (as herd7 does), so
// these tests build such programs by hand: from a test in order, they
// reorder the processes or drop an empty one, which must not change any
// result, under either engine.

// threadMP is message passing with the writer in P0 and the reader in P1,
// and an empty P2 that the shapes below may drop.
const threadMP = `AArch64 ThreadMP
{
0:X1=x; 0:X3=y;
1:X1=y; 1:X3=x;
}
 P0          | P1          | P2 ;
 MOV W0,#1   | LDR W0,[X1] |    ;
 STR W0,[X1] | LDR W2,[X3] |    ;
 MOV W2,#1   |             |    ;
 STR W2,[X3] |             |    ;
exists (1:X0=1 /\ 1:X2=0)
`

// threadEmptyP0 has its only code in P1: dropping P0 leaves a lone P1.
const threadEmptyP0 = `AArch64 ThreadLoneP1
{
1:X1=x; 1:X3=y;
}
 P0 | P1          ;
    | MOV W0,#1   ;
    | STR W0,[X1] ;
    | LDR W2,[X3] ;
    | STR W2,[X1] ;
exists (1:X2=0 /\ x=0)
`

// threadC is message passing in C with an empty P1 between the writer and
// the reader.
const threadC = `C ThreadC
{}
P0(atomic_int *x, atomic_int *y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_store_explicit(y, 1, memory_order_release);
}
P1(atomic_int *x) {}
P2(atomic_int *x, atomic_int *y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (2:r0=1 /\ 2:r1=0)
`

// withProcs is t with its program's processes replaced by the ones of
// the original program at places keep, in that order.
func withProcs(t *litmus.Test, keep ...int) *litmus.Test {
	u := *t
	prog := *t.Program
	prog.Procs = nil
	for _, i := range keep {
		prog.Procs = append(prog.Procs, t.Program.Procs[i])
	}
	u.Program = &prog
	return &u
}

func TestThreadIdentity(t *testing.T) {
	sources := map[string]string{"mp": threadMP, "lone": threadEmptyP0, "c": threadC}
	for _, tc := range []struct {
		name, source string
		keep         []int // the places of the original program kept, in order
		models       []string
	}{
		{"P1|P0|P2", "mp", []int{1, 0, 2}, []string{"sc", "aarch64"}},
		{"P2|P1|P0", "mp", []int{2, 1, 0}, []string{"sc", "aarch64"}},
		{"P1|P0", "mp", []int{1, 0}, []string{"sc", "aarch64"}},
		{"only P1", "lone", []int{1}, []string{"sc", "aarch64"}},
		{"P0 and P2", "c", []int{0, 2}, []string{"sc", "rc11"}},
		{"C P2 P0", "c", []int{2, 0}, []string{"sc", "rc11"}},
		{"C P2 P1 P0", "c", []int{2, 1, 0}, []string{"sc", "rc11"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig, err := litmus.Parse(tc.source+".litmus", []byte(sources[tc.source]))
			if err != nil {
				t.Fatal(err)
			}
			shaped := withProcs(orig, tc.keep...)
			var ids []int
			for _, p := range shaped.Program.Procs {
				ids = append(ids, p.ID)
			}
			if slices.IsSorted(ids) && len(ids) == len(orig.Program.Procs) {
				t.Fatalf("the shape %v is the original program", ids)
			}
			for _, model := range tc.models {
				m := embeddedModel(t, model)
				want, err := Check(m, orig, engineOptions(EngineSAT, 2))
				if err != nil {
					t.Fatal(err)
				}
				for _, engine := range []string{EngineSAT, EngineExplicit} {
					got, err := Check(m, shaped, engineOptions(engine, 2))
					if err != nil {
						t.Errorf("%s, %s engine: %v", model, engine, err)
						continue
					}
					if d := sameOutcome(orig, want, got); len(d) > 0 {
						t.Errorf("%s, %s engine, threads %v: %s", model, engine, ids, strings.Join(d, "; "))
					}
				}
			}
		})
	}
}

// TestThreadMissing: a register of a thread the program does not have is
// an error with a position in both engines, not a panic or a silent 0.
func TestThreadMissing(t *testing.T) {
	orig, err := litmus.Parse("mp.litmus", []byte(threadMP))
	if err != nil {
		t.Fatal(err)
	}
	shaped := withProcs(orig, 0, 2) // no P1, which the condition reads
	m := embeddedModel(t, "sc")
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		_, err := Check(m, shaped, engineOptions(engine, 2))
		if err == nil || !strings.Contains(err.Error(), "mp.litmus:11:") || !strings.Contains(err.Error(), "no thread P1") {
			t.Errorf("%s engine: got %v, want mp.litmus:11:...: there is no thread P1", engine, err)
		}
	}
}
