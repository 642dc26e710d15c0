package mips_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
	_ "github.com/purr-mcm/purr/litmus/mips"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenTests are the tests of testdata/mips whose XCFA is pinned: sync,
// LL/SC, branches and $0.
var goldenTests = []string{"MP+sync+po", "ATOM+llsc", "BRANCH+values"}

// TestGolden translates some of the repository's MIPS tests
// (testdata/mips) and compares the XCFA, printed as DOT, and the
// condition with testdata/NAME.dot here.
func TestGolden(t *testing.T) {
	for _, name := range goldenTests {
		f := filepath.Join("..", "..", "testdata", "mips", name+".litmus")
		t.Run(name, func(t *testing.T) { xcfagolden.Check(t, f, filepath.Join("testdata", name+".dot"), *update) })
	}
}

// TestHashCode checks herd7's printing of the instructions it hashes
// (MIPSBase.dump_instruction): registers as $N, memory operands with
// their offset, labels renamed in sorted order.
func TestHashCode(t *testing.T) {
	src := "MIPS H\n{ 0:$a0=x; }\n" +
		" P0               ;\n" +
		" li v0,1          ;\n" +
		" sw $v0,($a0)     ;\n" +
		" ll $3,4($a0)     ;\n" +
		" addiu $3,$3,-1   ;\n" +
		" sc $3,4($4)      ;\n" +
		" beq $3,$zero,b   ;\n" +
		" sync             ;\n" +
		" b: bgez $3,b     ;\n" +
		" nor $5,$3,$0     ;\n" +
		" move $6,$5       ;\n" +
		" nop              ;\n" +
		" b b              ;\n" +
		"exists (0:$2=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"li $2,1", "sw $2,0($4)", "ll $3,4($4)", "addiu $3,$3,-1", "sc $3,4($4)", "beq $3,$0,L00",
		"sync", "L00:", "bgez $3,L00", "nor $5,$3,$0", "move $6,$5", "nop", "b L00"}}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code\n%q\nwant\n%q", got, want)
	}
}

// TestHerdHash pins the hashes herd7 prints for tests of its own MIPS
// regression suite (herd/tests/instructions/MIPS, as they are there): nop,
// move, daddu and daddiu, lw with a typed register, every register name
// with and without its dollar, in the state and the code, and a test of
// diy's with symbolic registers, which herd7 hashes as written.
func TestHerdHash(t *testing.T) {
	for _, c := range []struct{ src, hash string }{
		{"MIPS A003\n\n(* Parse NOP instruction *)\n{}\n\nP0;\nnop;\n\nforall 0:a0=0\n", "7dbd8e4fdafc2b299a8e4b02a379dcaa"},
		{"MIPS A000\n\n{}\n\nP0;\nmove $v0, $v1;\n\nforall 0:v0 = 0\n", "1adc8fedc9a06151f8c5f9ace89ae992"},
		{"MIPS A004\n{}\n\nP0;\n\ndaddu $v0, $v1, $a0;\ndaddiu $v0, $v1, 2;\n\nforall (0:v0 = 2 /\\ 0:v1 = 0)\n",
			"d1f2e271118554bb2668dea9cf458795"},
		{"MIPS A002\n{\n  0:zero = 0; 0:at=0; 0:v0=0; 0:v1=0;\n  0:a0 = 0; 0:a1=0; 0:a2=0; 0:a3=0;\n  0:t0 = 0; 0:t1 = 0; 0:t2 = 0; 0:t3=0;\n" +
			"  0:t4=0; 0:t5=0; 0:t6=0; 0:t7=0; 0:s0 = 0;\n  0:s1=0; 0:s2=0; 0:s3=0; 0:s4=0; 0:s5=0;\n  0:s6=0; 0:s7=0; 0:t8=0; 0:t9=0; 0:k0=0;\n" +
			"  0:k1=0; 0:gp=0; 0:sp=0; 0:fp=0; 0:ra=0;\n  0:a4=0; 0:a5=0; 0:a6=0; 0:a7=0;\n}\n\nP0;\n\nmove v0, v1;\nmove $v0, $v1;\n\nforall 0:v0 = 0\n",
			"eeb5d27692ab3f5a8ae4598467d43a23"},
		{"MIPS T00\n{\n%x0=x; %y0=y;\n%y1=y; %x1=x;\n}\n P0           | P1           ;\n ori $2,$0,1  | lw $2,0(%y1) ;\n" +
			" sw $2,0(%x0) | sync         ;\n sync         | lw $3,0(%x1) ;\n ori $3,$0,1  |              ;\n sw $3,0(%y0) |              ;\n" +
			"exists (1:$2=1 /\\ 1:$3=0)\n", "8b9cfcad892e3cf0f0c52a96060628cc"},
		{"MIPS L03\n{\nint x=-1;\n0:v0=x;\nint64_t 0:v1;\n}\n  P0           ;\n lw $v1,0($v0) ;\nforall 0:v1=-1\n",
			"03786784e438a0ca487e35071fb1d761"},
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

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"byte store", " sb $2,0($3) ;", "t.litmus:4:2: mixed-size accesses: sb $2,0($3) is a byte access; purr does not support mixed-size accesses yet"},
		{"doubleword load", " ld $2,0($3) ;", "t.litmus:4:2: mixed-size accesses: ld $2,0($3) is a doubleword access; purr does not support mixed-size accesses yet"},
		{"indirect jump", " jr $31 ;", "t.litmus:4:2: unsupported instruction jr $31: purr does not read jr (an indirect jump)"},
		{"lui", " lui $2,1 ;", "t.litmus:4:2: unsupported instruction lui $2,1: purr does not read lui"},
		{"unknown", " mul $2,$3,$4 ;", "t.litmus:4:2: unsupported instruction mul $2,$3,$4"},
		{"wide immediate", " addiu $2,$3,40000 ;", "t.litmus:4:2: unsupported immediate in addiu $2,$3,40000: purr reads addiu's from -32768 to 32767 (herd7 takes their low 16 bits, signed)"},
		{"negative li", " li $2,-1 ;", "t.litmus:4:2: unsupported immediate in li $2,-1: purr reads li's from 0 to 65535 (herd7 takes their low 16 bits, unsigned)"},
		{"bare number", " li 2,1 ;", "t.litmus:4:5: expected a register $0 ... $31 (or its ABI name, $v0, $a0, ...), found 2"},
		{"$32", " li $32,1 ;", "t.litmus:4:5: expected a register $0 ... $31 (or its ABI name, $v0, $a0, ...), found $32"},
		{"operands", " addu $2,$3 ;", "t.litmus:4:2: addu takes 3 operands, found 2"},
		{"undefined label", " b L9 ;", "t.litmus:4:4: label L9 is not defined in P0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "MIPS T\n{ }\n P0 ;\n" + c.code + "\nexists (x=1)\n"
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
// registers as herd7 prints them ($a0 and a0 are $4) and that a name that
// is no register of herd7's MIPS is refused.
func TestStateRegisters(t *testing.T) {
	src := "MIPS T\n{ 0:$a0=x; 0:a1=y; }\n P0 ;\n lw $2,0($4) ;\n sw $2,0($5) ;\nexists (0:v0=0 /\\ y=0)\n"
	test, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := test.ConditionString(); got != "exists (0:$2=0 /\\ [y]=0)" {
		t.Errorf("condition %s", got)
	}
	if _, err := litmus.Parse("t.litmus", []byte(strings.Replace(src, "0:a1=y", "0:r5=y", 1))); err == nil || !strings.Contains(err.Error(), "0:r5 is no register of herd7's MIPS") {
		t.Errorf("0:r5 accepted or refused for another reason: %v", err)
	}
}

// FuzzParseMIPS feeds arbitrary programs to the MIPS dialect: errors are
// fine, panics are not.
func FuzzParseMIPS(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n sw $2,0($4) | lw $2,0($4) ;\n sync | bne $2,$0,L ;\n | L: lw $3,4($5) ;",
		" P0 ;\n ll $2,0($4) ;\n sc $2,0($4) ;\n b E ;\n E: ;",
		" P1 | P0 ;\n li $1,1 | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "MIPS F\n{ 0:$4=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:$2=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
