package mcm

import (
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
)

var corpusReport = flag.Bool("corpus-report", false, "print every difference with herd7 in the corpus tests")

// corpusCase is one comparison of purr with herd7 on a folder of tests.
type corpusCase struct {
	folder string  // under ../shared/corpus
	ref    string  // herd7's output for the folder
	model  string  // purr's embedded model
	agree  float64 // the fraction of tests that must agree on every field compared
}

// runCorpus checks every test of a folder under a model and compares
// verdict, States and Positive/Negative with herd7's output. Tests that
// herd7 itself could not run are skipped.
func runCorpus(t *testing.T, c corpusCase) {
	dir := shared.Path(t, filepath.Join("corpus", c.folder))
	refs, err := herdout.ParseFile(filepath.Join(dir, c.ref))
	if err != nil {
		t.Fatal(err)
	}
	model := embeddedModel(t, c.model)
	compared, agreed := 0, 0
	var diffs []string
	for _, ref := range refs {
		if ref.Result == nil {
			continue
		}
		compared++
		got, err := checkFile(model, filepath.Join(dir, ref.Path))
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("%s: %v", ref.Path, err))
			continue
		}
		if d := herdout.Compare(ref, got); len(d) > 0 {
			diffs = append(diffs, fmt.Sprintf("%s: %s", ref.Path, strings.Join(d, "; ")))
			continue
		}
		agreed++
	}
	sort.Strings(diffs)
	frac := float64(agreed) / float64(compared)
	t.Logf("%s under %s: %d/%d agree with herd7 (%.2f%%)", c.folder, c.model, agreed, compared, 100*frac)
	if *corpusReport {
		for _, d := range diffs {
			t.Log(d)
		}
	}
	if frac < c.agree {
		for i, d := range diffs {
			if i == 20 {
				t.Logf("... and %d more (-corpus-report lists all)", len(diffs)-20)
				break
			}
			t.Log(d)
		}
		t.Errorf("%s under %s: %.2f%% agree, want at least %.2f%%", c.folder, c.model, 100*frac, 100*c.agree)
	}
}

func checkFile(m *cat.Model, path string) (blk herdout.Block, err error) {
	src, err := readFile(path)
	if err != nil {
		return blk, err
	}
	lt, err := litmus.Parse(path, src)
	if err != nil {
		return blk, err
	}
	out, err := Check(m, lt, Options{Unroll: 2})
	if err != nil {
		return blk, err
	}
	r := out.Result(lt)
	return herdout.Block{Path: path, Result: &r}, nil
}

func TestCorpusSC(t *testing.T) {
	for _, c := range []corpusCase{
		{folder: "herd-catalogue-aarch64", ref: "herd-7.57-sc.txt", model: "sc", agree: 1},
		{folder: "dat3m-aarch64", ref: "herd-7.57-sc.txt", model: "sc", agree: 1},
	} {
		t.Run(c.folder, func(t *testing.T) { runCorpus(t, c) })
	}
}
