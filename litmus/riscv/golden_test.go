package riscv_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
	_ "github.com/purr-mcm/purr/litmus/riscv"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden translates the repository's RISC-V tests (testdata/riscv) and
// compares the XCFA, printed as DOT, and the condition with
// testdata/NAME.dot here.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/riscv/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(f), ".litmus")+".dot")
		t.Run(filepath.Base(f), func(t *testing.T) { xcfagolden.Check(t, f, golden, *update) })
	}
}

// TestHashCode checks herd7 7.57's printing of the instructions it hashes
// (RISCVBase.dump_instruction): registers as xN, li as ori from x0, xori
// after a blank, offsets written out, .aq.rl as .aqrl, fence alone as
// fence rw,rw, labels renamed in sorted order.
func TestHashCode(t *testing.T) {
	src := "RISCV H\n{ 0:a0=x; }\n" +
		" P0                       ;\n" +
		" li t0,1                  ;\n" +
		" xori t1,t0,3             ;\n" +
		" sw.rl t1,(a0)            ;\n" +
		" lr.d.aq.rl t2,(a0)       ;\n" +
		" sc.w.aqrl s0,t1,0(a0)    ;\n" +
		" amoadd.d.aq zero,t1,(a0) ;\n" +
		" bne s0,zero,b            ;\n" +
		" fence                    ;\n" +
		" b: fence.tso             ;\n" +
		" j b                      ;\n" +
		"exists (0:t0=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"ori x5,x0,1", " xori x6,x5,3", "sw.rl x6,0(x10)", "lr.d.aqrl x7,0(x10)",
		"sc.w.aqrl x8,x6,0(x10)", "amoadd.d.aq x0,x6,(x10)", "bne x8,x0,L00", "fence rw,rw", "L00:", "fence.tso", "j L00"}}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code\n%q\nwant\n%q", got, want)
	}
}

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"byte store", " sb x5,0(x6) ;", "t.litmus:4:2: mixed-size accesses: sb x5,0(x6) is a byte access; purr does not support mixed-size accesses yet"},
		{"halfword load", " lhu x5,2(x6) ;", "t.litmus:4:2: mixed-size accesses: lhu x5,2(x6) is a halfword access; purr does not support mixed-size accesses yet"},
		{"no semantics", " srli x5,x6,1 ;", "t.litmus:4:2: unsupported instruction srli x5,x6,1: herd7 has no semantics for srli"},
		{"unsigned amo", " amomaxu.w x5,x6,(x7) ;", "t.litmus:4:2: unsupported instruction amomaxu.w x5,x6,(x7): herd7 has no semantics for amomaxu"},
		{"unknown", " jalr x0,x10,0 ;", "t.litmus:4:2: unsupported instruction jalr x0,x10,0"},
		{"acquire store", " sw.aq x5,0(x6) ;", "t.litmus:4:2: unsupported instruction sw.aq x5,0(x6)"},
		{"fence set", " fence io,rw ;", "t.litmus:4:8: expected r, w or rw, found io (herd7 reads no other fence sets)"},
		{"lr offset", " lr.w x5,4(x6) ;", "t.litmus:4:10: lr.w takes no offset: 0(x6) or (x6)"},
		{"s10", " li s10,1 ;", "t.litmus:4:5: expected a register x0 ... x31 (or its ABI name), found s10"},
		{"x32", " li x32,1 ;", "t.litmus:4:5: expected a register x0 ... x31 (or its ABI name), found x32"},
		{"operands", " add x5,x6 ;", "t.litmus:4:2: add takes 3 operands, found 2"},
		{"undefined label", " j L9 ;", "t.litmus:4:4: label L9 is not defined in P0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "RISCV T\n{ }\n P0 ;\n" + c.code + "\nexists (x=1)\n"
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
// registers as herd7 prints them (a0 is x10) and that a name that is no
// register of herd7's RISC-V is refused.
func TestStateRegisters(t *testing.T) {
	src := "RISCV T\n{ 0:a0=x; 0:fp=y; }\n P0 ;\n lw t0,0(a0) ;\n sw t0,0(s0) ;\nexists (0:t0=0 /\\ y=0)\n"
	test, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := test.ConditionString(); got != "exists (0:x5=0 /\\ [y]=0)" {
		t.Errorf("condition %s", got)
	}
	if _, err := litmus.Parse("t.litmus", []byte(strings.Replace(src, "0:fp=y", "0:s10=y", 1))); err == nil || !strings.Contains(err.Error(), "0:s10 is no register of herd7's RISC-V") {
		t.Errorf("0:s10 accepted or refused for another reason: %v", err)
	}
}

// FuzzParseRISCV feeds arbitrary programs to the RISC-V dialect: errors
// are fine, panics are not.
func FuzzParseRISCV(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n sw x5,0(x6) | lw.aq x5,0(x6) ;\n amoor.w.aq.rl x7,x0,(x8) | bne x5,x0,L ;\n | L: fence r,rw ;",
		" P0 ;\n lr.w x1,(x2) ;\n sc.w x3,x1,0(x2) ;\n j E ;\n E: ;",
		" P1 | P0 ;\n li x1,1 | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "RISCV F\n{ 0:x6=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:x5=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
