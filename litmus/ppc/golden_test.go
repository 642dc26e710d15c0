package ppc_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
	_ "github.com/purr-mcm/purr/litmus/ppc"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden translates the repository's Power tests (testdata/ppc) and
// compares the XCFA, printed as DOT, and the condition with
// testdata/NAME.dot here.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/ppc/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(f), ".litmus")+".dot")
		t.Run(filepath.Base(f), func(t *testing.T) { xcfagolden.Check(t, f, golden, *update) })
	}
}

// TestHashCode checks herd7 7.57's printing of the instructions it hashes
// (PPCBase.dump_instruction): registers as rN, subi as addi, D-form
// accesses as d(rA) whichever way written, cmpw's field only when not
// cr0, herd7's blanks after b and the conditional branches, bnl as bge,
// labels renamed in sorted order.
func TestHashCode(t *testing.T) {
	src := "PPC H\n{ 0:r2=x; }\n" +
		" P0                ;\n" +
		" li R1,1           ;\n" +
		" subi r3,r1,2      ;\n" +
		" addi r4,r0,5      ;\n" +
		" add. r5,r3,r4     ;\n" +
		" lwz r6,4,r2       ;\n" +
		" stwu r6,8(r2)     ;\n" +
		" lwzx r7,r0,r2     ;\n" +
		" cmpw cr1,r6,r7    ;\n" +
		" cmpwi r6,0        ;\n" +
		" bnl b             ;\n" +
		" lwarx r8,r0,r2    ;\n" +
		" stwcx. r8,r0,r2   ;\n" +
		" b: lwsync         ;\n" +
		" b b               ;\n" +
		"exists (0:r1=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"li r1,1", "addi r3,r1,-2", "addi r4,r0,5", "add. r5,r3,r4", "lwz r6,4(r2)", "stwu r6,8(r2)",
		"lwzx r7,r0,r2", "cmpw cr1,r6,r7", "cmpwi r6,0", "bge  L00", "lwarx r8,r0,r2", "stwcx. r8,r0,r2",
		"L00:", "lwsync", "b   L00"}}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code\n%q\nwant\n%q", got, want)
	}
}

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"byte store", " stb r5,0(r6) ;", "t.litmus:4:2: mixed-size accesses: stb r5,0(r6) is a byte access; purr does not support mixed-size accesses yet"},
		{"halfword load", " lhzx r5,r0,r6 ;", "t.litmus:4:2: mixed-size accesses: lhzx r5,r0,r6 is a halfword access; purr does not support mixed-size accesses yet"},
		{"no semantics", " slw r5,r6,r7 ;", "t.litmus:4:2: unsupported instruction slw r5,r6,r7: herd7 has no semantics for slw"},
		{"unknown", " nop ;", "t.litmus:4:2: unsupported instruction nop"},
		{"undotted andi", " andi r5,r6,1 ;", "t.litmus:4:2: unsupported instruction andi r5,r6,1"},
		{"dotted addi", " addi. r5,r6,1 ;", "t.litmus:4:2: unsupported instruction addi. r5,r6,1"},
		{"cr field", " cmpw cr8,r1,r2 ;", "t.litmus:4:7: expected a condition-register field cr0 ... cr7, found cr8"},
		{"float register", " li FPR1,1 ;", "t.litmus:4:5: expected a register r0 ... r31, found FPR1"},
		{"r32", " li r32,1 ;", "t.litmus:4:5: expected a register r0 ... r31, found r32"},
		{"symbolic", " li %a,1 ;", "t.litmus:4:5: unsupported symbolic register %a"},
		{"operands", " add r5,r6 ;", "t.litmus:4:2: add takes 3 operands, found 2"},
		{"fence operand", " sync r1 ;", "t.litmus:4:7: sync takes no operands"},
		{"memory operand", " stw r1,r2 ;", "t.litmus:4:9: expected a memory operand d(rA), found r2"},
		{"undefined label", " b L9 ;", "t.litmus:4:4: label L9 is not defined in P0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "PPC T\n{ }\n P0 ;\n" + c.code + "\nexists (x=1)\n"
			_, err := litmus.Parse("t.litmus", []byte(src))
			if err == nil {
				t.Fatalf("accepted, want %q", c.want)
			}
			if got := strings.TrimSpace(err.Error()); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestStateRegisters checks that the state and the condition name the
// registers as herd7 prints them (R3 is r3) and that a name that is no
// register of herd7's Power is refused.
func TestStateRegisters(t *testing.T) {
	src := "PPC T\n{ 0:R2=x; 0:r4=y; }\n P0 ;\n lwz r3,0(r2) ;\n stw r3,0(r4) ;\nexists (0:R3=0 /\\ y=0)\n"
	test, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := test.ConditionString(); got != "exists (0:r3=0 /\\ [y]=0)" {
		t.Errorf("condition %s", got)
	}
	if _, err := litmus.Parse("t.litmus", []byte(strings.Replace(src, "0:r4=y", "0:CR0=y", 1))); err == nil || !strings.Contains(err.Error(), "0:CR0 is no register of herd7's Power") {
		t.Errorf("0:CR0 accepted or refused for another reason: %v", err)
	}
}

// FuzzParsePPC feeds arbitrary programs to the Power dialect: errors are
// fine, panics are not.
func FuzzParsePPC(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n stw r5,0(r6) | lwz r5,0(r6) ;\n lwarx r7,r0,r8 | cmpw r5,r5 ;\n stwcx. r7,r0,r8 | bne L ;\n | L: isync ;",
		" P0 ;\n lwzu r1,4(r2) ;\n stwu r1,4(r2) ;\n b E ;\n E: com \"x\" ;",
		" P1 | P0 ;\n li r1,1 | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "PPC F\n{ 0:r6=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:r5=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
