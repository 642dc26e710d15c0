package cat

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// FuzzParse checks that parsing never panics and that whatever parses
// prints back to Cat that parses to the same tree.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "*.cat"))
	for _, s := range seeds {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		first, err := Parse("fuzz.cat", src)
		if err != nil {
			switch err.(type) {
			case *source.Error, source.ErrorList:
			default:
				t.Fatalf("error of type %T", err)
			}
			return
		}
		checkModel(&Model{Stmts: first.Stmts}, &Loader{Predefined: map[string]Kind{"po": KindRelation, "W": KindSet, "domain": KindFunction}})
		var out bytes.Buffer
		if err := ast.Fprint(&out, first); err != nil {
			t.Fatal(err)
		}
		second, err := Parse("fuzz.cat", out.Bytes())
		if err != nil {
			t.Fatalf("printed model does not parse: %v\n%s", err, out.String())
		}
		if !reflect.DeepEqual(stripPos(first), stripPos(second)) {
			t.Fatalf("tree changes when printed and parsed again:\n%s", out.String())
		}
	})
}

// TestSeedsRoundTrip runs the round trip on the fuzz seeds in every go test.
func TestSeedsRoundTrip(t *testing.T) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "*.cat"))
	if len(seeds) == 0 {
		t.Fatal("no seeds")
	}
	for _, s := range seeds {
		src, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, s, src)
	}
}
