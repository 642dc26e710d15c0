package events

import (
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// SourcePos is p as package source has it, for the engines' positioned
// errors (source.Errorf).
func SourcePos(p xcfa.Pos) source.Pos { return source.Pos{File: p.File, Line: p.Line, Col: p.Col} }
