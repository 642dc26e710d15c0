package mcm

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// Under -short, one in riscvShort of the tests runs; without
// -corpus-all, TestCorpusRISCVExpected checks one in riscvEvery of the
// suite's 6679 tests (herd7's sample is every third test already).
const riscvShort, riscvEvery = 40, 3

// TestCorpusRISCV compares purr with herd7 7.57 on the official RISC-V
// suite's sample that herd7 answered (herd-7.57.txt, its riscv.cat), the
// tests without mixed sizes: under herd's own riscv.cat (from
// ../shared/herd-libdir, unmodified) and under purr's embedded riscv, the
// default for RISC-V tests, which must give the same answers as herd's
// file on every test.
func TestCorpusRISCV(t *testing.T) {
	dir := shared.Path(t, "corpus/riscv-official")
	libdir := shared.Path(t, "herd-libdir")
	refs, err := herdtest.ParseFile(filepath.Join(dir, "herd-7.57.txt"))
	if err != nil {
		t.Fatal(err)
	}
	l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
	herds, err := l.LoadFile(filepath.Join(libdir, "riscv.cat"))
	if err != nil {
		t.Fatal(err)
	}
	own := embeddedModel(t, "riscv")
	every := 1
	if testing.Short() {
		every = riscvShort
	}
	compared, agreed := 0, map[string]int{}
	var diffs []string
	for i, ref := range refs {
		if ref.Result == nil || !strings.HasPrefix(ref.Path, "tests/non-mixed-size/") || i%every != 0 {
			continue
		}
		compared++
		path := filepath.Join(dir, ref.Path)
		for _, m := range []struct {
			name  string
			model *cat.Model
		}{{"riscv.cat", herds}, {"riscv", own}} {
			got, err := checkHerdModel(m.model, path, EngineSAT)
			if err != nil {
				diffs = append(diffs, fmt.Sprintf("%s under %s: %v", ref.Path, m.name, err))
				continue
			}
			d := herdtest.Compare(ref, got)
			d = append(d, herdtest.CompareFlags(ref, got)...)
			// Every field, in herd7's order (x7 before x10), and the hash.
			got.Result.HasTime = false
			if len(d) == 0 && got.Result.String() != ref.Text+"\n" {
				d = append(d, fmt.Sprintf("printed differently:\n%s\nwant:\n%s", got.Result.String(), ref.Text))
			}
			if len(d) > 0 {
				diffs = append(diffs, fmt.Sprintf("%s under %s: %s", ref.Path, m.name, strings.Join(d, "; ")))
				continue
			}
			agreed[m.name]++
		}
	}
	slices.Sort(diffs)
	for _, name := range []string{"riscv.cat", "riscv"} {
		t.Logf("%s: %d/%d agree with herd7", name, agreed[name], compared)
	}
	for i, d := range diffs {
		if i == 30 && !*corpusReport {
			t.Logf("... and %d more (-corpus-report lists all)", len(diffs)-30)
			break
		}
		t.Log(d)
	}
	for _, name := range []string{"riscv.cat", "riscv"} {
		if agreed[name] < compared {
			t.Errorf("%s: %d/%d agree with herd7", name, agreed[name], compared)
		}
	}
}

// TestCorpusRISCVExpected checks purr's default riscv model against
// Dartagnan's verdicts (dat3m-expected.csv) on the suite without mixed
// sizes: they agree on every test (herd7 and Dartagnan agree on all of
// herd7's sample).
func TestCorpusRISCVExpected(t *testing.T) {
	dir := shared.Path(t, "corpus/riscv-official")
	expected := readExpected(t, filepath.Join(dir, "dat3m-expected.csv"))
	paths := make([]string, 0, len(expected))
	for p := range expected {
		if strings.HasPrefix(p, "tests/non-mixed-size/") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	own := embeddedModel(t, "riscv")
	every := shared.Every(*corpusAll, riscvEvery, riscvShort)
	checked, refused := 0, 0
	var differ []string
	for i, p := range paths {
		if i%every != 0 {
			continue
		}
		got, err := checkFile(own, filepath.Join(dir, p))
		if err != nil {
			refused++
			t.Logf("%s: %v", p, err)
			continue
		}
		checked++
		if claimHolds(got.Result) != expected[p] {
			differ = append(differ, p)
		}
	}
	t.Logf("%d tests checked against dat3m-expected.csv, %d refused, %d verdicts differ", checked, refused, len(differ))
	for _, p := range differ {
		t.Errorf("%s: purr's verdict is not Dartagnan's", p)
	}
	if refused > 0 {
		t.Errorf("%d tests refused", refused)
	}
}
