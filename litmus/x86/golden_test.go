package x86_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
	_ "github.com/purr-mcm/purr/litmus/x86"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden translates the repository's X86 tests (testdata/x86) and
// X86_64 tests (testdata/x86_64) and compares the XCFA, printed as DOT, and
// the condition with testdata/NAME.dot and testdata/x86_64/NAME.dot here.
func TestGolden(t *testing.T) {
	for _, dir := range []struct{ inputs, goldens string }{
		{"../../testdata/x86", "testdata"},
		{"../../testdata/x86_64", "testdata/x86_64"},
	} {
		files, err := filepath.Glob(filepath.Join(dir.inputs, "*.litmus"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no golden inputs in %s: %v", dir.inputs, err)
		}
		for _, f := range files {
			golden := filepath.Join(dir.goldens, strings.TrimSuffix(filepath.Base(f), ".litmus")+".dot")
			t.Run(golden, func(t *testing.T) { xcfagolden.Check(t, f, golden, *update) })
		}
	}
}

// TestHash checks the digest against herd's tools' output for the store
// buffering test (litmus7 prints the same Hash as herd7): without and with
// a locations clause.
func TestHash(t *testing.T) {
	const sb = "X86 SB\n\"Fre PodWR Fre PodWR\"\n\n{x=0; y=0;}\n\n" +
		" P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\n\n"
	for _, c := range []struct{ final, hash string }{
		{"exists (0:EAX=0 /\\ 1:EAX=0)\n", "7dbd6b8e6dd4abc2ef3d48b0376fb2e3"},
		{"locations [x;y;]\nexists (0:EAX=0 /\\ 1:EAX=0)\n", "2d53e83cd627ba17ab11c875525e078b"},
	} {
		test, err := litmus.Parse("SB.litmus", []byte(sb+c.final))
		if err != nil {
			t.Fatal(err)
		}
		if got := test.Hash(); got != c.hash {
			t.Errorf("%q: hash %s, want %s", c.final, got, c.hash)
		}
	}
}

// TestHashCode checks herd7's printing of the instructions it hashes:
// "$n" immediates, (R) as [R], MOVQ as MOV, two blanks after INC, DEC and
// CMP, labels renamed in sorted order.
func TestHashCode(t *testing.T) {
	src := "X86 H\n{ 0:EBX=x; }\n P0 | P1 ;\n MOVQ EAX,1 | b: INC [x] ;\n CMP EAX,$-1 | DEC (EBX) ;\n JNE b | a: XCHG [y],ECX ;\n" +
		" JE a | JMP a ;\nexists (0:EAX=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err == nil {
		t.Fatalf("a jump to another thread's label should be refused")
	}
	src = strings.Replace(src, " JNE b | a: XCHG [y],ECX ;\n JE a | JMP a ;\n", " b: JNE b | a: XCHG [y],ECX ;\n a: JE a | JMP a ;\n", 1)
	if test, err = litmus.Parse("H.litmus", []byte(src)); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"MOV EAX,$1", "CMP  EAX,$-1", "L01:", "JNE L01", "L00:", "JE L00"},
		{"L01:", "INC  [x]", "DEC  [EBX]", "L00:", "XCHG [y],ECX", "JMP L00"},
	}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code %q, want %q", got, want)
	}
}

// FuzzParseX86 feeds arbitrary programs to the X86 dialect: errors are
// fine, panics are not.
func FuzzParseX86(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n MFENCE | L0: CMP EAX,$1 ;\n XCHG [y],EBX | JNE L0 ;",
		" P0 ;\n LOCK ; INC [x] ;\n CMOVC EAX,(EBX) ;\n SETNB [x] ;\n JMP L ;\n L: ;",
		" P1 | P0 ;\n MOV EAX,$1 | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "X86 F\n{ 0:EBX=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:EAX=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
