package litmus

import (
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/xcfa"
)

// Error is a problem at a position of a litmus file; Error() prints
// "file:line:col: message".
type Error = syntax.Error

// ErrorList is several errors, one a line.
type ErrorList = syntax.List

// Errorf builds an Error at pos.
func Errorf(pos xcfa.Pos, format string, args ...any) *Error {
	return syntax.Errorf(pos, format, args...)
}
