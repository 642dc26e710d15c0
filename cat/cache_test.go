package cat

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/purr-mcm/purr/cat/internal/parser"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// TestPreparedCurrent keeps the embedded prepared files in step with the
// files they hold: a stale one costs only time, but it costs it.
func TestPreparedCurrent(t *testing.T) {
	for dir, fsys := range map[string]fs.FS{"stdlib": stdlib.FS, "models": models.FS} {
		want, err := WritePrepared(fsys)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := fs.ReadFile(fsys, PreparedFile)
		if !bytes.Equal(got, want) {
			t.Errorf("%s/%s is stale: run go generate ./%s", dir, PreparedFile, dir)
		}
		names, _ := fs.Glob(fsys, "*.cat")
		for _, name := range names {
			src, _ := fs.ReadFile(fsys, name)
			if _, ok := prepared(fsys)[contentKey(src)]; !ok {
				t.Errorf("%s/%s is not prepared", dir, name)
			}
		}
	}
}

// TestParserSources checks that every hand-written file of the parser
// keys the cache: a change to any of them must make new keys.
func TestParserSources(t *testing.T) {
	embedded := map[string]bool{}
	fs.WalkDir(parserSources, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			embedded[p] = true
		}
		return nil
	})
	for _, pattern := range []string{"internal/parser/*.go", "ast/*.go", "internal/astcode/*.go"} {
		names, _ := filepath.Glob(pattern)
		for _, n := range names {
			base := filepath.Base(n)
			if strings.HasSuffix(base, "_test.go") || base == "doc.go" || base == "print.go" ||
				base == "syntaxerr.go" || strings.HasPrefix(base, "cat_") {
				continue // tests, documentation, printing, errors, and what ANTLR generates from Cat.g4
			}
			if !embedded[filepath.ToSlash(n)] {
				t.Errorf("%s decides the syntax tree but is not among parserSources", n)
			}
		}
	}
}

// TestStalePreparedIgnored: a prepared file made for other contents is not
// used for these.
func TestStalePreparedIgnored(t *testing.T) {
	old := []byte("let a = po\n")
	fsys := fstest.MapFS{"m.cat": {Data: old}}
	blob, err := WritePrepared(fsys)
	if err != nil {
		t.Fatal(err)
	}
	changed := []byte("let b = rf\n")
	fsys = fstest.MapFS{"m.cat": {Data: changed}, PreparedFile: {Data: blob}}
	got, err := (&Cache{Prepared: []fs.FS{fsys}}).Parse("m.cat", changed)
	want, _ := Parse("m.cat", changed)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, %v; want the parse of the new contents", got, err)
	}
}

func modelText(i int) []byte {
	return []byte(fmt.Sprintf("\"m%d\"\nlet r%d = po | rf\nacyclic r%d as c%d\n", i, i, i, i))
}

// TestCacheDir: an entry written by one parse answers the next, under any
// name, and equals the parse.
func TestCacheDir(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	src := modelText(1)
	first, err := c.Parse("a.cat", src)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(c.Dir); len(entries) != 1 {
		t.Fatalf("%d entries after one parse, want 1", len(entries))
	}
	want, _ := Parse("b.cat", src)
	if f := readEntry(c.Dir, contentKey(src), "b.cat"); f == nil || !reflect.DeepEqual(f, want) {
		t.Fatalf("the entry reads %#v, want %#v", f, want)
	}
	if again, _ := c.Parse("a.cat", src); !reflect.DeepEqual(again, first) {
		t.Fatal("the second parse differs from the first")
	}
	if _, err := c.Parse("bad.cat", []byte("let = \n")); err == nil {
		t.Fatal("a syntax error was not reported")
	}
	if entries, _ := os.ReadDir(c.Dir); len(entries) != 1 {
		t.Fatalf("%d entries after a failed parse, want 1", len(entries))
	}
}

// TestCorruptEntries: whatever an entry holds, the cache answers the
// file's parse, and the entry is sound again afterwards.
func TestCorruptEntries(t *testing.T) {
	src := modelText(2)
	want, _ := Parse("m.cat", src)
	other, _ := Parse("m.cat", modelText(3))
	dir := t.TempDir()
	c := &Cache{Dir: dir}
	if _, err := c.Parse("m.cat", src); err != nil {
		t.Fatal(err)
	}
	path := entryPath(dir, contentKey(src))
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x20
		return b
	}
	// An entry that holds another file's tree under this key, with a sound
	// checksum, is what a broken writer would leave: still refused, as the
	// key it carries is the other file's.
	otherEntry := func() []byte {
		d := t.TempDir()
		writeEntry(d, contentKey(modelText(3)), other)
		b, _ := os.ReadFile(entryPath(d, contentKey(modelText(3))))
		return b
	}()
	cases := map[string][]byte{
		"empty":          {},
		"garbage":        []byte("not an entry at all"),
		"truncated":      good[:len(good)-3],
		"header only":    good[:len(entryMagic)+64],
		"magic flipped":  flip(0),
		"key flipped":    flip(len(entryMagic) + 1),
		"sum flipped":    flip(len(entryMagic) + 40),
		"body flipped":   flip(len(good) - 2),
		"another's tree": otherEntry,
		"trailing bytes": append(bytes.Clone(good), 0),
	}
	for name, data := range cases {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := c.Parse("m.cat", src)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the cache answered %v (err %v), not the file's parse", name, got, err)
		}
		if f := readEntry(dir, contentKey(src), "m.cat"); !reflect.DeepEqual(f, want) {
			t.Errorf("%s: the entry was not rewritten", name)
		}
	}
}

// TestConcurrentFill: parses that fill one cache directory at once all
// answer right and leave sound entries and no temporary files.
func TestConcurrentFill(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			c := &Cache{Dir: dir}
			for i := range 8 {
				src := modelText((g + i) % 4)
				got, err := c.Parse("m.cat", src)
				want, _ := parser.Parse("m.cat", src)
				if err != nil || !reflect.DeepEqual(got, want) {
					errs <- fmt.Errorf("goroutine %d, file %d: wrong tree (err %v)", g, i, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d entries, want 4 (one per contents)", len(entries))
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestCacheOff: PURR_CACHE=off writes nothing; PURR_CACHE=DIR moves it.
func TestCacheOff(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	if c := UserCache(); c.Dir != "" {
		t.Errorf("PURR_CACHE=off gave the directory %q", c.Dir)
	}
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	if c := UserCache(); c.Dir != dir {
		t.Errorf("PURR_CACHE=%s gave the directory %q", dir, c.Dir)
	}
}
