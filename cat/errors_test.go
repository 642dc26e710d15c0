package cat

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenPredefined are the predefined names of the golden models.
var goldenPredefined = map[string]Kind{"po": KindRelation, "rf": KindRelation, "co": KindRelation,
	"fr": KindRelation, "loc": KindRelation, "W": KindSet, "R": KindSet, "domain": KindFunction}

// TestErrorsGolden loads each broken model of testdata/errors, with the
// names of goldenPredefined predefined and no variant, and compares the
// error with its .golden file.
func TestErrorsGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "errors", "*.cat"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	l := &Loader{Predefined: goldenPredefined}
	for _, f := range files {
		got := "ok\n"
		if _, err := l.LoadFile(f); err != nil {
			got = err.Error() + "\n"
		}
		golden := strings.TrimSuffix(f, ".cat") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", f, got, want)
		}
		if strings.Count(strings.TrimSpace(got), "\n") != 0 {
			t.Errorf("%s: more than one error:\n%s", f, got)
		}
	}
}
