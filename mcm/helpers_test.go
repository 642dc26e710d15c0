package mcm

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"

	_ "github.com/purr-mcm/purr/litmus/aarch64"
	_ "github.com/purr-mcm/purr/litmus/c"
)

// embeddedModel loads one of purr's shipped models by name.
func embeddedModel(t testing.TB, name string) *cat.Model {
	t.Helper()
	src, err := fs.ReadFile(models.FS, name+".cat")
	if err != nil {
		t.Fatal(err)
	}
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := l.LoadSource(name+".cat", src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func parseTestFile(t testing.TB, path string) *litmus.Test {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

// repoPath is a path relative to the repository root.
func repoPath(rel string) string { return filepath.Join("..", rel) }

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
