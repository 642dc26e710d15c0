package mcm

import (
	"testing"
)

// TestConditionsComparingLocations runs conditions and filters that
// compare two final values (herd7's 0:r1=0:r4, 0:r1=*y) under no axioms
// on both engines: the counts are those of the candidate executions whose
// two values agree.
func TestConditionsComparingLocations(t *testing.T) {
	none := inlineModel(t, `"no axioms"`+"\n")
	// Each read sees the initial 0 or the one write of 1: four
	// executions, r1=r2 in two of them.
	const prog = `C T
{ }
P0(atomic_int *x, atomic_int *y) {
  int r1; int r2;
  atomic_store_explicit(x, 1, memory_order_relaxed);
  r1 = atomic_load_explicit(x, memory_order_relaxed);
  r2 = atomic_load_explicit(y, memory_order_relaxed);
}
P1(atomic_int *y) { atomic_store_explicit(y, 1, memory_order_relaxed); }
`
	for _, c := range []struct {
		name, src     string
		positive, neg int
	}{
		{"registers", prog + "exists (0:r1=0:r2)\n", 2, 2},
		{"registers ==", prog + "exists (0:r1==0:r2)\n", 2, 2},
		{"negated", prog + "exists (~0:r1=0:r2)\n", 2, 2},
		{"filter", prog + "filter (0:r1=0:r2)\nexists (0:r1=1)\n", 1, 1},
		{"register and memory", prog + "exists (0:r2=*y)\n", 2, 2},
		{"memory and memory", prog + "exists (x=*y)\n", 4, 0},
		{"register and other thread", prog + "exists (0:r1=1:r9)\n", 2, 2},
		{"AArch64", `AArch64 T
{ 0:X1=x; 1:X1=x; }
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X1] ;
 STR W0,[X1] | LDR W2,[X1] ;
exists (1:X0=1:X2)
`, 2, 2},
	} {
		lt := inlineTest(t, c.src)
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(none, lt, engineOptions(engine, 1))
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, engine, err)
			}
			if out.Positive != c.positive || out.Negative != c.neg {
				t.Errorf("%s, %s: Positive %d Negative %d; want %d %d", c.name, engine, out.Positive, out.Negative, c.positive, c.neg)
			}
		}
	}
}
