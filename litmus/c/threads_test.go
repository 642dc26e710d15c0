package c

import (
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestThreadNames: herd7 numbers a C test's threads by the order of their
// functions and refuses names that do not follow it ("Processes must be
// P0, P1, ..."), and refuses a register of a thread the test does not
// have ("Bad process P2"); so does purr, at the offending name.
func TestThreadNames(t *testing.T) {
	const order = `herd7 requires the threads P0, P1, ... in this order ("Processes must be P0, P1, ...")`
	const writer = "(atomic_int *x) {\n  atomic_store_explicit(x, 1, memory_order_seq_cst);\n}\n"
	const reader = "(atomic_int *x) {\n  int r0 = atomic_load_explicit(x, memory_order_seq_cst);\n}\n"
	for _, c := range []struct{ name, src, want string }{
		{"P1 before P0", "C T\n{}\nP1" + reader + "P0" + writer + "exists (1:r0=0)\n",
			"T.litmus:3:1: found P1 where P0 should be: " + order},
		{"only P1", "C T\n{}\nP1" + reader + "exists (1:r0=0)\n",
			"T.litmus:3:1: found P1 where P0 should be: " + order},
		{"P0 and P2", "C T\n{}\nP0" + writer + "P2" + reader + "exists (2:r0=0)\n",
			"T.litmus:6:1: found P2 where P1 should be: " + order},
		{"P0 P2 P1", "C T\n{}\nP0" + writer + "P2" + reader + "P1" + reader + "exists (2:r0=0)\n",
			"T.litmus:6:1: found P2 where P1 should be: " + order},
		{"condition register of no thread", "C T\n{}\nP0" + writer + "P1" + reader + "exists (2:r0=0)\n",
			`T.litmus:9:9: there is no thread P2 (herd7: "Bad process P2")`},
		{"init register of no thread", "C T\n{ 3:r1=1; }\nP0" + writer + "exists (x=1)\n",
			`T.litmus:2:3: there is no thread P3 (herd7: "Bad process P3")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := litmus.Parse("T.litmus", []byte(c.src))
			if err == nil || err.Error() != c.want {
				t.Errorf("got error %v\nwant %s", err, c.want)
			}
		})
	}
}
