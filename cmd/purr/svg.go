package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
	"github.com/purr-mcm/purr/picture"
)

// writeSVG draws a test's executions into DIR/NAME.svg, for -o DIR --svg,
// with the relations and sets named (nil: po, rf, co and fr), under
// herd7's picture options herd.
func writeSVG(dir, name string, xs []outcome.Execution, names []string, herd show.Picture) error {
	opt := picture.Options{Herd: herd}
	if names != nil {
		opt.Relations = []string{}
	}
	for _, n := range names {
		if isSet(xs, n) {
			opt.Sets = append(opt.Sets, n)
		} else {
			opt.Relations = append(opt.Relations, n)
		}
	}
	path := filepath.Join(dir, strings.NewReplacer("/", "_", string(filepath.Separator), "_").Replace(name)+".svg")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := picture.Document(f, xs, opt); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// isSet tells whether the executions name a set n rather than a relation.
func isSet(xs []outcome.Execution, n string) bool {
	for _, x := range xs {
		if _, ok := x.Sets[n]; ok {
			return true
		}
	}
	return false
}
