package dialects

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/models"
)

const module = "github.com/purr-mcm/purr/"

// dialectPackage is the import path of the package that registered d: the
// package of its Translate function.
func dialectPackage(d litmus.Dialect) string {
	name := runtime.FuncForPC(reflect.ValueOf(d.Translate).Pointer()).Name()
	dot := strings.LastIndexByte(name, '.')
	if slash := strings.LastIndexByte(name, '/'); dot < slash {
		return name
	}
	return name[:dot]
}

// TestDefaultModels: every dialect names a default model that purr ships.
func TestDefaultModels(t *testing.T) {
	for _, arch := range litmus.Dialects() {
		d, _ := litmus.LookupDialect(arch)
		if d.Model == "" {
			t.Errorf("%s: no default model", arch)
			continue
		}
		if _, err := fs.Stat(models.FS, d.Model+".cat"); err != nil {
			t.Errorf("%s: default model %s is not among the embedded models: %v", arch, d.Model, err)
		}
		for _, inc := range d.HerdIncludes {
			if path.Ext(inc) != ".cat" || path.Base(inc) != inc {
				t.Errorf("%s: herd include %q is not the name of a .cat file", arch, inc)
			}
		}
	}
}

// TestOneLinePerDialect: this package imports exactly the packages that
// register dialects, so that a new dialect is its package and one line
// here.
func TestOneLinePerDialect(t *testing.T) {
	registering := map[string]bool{}
	for _, arch := range litmus.Dialects() {
		d, _ := litmus.LookupDialect(arch)
		registering[dialectPackage(d)] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "dialects.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !registering[p] {
			t.Errorf("dialects.go imports %s, which registers no dialect", p)
		}
		delete(registering, p)
	}
	for p := range registering {
		t.Errorf("%s registers a dialect and is not imported by dialects.go", p)
	}
}

// TestArchNamedOnlyByItsDialect: no Go file outside a dialect's package
// (tests aside) spells its architecture's name as a string, so that what
// is particular to an architecture lives in its dialect.
func TestArchNamedOnlyByItsDialect(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{} // architecture -> its package's folder
	for _, arch := range litmus.Dialects() {
		d, _ := litmus.LookupDialect(arch)
		owner[strconv.Quote(arch)] = filepath.Join(root, strings.TrimPrefix(dialectPackage(d), module))
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if name := e.Name(); p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if dir, ok := owner[lit.Value]; ok && !within(p, dir) {
				t.Errorf("%s names architecture %s, which only its dialect (%s) should", fset.Position(lit.Pos()), lit.Value, dir)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(litmus.Dialects(), "AArch64") {
		t.Fatal("the AArch64 dialect is not registered")
	}
}

// TestNoANTLROutsideInternal: every parse tree, a dialect's or any other
// front end's, stays beside its generated parser (under an internal/
// folder); the rest of purr works on the syntax trees the converters there
// produce. It walks the whole repository, so a new front end keeps the rule
// too.
func TestNoANTLROutsideInternal(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == "internal" || e.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "antlr") {
				t.Errorf("%s imports %s outside an internal/ folder", fset.Position(imp.Pos()), imp.Path.Value)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func within(file, dir string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && !strings.HasPrefix(rel, "..")
}

// TestWarm: every dialect has a sample that reads without error (else
// litmus.Warm would set up little), and reading it beside a parse is
// safe (go test -race).
func TestWarm(t *testing.T) {
	for _, arch := range litmus.Dialects() {
		d, _ := litmus.LookupDialect(arch)
		done := make(chan struct{})
		go func() { litmus.Warm(arch); close(done) }()
		if _, err := litmus.Parse("sample.litmus", []byte(d.Sample)); err != nil {
			t.Errorf("%s: the sample does not read: %v", arch, err)
		}
		<-done
	}
}
