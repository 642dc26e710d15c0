package arm_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/arm"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenTests are the tests of testdata/arm whose XCFA is pinned: a
// barrier and an address dependency, a branch and ISB, exclusives,
// conditional execution.
var goldenTests = []string{"MP+dmb+addr", "MP+dmb+ctrlisb", "ATOM+exclusives", "COND+movne"}

// TestGolden translates some of the repository's ARM tests (testdata/arm)
// and compares the XCFA, printed as DOT, and the condition with
// testdata/NAME.dot here.
func TestGolden(t *testing.T) {
	for _, name := range goldenTests {
		f := filepath.Join("..", "..", "testdata", "arm", name+".litmus")
		t.Run(name, func(t *testing.T) { xcfagolden.Check(t, f, filepath.Join("testdata", name+".dot"), *update) })
	}
}

// TestHashCode checks herd7's printing of the instructions it hashes
// (ARMBase.dump_instruction): upper case, immediates as #k, LDR rt,rn as
// LDR rt,[rn], XOR as EOR, DMB SY as DMB, labels renamed in sorted order.
func TestHashCode(t *testing.T) {
	src := "ARM H\n{ 0:R1=x; }\n" +
		" P0                ;\n" +
		" mov r0,#1         ;\n" +
		" MOV R0,#1         ;\n" +
		" ldr R2,R1         ;\n" +
		" LDRNE R3,[R1,R2]  ;\n" +
		" xor R4,R2,R2      ;\n" +
		" ADDS R5,R4,1      ;\n" +
		" SUB R5,R5,R4      ;\n" +
		" CMP R5,#0         ;\n" +
		" BNE b             ;\n" +
		" DMB SY            ;\n" +
		" b: dsb st         ;\n" +
		" CBNZ R5,b         ;\n" +
		" LDREX R6,[R1]     ;\n" +
		" STREX R7,R6,[R1]  ;\n" +
		" MOVEQ R8,R6       ;\n" +
		" ISB               ;\n" +
		" B b               ;\n" +
		"exists (0:R0=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err == nil {
		t.Fatalf("mov r0 accepted: herd7 reads registers in upper case")
	}
	src = strings.Replace(src, "mov r0,#1", "mov R0,#1", 1)
	if test, err = litmus.Parse("H.litmus", []byte(src)); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"MOV R0,#1", "MOV R0,#1", "LDR R2,[R1]", "LDRNE R3,[R1,R2]", "EOR R4,R2,R2", "ADDS R5,R4,#1",
		"SUB R5,R5,R4", "CMP R5,#0", "BNE L00", "DMB", "L00:", "DSB ST", "CBNZ R5,L00", "LDREX R6,[R1]",
		"STREX R7,R6,[R1]", "MOVEQ R8,R6", "ISB", "B L00"}}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code\n%q\nwant\n%q", got, want)
	}
}

// TestHerdHash pins the hashes herd7 prints for four small tests of its
// own ARM regression suite (herd/tests/instructions/ARM, as they are
// there): the arithmetic, the S forms with branches, DMB ISH, and a test
// of diy's with symbolic registers, which herd7 hashes as written.
func TestHerdHash(t *testing.T) {
	for _, c := range []struct{ src, hash string }{
		{"ARM A001\n{\n0:R0=x;\n}\n  P0          ;\n LDR R1,[R0]  ;\n SUB R2,R1,#1 ;\nlocations [0:R2;]",
			"4b873a6594a3fd7ae6137c1521bbb450"},
		{"ARM A002\n{\n0:R0=x;\nint y=1;\n1:R0=y;\n}\n  P0           |  P1           ;\n LDR R1,[R0]   | LDR R1,[R0]   ;\n" +
			" SUBS R2,R1,#1 | SUBS R2,R1,#1 ;\n BEQ L0        | BNE L1        ;\n MOV R2,#2     | MOV R2,#2     ;\n" +
			"L0:            |L1:            ; \nforall 0:R2=2 /\\ 1:R2=2", "4fe306e505f6d8d0bab53d6c877d9f1b"},
		{"ARM SB\n{\n0:R2=x; 0:R3=y;\n1:R2=y; 1:R3=x;\n}\n P0           | P1           ;\n MOV R0,#1    | MOV R0,#1    ;\n" +
			" STR R0,[R2]  | STR R0,[R2]  ;\n DMB ISH      | DMB ISH      ;\n LDR R1,[R3]  | LDR R1,[R3]  ;\nexists (0:R1=0 /\\ 1:R1=0)\n",
			"8bd18640a71f5f8da4d4f2fe719284e3"},
		{"ARM A025\n{\n%x0=x; %y0=y;\n%y1=y; %z1=z; %x1=x;\n}\n P0           | P1              ;\n LDR R0,[%x0] | LDR R0,[%y1]    ;\n" +
			" DMB          | EOR R1,R0,R0    ;\n MOV R1,#1    | MOV R2,#1       ;\n STR R1,[%y0] | STR R2,[R1,%z1] ;\n" +
			"              | MOV R3,#1       ;\n              | STR R3,[%x1]    ;\n~exists (0:R0=1 /\\ 1:R0=1)\n",
			"742d027b414d9d9f41c1f20b127b7ca7"},
	} {
		test, err := litmus.Parse("h.litmus", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := test.Hash(); got != c.hash {
			t.Errorf("%s: hash %s, want herd7's %s", test.Name, got, c.hash)
		}
	}
}

// TestSymbolic checks that the symbolic registers of the state go to the
// thread that uses them, and that what herd7 refuses (a symbolic register
// no code or two threads use, more than a thread's free registers) and a
// symbolic register in the condition are refused.
func TestSymbolic(t *testing.T) {
	ok := "ARM S\n{ %x0=x; %y1=y; }\n P0 | P1 ;\n MOV R0,#1 | LDR R0,[%y1] ;\n STR R0,[%x0] | ;\nexists (1:R0=0)\n"
	test, err := litmus.Parse("s.litmus", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	var placed []string
	for _, in := range test.Init {
		placed = append(placed, in.Loc.String())
	}
	if want := []string{"0:%x0", "1:%y1"}; !slices.Equal(placed, want) {
		t.Errorf("state %q, want %q", placed, want)
	}
	all := " MOV R0,#0 ;\n MOV R1,R2 ;\n MOV R3,R4 ;\n MOV R5,R6 ;\n MOV R7,R8 ;\n MOV R9,R10 ;\n MOV R11,R12 ;\n"
	for _, c := range []struct{ name, src, want string }{
		{"not in code", "ARM S\n{ %z=x; }\n P0 ;\n MOV R0,#1 ;\nexists (0:R0=0)\n",
			"s.litmus:2:3: symbolic register %z does not appear in code"},
		{"two threads", "ARM S\n{ %x=x; }\n P0 | P1 ;\n LDR R0,[%x] | LDR R0,[%x] ;\nexists (0:R0=0)\n",
			"s.litmus:2:3: ambiguous symbolic register %x: threads P0 and P1 use it (herd7 refuses it)"},
		{"condition", "ARM S\n{ %x=x; }\n P0 ;\n LDR %r,[%x] ;\nexists (%r=0)\n",
			"s.litmus:5:9: unsupported symbolic register %r in the condition: herd7 prints it as the register it allocates"},
		{"no free register", "ARM S\n{ %x=x; }\n P0 ;\n" + all + " LDR R0,[%x] ;\nexists (0:R0=0)\n",
			"s.litmus:12:1: not enough registers for the 1 symbolic registers of P0 (herd7 refuses it)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := litmus.Parse("s.litmus", []byte(c.src))
			if err == nil || strings.TrimSpace(err.Error()) != c.want {
				t.Errorf("got  %v\nwant %s", err, c.want)
			}
		})
	}
}

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"byte load", " LDRB R0,[R1] ;", "t.litmus:4:2: mixed-size accesses: LDRB R0,[R1] is a byte access; purr does not support mixed-size accesses yet"},
		{"halfword store", " strh R0,[R1] ;", "t.litmus:4:2: mixed-size accesses: strh R0,[R1] is a halfword access; purr does not support mixed-size accesses yet"},
		{"immediate offset", " LDR R0,[R1,#4] ;", "t.litmus:4:9: unsupported address [R1,#4]: purr reads no immediate offset in ARM addresses, only [reg] and [reg,reg]"},
		{"later herd7", " LDA R0,[R1] ;", "t.litmus:4:2: unsupported instruction LDA R0,[R1]: purr does not read LDA"},
		{"unknown", " FOO R0 ;", "t.litmus:4:2: unsupported instruction FOO R0"},
		{"mixed case", " Ldr R0,[R1] ;", "t.litmus:4:2: unsupported instruction Ldr R0,[R1]: herd7 reads ARM mnemonics in upper or lower case"},
		{"and registers", " AND R0,R1,R2 ;", "t.litmus:4:2: unsupported instruction AND R0,R1,R2: herd7 reads AND with registers rd,rn and an immediate #k"},
		{"barrier option", " DMB LD ;", "t.litmus:4:6: expected a barrier option (SY, ST, ISH, ISHST, NSH, NSHST, OSH, OSHST), found LD"},
		{"lower register", " MOV r0,#1 ;", "t.litmus:4:6: expected a register R0 ... R12, SP, LR or PC, found r0"},
		{"strex index", " STREX R0,R1,[R2,R3] ;", "t.litmus:4:14: STREX takes a memory operand [reg] without index, found [R2,R3]"},
		{"operands", " ADD R0,R1 ;", "t.litmus:4:2: ADD takes 3 operands, found 2"},
		{"label register", " BNE R0 ;", "t.litmus:4:6: expected a label, found the register R0"},
		{"undefined label", " B L9 ;", "t.litmus:4:4: label L9 is not defined in P0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "ARM T\n{ }\n P0 ;\n" + c.code + "\nexists (x=1)\n"
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

// TestStateRegisters checks that a name that is no register of herd7's
// ARM is refused in the state and the condition, the flag Z among them.
func TestStateRegisters(t *testing.T) {
	src := "ARM T\n{ 0:R1=x; }\n P0 ;\n LDR R0,[R1] ;\nexists (0:R0=0)\n"
	if _, err := litmus.Parse("t.litmus", []byte(src)); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"0:Z", "0:r0", "0:R13"} {
		_, err := litmus.Parse("t.litmus", []byte(strings.Replace(src, "0:R0=0", bad+"=0", 1)))
		if err == nil || !strings.Contains(err.Error(), bad+" is no register of herd7's ARM") {
			t.Errorf("%s accepted or refused for another reason: %v", bad, err)
		}
	}
}

// FuzzParseARM feeds arbitrary programs to the ARM dialect: errors are
// fine, panics are not.
func FuzzParseARM(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n STR R0,[R1] | LDR R0,[R1] ;\n DMB ST | EOR R2,R0,R0 ;\n STR R0,[R3] | LDR R3,[R4,R2] ;",
		" P0 ;\n LDREX R0,[R1] ;\n STREX R2,R0,[R1] ;\n CMP R2,#0 ;\n BNE E ;\n MOVEQ R3,#1 ;\n E: ;",
		" P1 | P0 ;\n MOV R1,#1 | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "ARM F\n{ 0:R1=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:R0=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
