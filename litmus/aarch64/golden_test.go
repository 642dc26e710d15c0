package aarch64_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden translates testdata/*.litmus and compares the XCFA, printed
// as DOT, and the condition with testdata/*.dot.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			xcfagolden.Check(t, f, strings.TrimSuffix(f, ".litmus")+".dot", *update)
		})
	}
}

// FuzzParseAArch64 feeds arbitrary programs to the AArch64 dialect:
// errors are fine, panics are not.
func FuzzParseAArch64(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n MOV W0,#1 | LDR W0,[X1] ;\n STR W0,[X1] | CBNZ W0,L ;\n | L: ;",
		" P0 ;\n L: LDXR W1,[X0] ;\n STXR W2,W1,[X0] ;\n CBNZ W2,L ;\n B.EQ .+8 ;\n CASAL X1,X2,[X0] ;",
		" P0 ;\n LDP X0,X1,[X2],#16 ;\n STR W0,[X1,W2,SXTW #2]! ;\n UBFM W0,W1,#4,#31 ;\n CSET W3,MI ;",
		" P1 | P0 ;\n MOV W0,#1 | LDR W0,[X1] ;\n STR W0,[X1] | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "AArch64 F\n{ 0:X1=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:X0=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
