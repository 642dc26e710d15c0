package cat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// Loader reads a model and everything it includes.
//
// An include "f" is looked for as herd7 looks for it, in the current
// folder (unless f starts with ./ or ../), then in IncludeDirs in order,
// so that an -I folder overrides a file of herd's library the way it does
// for herd7; then in the including file's folder (herd7's library, when
// the model is one of its files), then at the root of each Embedded file
// system in order (purr's stdlib/ and models/). A file of purr's embedded
// models looks beside itself first. Files from an embedded file system are
// named "embed:PATH" in positions and in Model.Files.
type Loader struct {
	IncludeDirs []string
	Embedded    []fs.FS
	// Predefined, when not nil, turns on the check of names: every name
	// the model uses must be bound before the use (by Prelude or the
	// model, in herd's lexical scope: a procedure or function body sees
	// the names bound before its definition) or be Predefined, and a
	// predefined set or relation cannot be applied or called. As herd,
	// which fails only on what it runs, the check reports the errors of
	// reachable code: the model's top level, and the bodies of the
	// procedures it calls and of the functions bound by let it uses,
	// directly or through other such bodies. Of an if on variants, only
	// the branch that Variants select runs; names bound in one arm of a
	// match count as bound after it. Names under the first operand of
	// try ... with are not checked (herd catches their failure).
	// Without Predefined, procedures are still bound to their calls.
	Predefined map[string]Kind
	// Prelude is what every model runs after (purr's prelude): the names
	// it binds are in scope for the model. It is checked with the model.
	Prelude []ast.Stmt
	// Variants are the enabled variants (herd's -variant) for the check.
	Variants []string
	// NativeWith, when not nil, tells the with x from f(arg) statements
	// that the evaluator carries out itself without applying f (purr's
	// "with co from generate_cos(...)"): only arg is checked.
	NativeWith func(*ast.With) bool
	// Cache, when not nil, gives the files it has already parsed.
	Cache *Cache
}

// LoadFile parses the model in the file at path, follows its includes and
// checks it (see Loader).
func (l *Loader) LoadFile(path string) (*Model, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, source.Errorf(source.Pos{File: path}, "cannot read model: %v", errors.Unwrap(err))
	}
	abs, _ := filepath.Abs(path)
	return l.load(origin{key: abs, name: path, dir: filepath.Dir(path), embed: -1}, src)
}

// LoadSource is LoadFile for a model given as text; name is used in
// positions and its folder is searched first for includes.
func (l *Loader) LoadSource(name string, src []byte) (*Model, error) {
	abs, _ := filepath.Abs(name)
	return l.load(origin{key: abs, name: name, dir: filepath.Dir(name), embed: -1}, src)
}

// origin is where a file comes from: the OS file system (embed < 0) or the
// embedded file system Embedded[embed].
type origin struct {
	key   string // identity: absolute path, or "embedN:path"
	name  string // for positions
	dir   string // folder searched first for its includes
	embed int
}

type loader struct {
	*Loader
	errs   source.ErrorList
	files  []string
	parsed map[string]*ast.File
	stack  []origin // files being expanded, for include cycles
}

func (l *Loader) load(main origin, src []byte) (*Model, error) {
	ld := &loader{Loader: l, parsed: map[string]*ast.File{}}
	f, errs := l.Cache.parse(main.name, src)
	ld.files = append(ld.files, main.name)
	if errs != nil {
		errs.Sort()
		return nil, errs.Err()
	}
	ld.parsed[main.key] = f
	ld.stack = []origin{main}
	included := map[string]bool{main.key: true}
	m := &Model{Name: main.name, Arch: f.Arch, Title: f.Title, CatDep: f.CatDep}
	m.Stmts = ld.expand(f.Stmts, main, included)
	m.Files = ld.files
	if len(ld.errs) == 0 {
		ld.errs = checkModel(m, l)
	}
	if ld.errs != nil {
		ld.errs.Sort()
		return nil, ld.errs.Err()
	}
	return m, nil
}

// expand copies stmts with their includes followed. included holds the
// files certainly included on every path to here; it is updated.
func (ld *loader) expand(stmts []ast.Stmt, from origin, included map[string]bool) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(stmts))
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.Include:
			out = append(out, ld.include(s, from, included))
		case *ast.IfVariant:
			thenSet, elseSet := copySet(included), copySet(included)
			c := *s
			c.Then = ld.expand(s.Then, from, thenSet)
			c.Else = ld.expand(s.Else, from, elseSet)
			intersectInto(included, thenSet, elseSet)
			out = append(out, &c)
		case *ast.MatchStmt:
			c := *s
			c.Clauses = nil
			var sets []map[string]bool
			for _, k := range s.Clauses {
				set := copySet(included)
				kc := *k
				kc.Body = ld.expand(k.Body, from, set)
				c.Clauses = append(c.Clauses, &kc)
				sets = append(sets, set)
			}
			set := copySet(included)
			c.Default = ld.expand(s.Default, from, set)
			sets = append(sets, set)
			intersectInto(included, sets...)
			out = append(out, &c)
		case *ast.Procedure:
			c := *s
			c.Body = ld.expand(s.Body, from, copySet(included))
			out = append(out, &c)
		case *ast.Forall:
			c := *s
			c.Body = ld.expand(s.Body, from, copySet(included))
			out = append(out, &c)
		default:
			out = append(out, s)
		}
	}
	return out
}

func copySet(s map[string]bool) map[string]bool {
	c := make(map[string]bool, len(s))
	for k := range s {
		c[k] = true
	}
	return c
}

// intersectInto sets dst to the intersection of sets.
func intersectInto(dst map[string]bool, sets ...map[string]bool) {
	for k := range dst {
		delete(dst, k)
	}
	if len(sets) == 0 {
		return
	}
	for k := range sets[0] {
		in := true
		for _, s := range sets[1:] {
			in = in && s[k]
		}
		if in {
			dst[k] = true
		}
	}
}

func (ld *loader) include(inc *ast.Include, from origin, included map[string]bool) *ast.Include {
	out := *inc
	src, data, searched := ld.find(inc.Path, from)
	if data == nil {
		ld.errs.Add(inc.Pos, "cannot find included file %q (searched %s)", inc.Path, strings.Join(searched, ", "))
		return &out
	}
	out.Resolved = src.name
	for i, s := range ld.stack {
		if s.key == src.key {
			var chain []string
			for _, t := range ld.stack[i:] {
				chain = append(chain, filepath.Base(t.name))
			}
			chain = append(chain, filepath.Base(src.name))
			ld.errs.Add(inc.Pos, "include cycle: %s", strings.Join(chain, " includes "))
			return &out
		}
	}
	if included[src.key] {
		return &out // herd includes a file once: a no-op here
	}
	included[src.key] = true
	f, ok := ld.parsed[src.key]
	if !ok {
		ld.files = append(ld.files, src.name)
		var errs source.ErrorList
		f, errs = ld.Cache.parse(src.name, data)
		if errs != nil {
			ld.errs = append(ld.errs, errs...)
			return &out
		}
		ld.parsed[src.key] = f
	}
	ld.stack = append(ld.stack, src)
	out.Stmts = ld.expand(f.Stmts, src, included)
	ld.stack = ld.stack[:len(ld.stack)-1]
	return &out
}

// herdImplicit tells whether herd7 searches its path for the name: a
// relative name that does not start with ./ or ../ (OCaml's
// Filename.is_implicit).
func herdImplicit(name string) bool {
	return !filepath.IsAbs(name) && !strings.HasPrefix(name, "./") && !strings.HasPrefix(name, "../")
}

// find looks for an included file; it returns its contents, or nil and the
// places searched.
func (ld *loader) find(name string, from origin) (origin, []byte, []string) {
	var searched []string
	tryOS := func(dir string) (origin, []byte) {
		p := name
		if !filepath.IsAbs(name) {
			p = filepath.Join(dir, name)
		}
		searched = append(searched, filepath.Dir(p))
		data, err := os.ReadFile(p)
		if err != nil {
			return origin{}, nil
		}
		abs, _ := filepath.Abs(p)
		return origin{key: abs, name: p, dir: filepath.Dir(p), embed: -1}, data
	}
	tryFS := func(i int, dir string) (origin, []byte) {
		p := path.Clean(path.Join(dir, name))
		where := "purr's embedded models and library"
		if d := path.Dir(p); d != "." {
			where = "purr's embedded " + d
		}
		if !slices.Contains(searched, where) {
			searched = append(searched, where)
		}
		data, err := fs.ReadFile(ld.Embedded[i], p)
		if err != nil || !fs.ValidPath(p) {
			return origin{}, nil
		}
		return origin{key: fmt.Sprintf("embed%d:%s", i, p), name: "embed:" + p, dir: path.Dir(p), embed: i}, data
	}
	if filepath.IsAbs(name) {
		s, d := tryOS("")
		return s, d, searched
	}
	if from.embed >= 0 {
		// purr's own models include purr's own files first.
		if s, d := tryFS(from.embed, from.dir); d != nil {
			return s, d, nil
		}
	} else if herdImplicit(name) {
		// herd7 looks in the current folder first.
		if s, d := tryOS("."); d != nil {
			return s, d, nil
		}
	}
	for _, dir := range ld.IncludeDirs {
		if s, d := tryOS(dir); d != nil {
			return s, d, nil
		}
	}
	// herd7 ends with its own library; purr with the including file's
	// folder (which is herd's library when the model is one of herd's),
	// then its embedded files.
	if from.embed < 0 {
		if s, d := tryOS(from.dir); d != nil {
			return s, d, nil
		}
	}
	for i := range ld.Embedded {
		if s, d := tryFS(i, "."); d != nil {
			return s, d, nil
		}
	}
	return origin{}, nil, searched
}
