package mcm

import (
	"strings"
	"testing"
)

// TestCPointerArithmetic runs C addresses computed as herd7 computes them,
// an integer added to an address's byte offset, on both engines: a write
// off a location's storage is a location of its own (herd7 answers
// Dat3M's C-basic-02 so), a cell of an array is reached at its byte
// offset, and what would touch part of a cell is refused with its
// position, as herd7 rejects it as mixed-size; so is a read off the
// storage, which has no initial value in purr.
func TestCPointerArithmetic(t *testing.T) {
	none := inlineModel(t, `"no axioms"`+"\n")
	for _, c := range []struct {
		name, src     string
		positive, neg int
		err           string
	}{
		// r0=0 writes y+-1, which leaves y at 3; r0=1 writes y itself,
		// before or after P1's 3.
		{name: "write off the storage", src: `C ptr
{ }
P0(atomic_int *x, atomic_int *y) {
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
  int r2 = r0 - 1;
  atomic_store_explicit(y + r2, 2, memory_order_relaxed);
}
P1(atomic_int *x, atomic_int *y) {
  atomic_store_explicit(y, 3, memory_order_relaxed);
  atomic_store_explicit(x, 1, memory_order_relaxed);
}
exists (0:r0=1 /\ y=3)
`, positive: 1, neg: 2},
		{name: "array cell at its byte offset", src: `C cell
{ int x[2] = {5,7}; }
P0(atomic_int *x) {
  int r = atomic_load_explicit(x + 4, memory_order_relaxed);
}
exists (0:r=7)
`, positive: 1},
		{name: "part of a cell", src: `C part
{ int x[2] = {5,7}; }
P0(atomic_int *x) {
  int r1 = 1;
  int r = atomic_load_explicit(x + r1, memory_order_relaxed);
}
exists (0:r=7)
`, err: "inline.litmus:5:11: mixed-size accesses to x: "},
		{name: "read off the storage", src: `C off
{ }
P0(atomic_int *y) {
  int r = atomic_load_explicit(y - 4, memory_order_relaxed);
}
exists (0:r=0)
`, err: "inline.litmus:4:11: int r = atomic_load_explicit(y - 4, memory_order_relaxed) may access y at offset -4, where no cell of y starts"},
	} {
		lt := inlineTest(t, c.src)
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(none, lt, engineOptions(engine, 1))
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Errorf("%s, %s: got %v, want an error starting %q", c.name, engine, err, c.err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, engine, err)
			}
			if out.Positive != c.positive || out.Negative != c.neg {
				t.Errorf("%s, %s: Positive %d Negative %d; want %d %d", c.name, engine, out.Positive, out.Negative, c.positive, c.neg)
			}
		}
	}
}
