package cat

import (
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/cat/internal/parser"
)

// Parse parses one Cat file (includes are not followed). On error it returns
// the first syntax error, or the errors found while building the syntax
// tree (a source.ErrorList when there are several), in the order of their
// positions.
func Parse(filename string, src []byte) (*ast.File, error) {
	f, errs := parser.Parse(filename, src)
	if errs != nil {
		errs.Sort()
		return nil, errs.Err()
	}
	return f, nil
}
