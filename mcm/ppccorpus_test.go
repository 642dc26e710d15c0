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

// Under -short, one in ppcShort of herd7's sample runs, and one in
// ppcShort of the suite against Dartagnan's verdicts; without
// -corpus-all, TestCorpusPPCExpected checks one in ppcEvery.
const ppcShort, ppcEvery = 20, 2

// TestCorpusPPC compares purr with herd7 7.57 on Dat3M's Power suite's
// sample that herd7 answered (herd-7.57.txt, its ppc.cat), every field and
// the hash: under herd's own ppc.cat (from ../shared/herd-libdir,
// unmodified) and under purr's embedded ppc, the default for Power tests,
// which must give the same answers as herd's file on every test.
func TestCorpusPPC(t *testing.T) {
	dir := shared.Path(t, "corpus/dat3m-ppc")
	libdir := shared.Path(t, "herd-libdir")
	refs, err := herdtest.ParseFile(filepath.Join(dir, "herd-7.57.txt"))
	if err != nil {
		t.Fatal(err)
	}
	l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
	herds, err := l.LoadFile(filepath.Join(libdir, "ppc.cat"))
	if err != nil {
		t.Fatal(err)
	}
	own := embeddedModel(t, "ppc")
	every := 1
	if testing.Short() {
		every = ppcShort
	}
	compared, agreed := 0, map[string]int{}
	var diffs []string
	for i, ref := range refs {
		if ref.Result == nil || i%every != 0 {
			continue
		}
		compared++
		path := filepath.Join(dir, ref.Path)
		for _, m := range []struct {
			name  string
			model *cat.Model
		}{{"ppc.cat", herds}, {"ppc", own}} {
			got, err := checkHerdModel(m.model, path, EngineSAT)
			if err != nil {
				diffs = append(diffs, fmt.Sprintf("%s under %s: %v", ref.Path, m.name, err))
				continue
			}
			d := herdtest.Compare(ref, got)
			d = append(d, herdtest.CompareFlags(ref, got)...)
			// Every field, in herd7's order, and the hash.
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
	for _, name := range []string{"ppc.cat", "ppc"} {
		t.Logf("%s: %d/%d agree with herd7", name, agreed[name], compared)
	}
	for i, d := range diffs {
		if i == 30 && !*corpusReport {
			t.Logf("... and %d more (-corpus-report lists all)", len(diffs)-30)
			break
		}
		t.Log(d)
	}
	for _, name := range []string{"ppc.cat", "ppc"} {
		if agreed[name] < compared {
			t.Errorf("%s: %d/%d agree with herd7", name, agreed[name], compared)
		}
	}
}

// ppcDartagnanDiffers are the tests whose verdict in Dartagnan's
// expected.csv differs from herd7 7.57's under ppc.cat: herd7's stands,
// and purr gives it.
var ppcDartagnanDiffers = map[string]bool{}

// TestCorpusPPCExpected checks purr's default ppc model against
// Dartagnan's verdicts (expected.csv) on the whole suite, save the tests
// listed in ppcDartagnanDiffers, where purr gives herd7's verdict instead.
func TestCorpusPPCExpected(t *testing.T) {
	dir := shared.Path(t, "corpus/dat3m-ppc")
	expected := readExpected(t, filepath.Join(dir, "expected.csv"))
	paths := make([]string, 0, len(expected))
	for p := range expected {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	own := embeddedModel(t, "ppc")
	every := shared.Every(*corpusAll, ppcEvery, ppcShort)
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
		if claimHolds(got.Result) == expected[p] {
			if ppcDartagnanDiffers[p] {
				t.Errorf("%s: listed as differing from Dartagnan, and agrees", p)
			}
			continue
		}
		if !ppcDartagnanDiffers[p] {
			differ = append(differ, p)
		}
	}
	t.Logf("%d tests checked against expected.csv, %d refused, %d verdicts differ", checked, refused, len(differ))
	for _, p := range differ {
		t.Errorf("%s: purr's verdict is not Dartagnan's", p)
	}
	if refused > 0 {
		t.Errorf("%d tests refused", refused)
	}
}
