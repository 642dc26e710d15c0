package cat

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/internal/shared"
)

// herdModels lists herd's .cat and .bell files under ../shared.
func herdModels(t testing.TB) (string, []string) {
	dir := shared.Path(t, "herd-libdir")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".cat") || strings.HasSuffix(p, ".bell")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir, files
}

func TestLoadHerdLibdir(t *testing.T) {
	dir, files := herdModels(t)
	if len(files) != 96 {
		t.Errorf("found %d herd models, want 96", len(files))
	}
	l := &Loader{IncludeDirs: []string{dir}}
	for _, f := range files {
		m, err := l.LoadFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if m.Files[0] != f {
			t.Errorf("%s: Files[0] = %q", f, m.Files[0])
		}
	}
}

// TestRoundTripHerdLibdir checks parse → print → parse gives the same tree.
func TestRoundTripHerdLibdir(t *testing.T) {
	_, files := herdModels(t)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, f, src)
	}
}

func checkRoundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	first, err := Parse(name, src)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	var out bytes.Buffer
	if err := ast.Fprint(&out, first); err != nil {
		t.Fatal(err)
	}
	second, err := Parse(name+" (printed)", out.Bytes())
	if err != nil {
		t.Errorf("%s: printed model does not parse: %v\n%s", name, err, out.String())
		return
	}
	a, b := stripPos(first).(*ast.File), stripPos(second).(*ast.File)
	b.Name = a.Name
	if !reflect.DeepEqual(a, b) {
		for i := range a.Stmts {
			if i >= len(b.Stmts) || !reflect.DeepEqual(a.Stmts[i], b.Stmts[i]) {
				t.Errorf("%s: statement %d changes when printed and parsed again:\n%s", name, i, ast.String(first.Stmts[i]))
				return
			}
		}
		t.Errorf("%s: tree changes when printed and parsed again", name)
	}
}
