package c

import (
	"fmt"
	"slices"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "C", Translate: Translate, Model: "rc11", Layout: litmus.Functions})
}

// Translate parses the program part of a C litmus test and builds its XCFA.
// It is the dialect registered with package litmus for "C".
func Translate(t *litmus.Test, prog litmus.Section, opts litmus.Options) (*xcfa.Program, error) {
	var macros *Macros
	if opts.Macros != nil {
		m, ok := opts.Macros.(*Macros)
		if !ok {
			return nil, fmt.Errorf("%s: not a C macro file", opts.Macros.Path())
		}
		macros = m
	}
	tree, err := parseProgram(prog.File, withoutRegions(prog.Padded()))
	if err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tree)
	p, err := translateProgram(prog.File, tree, macros, slices.Contains(opts.Variants, "lkmmv2"))
	if err != nil {
		return nil, err
	}
	p.Name, p.Arch = t.Name, t.Arch
	return p, nil
}

// TranslateSource parses src as the program part alone (thread functions,
// no header, initial state or condition) and builds its XCFA. Positions are
// those of src.
func TranslateSource(file string, src []byte, macros *Macros) (*xcfa.Program, error) {
	tree, err := parseProgram(file, string(src))
	if err != nil {
		return nil, err
	}
	return translateProgram(file, tree, macros, false)
}

func parseProgram(file, text string) (*cast.Program, error) {
	tree, err := cparser.Parse(file, text)
	return tree, litmusError(err)
}

// litmusError is a syntax error of package cparser as package litmus reports
// errors.
func litmusError(err error) error {
	switch err := err.(type) {
	case *source.Error:
		return errorf(err.Pos, "%s", err.Msg)
	case source.ErrorList:
		l := make(litmus.ErrorList, len(err))
		for i, e := range err {
			l[i] = errorf(e.Pos, "%s", e.Msg)
		}
		return l
	}
	return err
}

// errorf is an error at pos.
func errorf(pos source.Pos, format string, args ...any) *litmus.Error {
	return litmus.Errorf(xcfaPos(pos), format, args...)
}

// xcfaPos is pos as the XCFA's edges and package litmus take it.
func xcfaPos(pos source.Pos) xcfa.Pos {
	return xcfa.Pos{File: pos.File, Line: pos.Line, Col: pos.Col}
}
