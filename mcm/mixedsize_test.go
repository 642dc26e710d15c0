package mcm

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

var updateMixed = flag.Bool("update-mixed", false, "rewrite testdata/mixed/*.golden")

// TestMixedSize runs the tests of testdata/mixed with both engines: the
// mixed-size ones must be refused with the error of their golden file,
// the others must run and print the block of their golden file, the same
// whichever engine decides.
func TestMixedSize(t *testing.T) {
	dir := repoPath("testdata/mixed")
	files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests in %s: %v", dir, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lt, err := litmus.Parse(name, src) // the messages name the file as given
			if err != nil {
				t.Fatal(err)
			}
			model := embeddedModel(t, "sc")
			if lt.Arch == "AArch64" {
				model = embeddedModel(t, "aarch64")
			}
			var got [2]string
			for i, engine := range []string{EngineSAT, EngineExplicit} {
				out, err := Check(model, lt, Options{Unroll: 2, Engine: engine})
				if err != nil {
					got[i] = err.Error() + "\n"
					continue
				}
				r := out.Result(lt, false)
				got[i] = r.String()
			}
			if got[0] != got[1] {
				t.Fatalf("the engines disagree:\nsat:\n%s\nexplicit:\n%s", got[0], got[1])
			}
			goldenPath := strings.TrimSuffix(path, ".litmus") + ".golden"
			if *updateMixed {
				if err := os.WriteFile(goldenPath, []byte(got[0]), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test -run TestMixedSize -update-mixed to create it)", err)
			}
			if got[0] != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got[0], want)
			}
		})
	}
}
