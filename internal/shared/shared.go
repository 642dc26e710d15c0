// Package shared locates the ../shared folder beside the repository root
// (test corpora and reference outputs) for tests and benchmarks, which skip
// when it is absent, and says which of a corpus's tests a run checks.
package shared

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir returns the shared folder, or "" when there is none.
func Dir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			s := filepath.Join(filepath.Dir(dir), "shared")
			if fi, err := os.Stat(s); err == nil && fi.IsDir() {
				return s
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns the path of rel inside the shared folder, skipping tb when
// the folder or that entry is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skip("../shared is absent")
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s is absent", p)
	}
	return p
}

// ReadFloors reads a golden file of agreement floors, one
// "KEY... agreed/total [# note]" line each with keys key fields, into a map
// from the key fields (joined by a space) to agreed. A missing file is no
// floor at all when the test is rewriting it (updating).
func ReadFloors(t testing.TB, path string, keys int, updating bool) map[string]int {
	t.Helper()
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) && updating {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for i, line := range strings.Split(string(src), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != keys+1 {
			t.Fatalf("%s:%d: want %d key fields and agreed/total", path, i+1, keys)
		}
		var agreed, total int
		if _, err := fmt.Sscanf(f[keys], "%d/%d", &agreed, &total); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out[strings.Join(f[:keys], " ")] = agreed
	}
	return out
}

// Every returns n for a test over a corpus that checks every n-th test of
// it (by a fixed order, so that the sample is the same in every run): 1
// when all is set (the test's -...-all flag, which CI gives), short under
// go test -short (the everyday run, which must stay quick), and every
// otherwise. Values below 1 count as 1.
func Every(all bool, every, short int) int {
	n := every
	switch {
	case all:
		n = 1
	case testing.Short():
		n = short
	}
	return max(n, 1)
}
