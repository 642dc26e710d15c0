package bpf_test

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/bpf"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden translates the repository's BPF tests (testdata/bpf) and
// compares the XCFA, printed as DOT, and the condition with
// testdata/NAME.dot here.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/bpf/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(f), ".litmus")+".dot")
		t.Run(filepath.Base(f), func(t *testing.T) { xcfagolden.Check(t, f, golden, *update) })
	}
}

// TestHashCode checks herd7's printing of the instructions it hashes
// (BPFBase.pp_instruction): registers lower case and r10 as fp, a blank
// before a load's address but not a store's, offsets "+ k" and "- k",
// store_release followed by a blank, xchg_32_32 as xchg32_32, every atomic
// with its source register on the left and cmpxchg with r0, labels renamed
// in sorted order.
func TestHashCode(t *testing.T) {
	src := "BPF H\n{ 0:r1=x; 1:r10=y; }\n" +
		" P0                                        | P1                                  ;\n" +
		" R2 = *(u8 *)(r1 + 0)                      | b: *(u64 *)(fp + 0) = -3            ;\n" +
		" store_release((u16 *)(r1 + 0), R2)        | r4 = load_acquire((u32 *)(r10 + 0)) ;\n" +
		" r3 = atomic_fetch_xor((u64*)(r1 + 0), r2) | lock *(u32 *)(r10+0) &= r4          ;\n" +
		" r5 = xchg_32_32(r1 + 0, r6)               | if r4 != r2 goto b                  ;\n" +
		" r7 = cmpxchg_64(r1 + 0, r8, r9)           | if r4 >= -1 goto a                  ;\n" +
		" r0 s>>= 1                                 | a: r4 += 2                          ;\n" +
		" goto a                                    | r4 = r5                             ;\n" +
		" a: r0 = -7                                | *(u32 *)(r10 + 0) = r4              ;\n" +
		"exists (0:r0=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "s>>=") {
		t.Fatalf("s>>= should be refused, got %v", err)
	}
	src = strings.Replace(src, "r0 s>>= 1  ", "r0 >>= 1   ", 1)
	if test, err = litmus.Parse("H.litmus", []byte(src)); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"r2 = *(u8 *) (r1 + 0)", "store_release ((u16 *)(r1 + 0), r2)", "r2 = atomic_fetch_xor((u64 *)(r1 + 0), r2)",
			"r6 = xchg32_32(r1 + 0, r6)", "r0 = cmpxchg_64(r1 + 0, r0, r9)", "r0 >>= 1", "goto L00", "L00:", "r0 = -7"},
		{"L01:", "*(u64 *)(fp + 0) = -3", "r4 = load_acquire((u32 *) (fp + 0))", "lock *(u32 *)(fp + 0) &= r4",
			"if r4 != r2 goto L01", "if r4 >= -1 goto L00", "L00:", "r4 += 2", "r4 = r5", "*(u32 *)(fp + 0) = r4"},
	}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code\n%q\nwant\n%q", got, want)
	}
}

// FuzzParseBPF feeds arbitrary programs to the BPF dialect: errors are
// fine, panics are not.
func FuzzParseBPF(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n *(u32 *)(r1 + 0) = 1 | r2 = load_acquire((u32 *)(r1 + 0)) ;\n r3 = atomic_fetch_add((u64 *)(r1 + 0), r3) | if r2 == 1 goto L ;\n | L: ;",
		" P0 ;\n lock *(u32 *)(r1 - 2) += r2 ;\n r0 = cmpxchg_64(r1 + 0, r0, r2) ;\n goto E ;\n E: ;",
		" P1 | P0 ;\n r0 = 1 | ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "BPF F\n{ 0:r1=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:r0=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
