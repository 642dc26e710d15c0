package litmus_test

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/aarch64"
	_ "github.com/purr-mcm/purr/litmus/c"
)

// referenceHashes reads herd7's Hash line of every test of a reference
// output ("# path" before each block), keyed by path.
func referenceHashes(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hashes := map[string]string{}
	path := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "# "); ok {
			path = p
		} else if h, ok := strings.CutPrefix(line, "Hash="); ok && path != "" {
			hashes[path] = h
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return hashes
}

// expectedHashes reads the Hash line of every X.litmus.expected of a
// herd regression folder, keyed by X.litmus.
func expectedHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.litmus.expected"))
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]string{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if h, ok := strings.CutPrefix(line, "Hash="); ok {
				hashes[strings.TrimSuffix(filepath.Base(file), ".expected")] = h
			}
		}
	}
	return hashes
}

// TestHashCorpus computes purr's Hash for every test of the corpora that
// herd7 hashed and purr reads, and compares it with herd7's.
func TestHashCorpus(t *testing.T) {
	folders := []struct{ dir, ref string }{
		{"herd-catalogue-aarch64", "herd-7.57.txt"},
		{"dat3m-aarch64", "herd-7.57.txt"},
		{"dat3m-c11", "herd-7.57-rc11.txt"},
		{"herd-regression/AArch64", ""},
		{"herd-regression/C", ""},
		{"random-aarch64", "herd-7.57.txt"},
		{"random-c", "herd-7.57-rc11.txt"},
		{"riscv-official", "herd-7.57.txt"},
		{"dat3m-ppc", "herd-7.57.txt"},
	}
	for _, f := range folders {
		t.Run(f.dir, func(t *testing.T) {
			dir := shared.Path(t, "corpus/"+f.dir)
			var want map[string]string
			if f.ref == "" {
				want = expectedHashes(t, dir)
			} else {
				want = referenceHashes(t, filepath.Join(dir, f.ref))
			}
			paths := make([]string, 0, len(want))
			for p := range want {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			read, same := 0, 0
			var differ []string
			for _, p := range paths {
				src, err := os.ReadFile(filepath.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				lt, err := litmus.Parse(p, src)
				if err != nil {
					continue // purr refuses the test: nothing to hash
				}
				read++
				if got := lt.Hash(); got == want[p] {
					same++
				} else {
					differ = append(differ, p)
				}
			}
			t.Logf("%s: hash as herd7's for %d of the %d tests purr reads (%d hashed by herd7)", f.dir, same, read, len(want))
			for _, p := range differ {
				t.Errorf("%s: hash differs from herd7's", p)
			}
		})
	}
}
