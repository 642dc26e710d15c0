package aarch64_test

import (
	"slices"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestHashCode checks herd7's printing of instructions for the test hash
// on spellings where it differs from the source (each case as herd7 7.57
// prints it in a corpus test whose hash purr reproduces).
func TestHashCode(t *testing.T) {
	for _, c := range []struct {
		code string   // one thread's text
		want []string // its lines as herd7 prints them
	}{
		{"LDR W0, [X1, W2, SXTW]", []string{"LDR W0,[X1,W2,SXTW]"}},
		{"ldrb w0, [x1, x2, uxtw]", []string{"LDRB W0,[X1,X2,UXTW]"}},
		{"LDR X0,[X1,#0]", []string{"LDR X0,[X1]"}},
		{"LDR W0,[X1],#4", []string{"LDR W0,[X1]#4"}},
		{"STP X1, X2, [X3], #16", []string{"STP X1,X2, [X3]#16"}},
		{"MOV W0, #0x10", []string{"MOV W0,#16"}},
		{"ADD X0, X0, #0, lsl #0", []string{"ADD X0,X0,#0"}},
		{"ADD X2, X2, #-8", []string{"ADD X2,X2,#-8"}},
		{"SUBS XZR, XZR, X1, ASR #1", []string{"CMP XZR,X1,ASR #1"}},
		{"MVN X0, X1", []string{"MVN X0,X1"}},
		{"REV64 X4,X3", []string{"REV X4,X3"}},
		{"MOVK X0, #1, LSL #16", []string{"MOVK X0,#1,,LSL #16"}},
		{"CMP W0,#1 ;\n CSINC W11,W10,W10,NE", []string{"CMP W0,#1", "CINC W11,W10,EQ"}},
		{"CMP W0,W1 ;\n CSET W3, MI", []string{"CMP W0,W1", "CSET W3,MI"}},
		{"STADD W10,[X21]", []string{"STADD W10,[X21]"}},
		{"MOV X0, %r", []string{"MOV X0,X%r"}},
		{"DMB ISHST", []string{"DMB ISHST"}},
		// Labels: every label defined or named, sorted, becomes L00, L01, ...
		{"CMP W0,#0 ;\n CBZ W0,skip ;\n B.EQ end ;\n skip: ;\n MOV W1,#1 ;\n end: NOP", []string{
			"CMP W0,#0", "CBZ W0,L01", "B.EQ L00", "L01:", "MOV W1,#1", "L00:", "NOP"}},
		{"ADR X1,out ;\n out:", []string{"ADDR X1,L00", "L00:"}},
	} {
		src := "AArch64 T\n{ 0:X1=x; 0:X2=x; 0:X3=x; 0:X21=x; }\n P0 ;\n " + c.code + " ;\nexists (0:X0=0)\n"
		lt, err := litmus.Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", c.code, err)
			continue
		}
		if len(lt.HashCode) != 1 || !slices.Equal(lt.HashCode[0], c.want) {
			t.Errorf("%q: printed %q, want %q", c.code, lt.HashCode, c.want)
		}
	}
}
