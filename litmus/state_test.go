package litmus

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
)

// TestCorpusStateParses checks that the initial state and the final part
// of every corpus test parse with the shared grammar (the program parts
// are the dialects' business).
func TestCorpusStateParses(t *testing.T) {
	root := shared.Path(t, "corpus")
	var total, failed int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".litmus") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		total++
		s, err := SplitTest(path, src, func(arch string) bool { return arch != "C" })
		if err == nil {
			_, err = ParseInit(s.Init)
		}
		if err == nil {
			_, err = ParseConstraints(s.Cond)
		}
		if err != nil {
			failed++
			t.Log(err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d/%d corpus tests have a parsable initial state and condition", total-failed, total)
	// A few herd regression tests use syntax purr does not read (PTE
	// values, interrupts); everything else must parse.
	if failed > total/100 {
		t.Errorf("%d of %d tests fail to parse", failed, total)
	}
}
