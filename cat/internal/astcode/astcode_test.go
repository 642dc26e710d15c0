package astcode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	catparser "github.com/purr-mcm/purr/cat/internal/parser"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// catFiles are the Cat files at hand: purr's own, and herd's and the
// kernel's when ../shared is there.
func catFiles(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, fsys := range []fs.FS{stdlib.FS, models.FS} {
		names, _ := fs.Glob(fsys, "*.cat")
		for _, n := range names {
			src, err := fs.ReadFile(fsys, n)
			if err != nil {
				t.Fatal(err)
			}
			files["embed:"+n] = src
		}
	}
	if d := shared.Dir(); d != "" {
		for _, pattern := range []string{"herd-libdir/*.cat", "herd-libdir/*.bell", "lkmm/model/*.cat", "lkmm/model/*.bell", "lkmm/model-current/*.cat"} {
			names, _ := filepath.Glob(filepath.Join(d, pattern))
			for _, n := range names {
				src, err := os.ReadFile(n)
				if err != nil {
					t.Fatal(err)
				}
				files[n] = src
			}
		}
	}
	return files
}

// TestRoundTrip reads back every file as the parser gives it, under its own
// name and under another.
func TestRoundTrip(t *testing.T) {
	parsed := 0
	for name, src := range catFiles(t) {
		f, errs := catparser.Parse(name, src)
		if errs != nil {
			continue // files herd's parser refuses too
		}
		parsed++
		data, err := Encode(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := Decode(data, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, f) {
			t.Errorf("%s: read back differs from the parse", name)
		}
		other := "elsewhere/" + filepath.Base(name)
		want, _ := catparser.Parse(other, src)
		if got, err := Decode(data, other); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back as %s differs from its parse (err %v)", name, other, err)
		}
		again, _ := Encode(want)
		if string(again) != string(data) {
			t.Errorf("%s: the encoding depends on the file's name", name)
		}
	}
	if parsed < 10 {
		t.Fatalf("only %d files parsed", parsed)
	}
}

// TestCorruptInput checks that every truncation and every single-byte
// change of an encoding gives an error or a tree, never a panic.
func TestCorruptInput(t *testing.T) {
	src, err := fs.ReadFile(models.FS, "aarch64.cat")
	if err != nil {
		t.Fatal(err)
	}
	f, errs := catparser.Parse("aarch64.cat", src)
	if errs != nil {
		t.Fatal(errs)
	}
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := Decode(data[:n], "x"); err == nil {
			t.Fatalf("a truncation to %d of %d bytes was read", n, len(data))
		}
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	for i := 0; i < len(data); i += step {
		for _, b := range []byte{0, 1, 0x7f, 0x80, 0xff, data[i] ^ 0x10} {
			c := append([]byte(nil), data...)
			c[i] = b
			Decode(c, "x") // must not panic
		}
	}
}

// TestEveryNodeType keeps nodeTypes in step with package ast: every type
// with an exprNode, stmtNode or condNode method has a number.
func TestEveryNodeType(t *testing.T) {
	dir := filepath.Join("..", "..", "ast")
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, typ := range nodeTypes[1:] {
		known[typ.Elem().Name()] = true
	}
	found := 0
	for _, p := range pkgs {
		for _, file := range p.Files {
			for _, d := range file.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil {
					continue
				}
				switch fn.Name.Name {
				case "exprNode", "stmtNode", "condNode":
				default:
					continue
				}
				star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				name := star.X.(*ast.Ident).Name
				found++
				if !known[name] {
					t.Errorf("ast.%s has no number in nodeTypes", name)
				}
			}
		}
	}
	if found != len(nodeTypes)-1 {
		t.Errorf("package ast has %d node types, nodeTypes %d", found, len(nodeTypes)-1)
	}
}

func BenchmarkDecode(b *testing.B) {
	src, _ := fs.ReadFile(models.FS, "aarch64.cat")
	f, _ := catparser.Parse("aarch64.cat", src)
	data, _ := Encode(f)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Decode(data, "aarch64.cat"); err != nil {
			b.Fatal(err)
		}
	}
}
