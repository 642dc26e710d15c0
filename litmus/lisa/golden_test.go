package lisa_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
	_ "github.com/purr-mcm/purr/litmus/lisa"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden translates the repository's LISA tests (testdata/lisa) and
// compares the XCFA, printed as DOT, and the condition with
// testdata/NAME.dot here.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/lisa/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(f), ".litmus")+".dot")
		t.Run(filepath.Base(f), func(t *testing.T) { xcfagolden.Check(t, f, golden, *update) })
	}
}

// TestHashCode checks herd7's printing of the instructions it hashes
// (BellBase.dump_instruction): annotations joined by "," in brackets,
// registers r<n>, operations in parentheses, offsets x+k, labels renamed
// in sorted order, mov without brackets.
func TestHashCode(t *testing.T) {
	src := "LISA H\n{ 0:r1=x; }\n" +
		" P0                        | P1              ;\n" +
		" r[once,acquire] r01 x+r2  | b: w[release] y 2 ;\n" +
		" rmw[] r3 (add r3 1) r1    | f[mb]           ;\n" +
		" b[] r3 c                  | b[] a           ;\n" +
		" c: mov r4 (neq r3 -1)     | a: mov r5 y     ;\n" +
		"exists (0:r1=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"r[once,acquire] r1 x+r2", "rmw[] r3 (add r3 1) r1", "b[] r3 L02", "L02:", "mov r4 (neq r3 -1)"},
		{"L01:", "w[release] y 2", "f[mb]", "b[] L00", "L00:", "mov r5 y"},
	}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code\n%q\nwant\n%q", got, want)
	}
}

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"call", " call[sync] ;", "t.litmus:4:2: unsupported instruction call: herd7 stops on it (\"Obsolete 'call' instruction\")"},
		{"unknown", " ld[] r1 x ;", "t.litmus:4:2: unsupported instruction ld: herd7's LISA has r, w, f, rmw, b and mov"},
		{"no brackets", " r r1 x ;", "t.litmus:4:2: r takes its annotations in brackets, r[...] (herd7's syntax): r r1 x"},
		{"annotated mov", " mov[once] r1 1 ;", "t.litmus:4:2: mov takes no annotations: mov[once] r1 1"},
		{"fence labels", " f[] {a} {b} ;", "t.litmus:4:2: unsupported fence with label sets: f[] {a} {b} (herd7 orders the instructions of the labels only)"},
		{"meta", " w[] x &v ;", "t.litmus:4:8: unsupported meta-variable &v: herd7 reads it in test templates only"},
		{"symbolic register", " r[] %a x ;", "t.litmus:4:6: unsupported symbolic register %a"},
		{"numeric address", " r[] r1 8 ;", "t.litmus:4:9: unsupported numeric address 8: herd7's LISA addresses are locations or registers"},
		{"location stored", " w[] x y ;", "t.litmus:4:8: a write stores a register or a number, found y"},
		{"read into a location", " r[] x y ;", "t.litmus:4:6: expected a register r0, r1, ..., found x"},
		{"operand count", " r[] r1 ;", "t.litmus:4:2: r takes [2] operand(s), found 1"},
		{"unknown operation", " mov r1 (sub r1 1) ;", "t.litmus:4:9: unsupported operation sub: herd7's LISA has add, xor, and, eq and neq"},
		{"offset by a location", " r[] r1 x+y ;", "t.litmus:4:11: an offset is a register or a number, found y"},
		{"branch to a register", " b[] r1 r2 ;", "t.litmus:4:9: label r2 is not defined in P0"},
		{"undefined label", " b[] L9 ;", "t.litmus:4:6: label L9 is not defined in P0"},
		{"scopes", " f[] ;\nscopes: (device (kernel (cta P0)))", "t.litmus:5:1: unsupported scopes section: herd7's scope trees and memory regions of LISA tests purr does not model"},
		{"regions", " f[] ;\n  regions : x:global", "t.litmus:5:3: unsupported regions section: herd7's scope trees and memory regions of LISA tests purr does not model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "LISA T\n{ }\n P0 ;\n" + c.code + "\nexists (x=1)\n"
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

// TestStateRegisters checks that the state and the condition name herd7's
// LISA registers, r01 as r1, and refuse another name.
func TestStateRegisters(t *testing.T) {
	src := "LISA S\n{ 0:r01=x; }\n P0 ;\n r[] r2 r1 ;\nexists (0:r2=0)\n"
	if _, err := litmus.Parse("s.litmus", []byte(src)); err != nil {
		t.Fatal(err)
	}
	src = "LISA S\n{ 0:EAX=x; }\n P0 ;\n r[] r2 r1 ;\nexists (0:r2=0)\n"
	_, err := litmus.Parse("s.litmus", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "s.litmus:2:3: 0:EAX is no register of herd7's LISA") {
		t.Errorf("got %v", err)
	}
}

// FuzzParseLISA feeds arbitrary programs to the LISA dialect: errors are
// fine, panics are not.
func FuzzParseLISA(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n w[] x 1 | r[acquire] r1 y ;\n f[mb] | rmw[] r2 (add r2 1) x+r3 ;\n b[] r1 L | L: ;",
		" P0 ;\n mov r1 (eq r2 3) ;\n rmw[once] r1 r2 x ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "LISA F\n{ 0:r1=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:r1=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
