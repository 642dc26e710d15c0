package main

import (
	"os"
	"path/filepath"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/picture"
)

// writeSVG draws a test's executions into DIR/NAME.svg, for -o DIR --svg.
func writeSVG(dir, name string, xs []outcome.Execution) error {
	f, err := os.Create(filepath.Join(dir, name+".svg"))
	if err != nil {
		return err
	}
	if err := picture.Document(f, xs, picture.Options{}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
