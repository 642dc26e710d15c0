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

// riscvShort: under -short, one in riscvShort of the sampled tests runs.
const riscvShort = 20

// riscvDiffer are the tests of herd7's sample on which purr's answer is
// not herd7's, with the reason in TestCorpusRISCV's report.
var riscvDiffer = []string{}

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
		if want := compared - len(riscvDiffer); agreed[name] < want {
			t.Errorf("%s: %d/%d agree with herd7, want %d", name, agreed[name], compared, want)
		}
	}
}
