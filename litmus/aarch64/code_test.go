package aarch64_test

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/xcfa"
)

// TestCodeLabels checks the canonical names of code addresses and the
// targets of indirect jumps.
func TestCodeLabels(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // substrings of the printed edges, in order
		init      string   // the first initial value, as printed, after translation
		err       string
	}{
		{
			name: "two labels at one position share the first name",
			src:  "AArch64 T\n{ 0:X1=P0:L2; }\n P0 ;\n BR X1 ;\n L1: ;\n L2: ;\n MOV W0,#1 ;\nexists (0:X0=1)\n",
			want: []string{"assume X1 == P0:L1"},
			init: "P0:L1",
		},
		{
			name: "BL writes the address of the next instruction",
			src:  "AArch64 T\n{ }\n P0 ;\n BL L ;\n B E ;\n L: ;\n RET ;\n E: ;\nexists (0:X0=1)\n",
			want: []string{"X30 := P0:.1", "assume X30 == P0:.1"},
		},
		{
			name: "ADR of a relative position",
			src:  "AArch64 T\n{ }\n P0 ;\n ADR X1,.+8 ;\n BR X1 ;\n MOV W0,#1 ;\nexists (0:X0=1)\n",
			want: []string{"X1 := P0:.2", "assume X1 == P0:.2"},
		},
		{
			name: "a register loaded from memory may hold any taken address",
			src:  "AArch64 T\n{ 0:X2=x; 0:X3=P0:L; }\n P0 ;\n ADR X4,E ;\n LDR X1,[X2] ;\n BR X1 ;\n L: ;\n MOV W0,#1 ;\n E: ;\nexists (0:X0=1)\n",
			want: []string{"assume X1 == P0:L", "assume X1 == P0:E"},
		},
		{
			name: "no possible target blocks",
			src:  "AArch64 T\n{ }\n P0 ;\n RET ;\nexists (0:X0=1)\n",
			want: []string{"assume 0"},
		},
		{
			name: "unknown label of the initial state",
			src:  "AArch64 T\n{ 0:X1=P0:Nope; }\n P0 ;\n BR X1 ;\nexists (0:X0=1)\n",
			err:  "T.litmus:2:8: label value P0:Nope: no label Nope in P0",
		},
		{
			name: "BL to another thread's label",
			src:  "AArch64 T\n{ }\n P0 | P1 ;\n BL L | L: ;\nexists (0:X0=1)\n",
			err:  "T.litmus:4:5: label L is not defined in P0",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			test, err := litmus.Parse("T.litmus", []byte(c.src))
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("got error %v, want %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ops []string
			for _, e := range test.Program.Procs[0].Edges {
				ops = append(ops, xcfa.FormatOp(e.Op))
			}
			all := strings.Join(ops, "\n")
			rest := all
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing %q (in order) among the edges:\n%s", w, all)
				}
				rest = rest[i+len(w):]
			}
			if c.init != "" {
				if got := test.Init[0].Value.String(); got != c.init {
					t.Errorf("initial value %s, want %s", got, c.init)
				}
			}
		})
	}
}
