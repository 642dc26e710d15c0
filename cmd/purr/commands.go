package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

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
	files, err := parseFlags(fs, &o, args)
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
	k := herd.NewChecker(o.cfg)
	status := 0
	for _, f := range files {
		var err error
		if !protect(f, stderr, func() { err = checkFile(k, f) }) {
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

// checkFile parses and resolves one file: a model, a test or a macro file.
func checkFile(k *herd.Checker, path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cat", ".bell":
		l, err := k.Config().Loader()
		if err != nil {
			return err
		}
		_, err = l.LoadFile(path)
		return err
	case ".litmus":
		_, err := k.Read(path)
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

// cmdXCFA prints tests' control-flow automata as Graphviz DOT.
func cmdXCFA(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet("purr xcfa", stderr, &o)
	files, err := parseFlags(fs, &o, args)
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
	k := herd.NewChecker(o.cfg)
	status := 0
	for _, f := range files {
		var readErr, writeErr error
		if !protect(f, stderr, func() {
			var t *litmus.Test
			if t, readErr = k.Read(f); readErr == nil {
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
