package aarch64_test

import (
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestThreadNames: herd7 refuses a program whose threads are not P0, P1,
// ... in column order ("Processes must be P0, P1, ..."), and a register
// of a thread the program does not have ("Bad process P5"); purr refuses
// them too, at the offending name, rather than answer for other threads
// than the test names.
func TestThreadNames(t *testing.T) {
	const order = `herd7 requires the threads P0, P1, ... in this order ("Processes must be P0, P1, ...")`
	for _, c := range []struct{ name, src, want string }{
		{"P1 | P0",
			"AArch64 T\n{ 0:X1=x; 1:X1=x; }\n P1          | P0          ;\n MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X1] |             ;\nexists (0:X0=1)\n",
			"T.litmus:3:2: found P1 where P0 should be: " + order},
		{"only P1",
			"AArch64 T\n{ 1:X1=x; }\n P1 ;\n STR W0,[X1] ;\nexists (x=0)\n",
			"T.litmus:3:2: found P1 where P0 should be: " + order},
		{"P0 | P2",
			"AArch64 T\n{ 0:X1=x; 2:X1=x; }\n P0          | P2          ;\n STR W0,[X1] | LDR W0,[X1] ;\nexists (2:X0=0)\n",
			"T.litmus:3:16: found P2 where P1 should be: " + order},
		{"P0 | P1 | P3",
			"AArch64 T\n{}\n P0  | P1  | P3  ;\n NOP | NOP | NOP ;\nexists (x=0)\n",
			"T.litmus:3:14: found P3 where P2 should be: " + order},
		{"P0 | P0",
			"AArch64 T\n{}\n P0  | P0  ;\n NOP | NOP ;\nexists (x=0)\n",
			"T.litmus:3:8: thread P0 is named twice"},
		{"init register of no thread",
			"AArch64 T\n{ 0:X1=x; 5:X0=1; }\n P0 ;\n STR W0,[X1] ;\nexists (x=1)\n",
			`T.litmus:2:11: there is no thread P5 (herd7: "Bad process P5")`},
		{"condition register of no thread",
			"AArch64 T\n{ 0:X1=x; }\n P0 ;\n STR W0,[X1] ;\nexists (x=1 /\\ 7:X0=1)\n",
			`T.litmus:5:16: there is no thread P7 (herd7: "Bad process P7")`},
		{"locations register of no thread",
			"AArch64 T\n{ 0:X1=x; }\n P0 ;\n STR W0,[X1] ;\nlocations [1:X0;]\nexists (x=1)\n",
			`T.litmus:5:12: there is no thread P1 (herd7: "Bad process P1")`},
		{"filter register of no thread",
			"AArch64 T\n{ 0:X1=x; }\n P0 ;\n STR W0,[X1] ;\nfilter 0:X0=0 /\\ 3:X2=0\nexists (x=1)\n",
			`T.litmus:5:18: there is no thread P3 (herd7: "Bad process P3")`},
		{"fault of no thread",
			"AArch64 T\n{ 0:X1=x; }\n P0 ;\n STR W0,[X1] ;\nexists (fault(P2,x))\n",
			`T.litmus:5:9: there is no thread P2 (herd7: "Bad process P2")`},
		{"label of no thread",
			"AArch64 T\n{ 0:X1=P4:L0; }\n P0 ;\n BR X1 ;\nexists (0:X0=1)\n",
			"T.litmus:2:8: label value P4:L0: the program has no thread P4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := litmus.Parse("T.litmus", []byte(c.src))
			if err == nil || err.Error() != c.want {
				t.Errorf("got error %v\nwant %s", err, c.want)
			}
		})
	}
}
