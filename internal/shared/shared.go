// Package shared locates the ../shared folder beside the repository root
// (test corpora and reference outputs) for tests and benchmarks, which skip
// when it is absent.
package shared

import (
	"os"
	"path/filepath"
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
