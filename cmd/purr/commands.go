package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
	"github.com/purr-mcm/purr/xcfa"

	"github.com/purr-mcm/purr/litmus/c"
	_ "github.com/purr-mcm/purr/litmus/dialects" // every architecture purr reads
	"github.com/purr-mcm/purr/source"
)

// loader returns the Cat loader for the include path of o: the -I folders,
// then purr's embedded library and models. It refuses a model that names
// something neither it, purr's prelude nor the engines define.
func (o *options) loader() (*cat.Loader, error) {
	l := &cat.Loader{IncludeDirs: o.includes, Embedded: []fs.FS{stdlib.FS, models.FS}, Variants: o.variants}
	if err := mcm.CheckNames(l); err != nil {
		return nil, err
	}
	return l, nil
}

// printErr prints an error, one line per problem.
func printErr(w io.Writer, err error) {
	var list source.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(w, e)
		}
		return
	}
	fmt.Fprintln(w, err)
}

// cmdCheck parses and resolves models and tests without running anything.
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet("purr check", stderr, &o)
	files, err := parseFlags(fs, args)
	if err == nil {
		err = onlyFlags(fs, "include", "variant", "macros")
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr check:", err)
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "purr check: no files (usage: purr check [-I DIR]... [--variant a,b] FILE...)")
		return 2
	}
	status := 0
	for _, f := range files {
		var err error
		if !protect(f, stderr, func() { err = checkFile(&o, f) }) {
			status = exitInternal
			continue
		}
		if err != nil {
			printErr(stdout, err)
			status = max(status, 1)
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", f)
	}
	return status
}

func checkFile(o *options, path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cat", ".bell":
		l, err := o.loader()
		if err != nil {
			return err
		}
		_, err = l.LoadFile(path)
		return err
	case ".litmus":
		_, err := o.readTest(path)
		return err
	case ".def":
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = c.ParseMacros(path, src)
		return err
	}
	return fmt.Errorf("%s: not a .cat, .bell, .def or .litmus file", path)
}

// readTest parses a test, expanding the macros of --macros in C tests.
func (o *options) readTest(path string) (*litmus.Test, error) {
	if err := o.loadMacros(); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	opts := litmus.Options{Variants: o.variants}
	if o.macroFile != nil {
		opts.Macros = o.macroFile
	}
	t, err := litmus.ParseWith(path, src, opts)
	if err != nil {
		// A test written for one of herd7's semantics purr does not model
		// (Variant=vmsa, ...) rarely parses: say why rather than where.
		if sp, splitErr := litmus.SplitTest(path, src, func(string) bool { return true }); splitErr == nil {
			if _, refused := testVariants(&litmus.Test{Info: sp.Info}, nil); refused != nil {
				return nil, refused
			}
		}
	}
	return t, err
}

// loadMacros reads the macro file of --macros, once.
func (o *options) loadMacros() error {
	if o.macros == "" || o.macroFile != nil {
		return nil
	}
	path := findOnPath(o.macros, o.includes) // as herd7: as given, else on the include path
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("-macros: %v", err)
	}
	o.macroFile, err = c.ParseMacros(path, src)
	return err
}

// cmdXCFA prints tests' control-flow automata as Graphviz DOT.
func cmdXCFA(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet("purr xcfa", stderr, &o)
	files, err := parseFlags(fs, args)
	if err == nil {
		err = onlyFlags(fs, "macros", "variant")
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr xcfa:", err)
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "purr xcfa: no test (usage: purr xcfa TEST.litmus...)")
		return 2
	}
	status := 0
	for _, f := range files {
		var readErr, writeErr error
		if !protect(f, stderr, func() {
			var t *litmus.Test
			if t, readErr = o.readTest(f); readErr == nil {
				writeErr = xcfa.WriteDOT(stdout, t.Program)
			}
		}) {
			status = exitInternal
			continue
		}
		if readErr != nil {
			printErr(stderr, readErr)
			status = max(status, 1)
			continue
		}
		if writeErr != nil {
			fmt.Fprintln(stderr, writeErr)
			return max(status, 1)
		}
	}
	return status
}

// expandIndexes replaces each @INDEX argument by the tests it lists, one
// path a line relative to the index file; blank lines and # comments are
// skipped.
func expandIndexes(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "@") {
			out = append(out, a)
			continue
		}
		index := a[1:]
		f, err := os.Open(index)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(filepath.Dir(index), line)
			}
			out = append(out, line)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", index, err)
		}
	}
	return out, nil
}
