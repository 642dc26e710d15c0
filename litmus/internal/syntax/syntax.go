// Package syntax holds what every litmus grammar's driver shares: the
// positioned error type and an ANTLR error listener that collects errors
// instead of printing them.
package syntax

import (
	"fmt"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/xcfa"
)

// Error is a message at a position of a litmus file.
type Error struct {
	Pos xcfa.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errorf builds an Error.
func Errorf(pos xcfa.Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// List is several errors, reported one a line.
type List []*Error

func (l List) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Err returns nil for an empty list, the error itself for one, else the list.
func (l List) Err() error {
	switch len(l) {
	case 0:
		return nil
	case 1:
		return l[0]
	}
	return l
}

// maxErrors bounds what a listener keeps: beyond a few, errors are noise.
const maxErrors = 10

// Listener collects syntax errors of an ANTLR lexer or parser.
type Listener struct {
	*antlr.DefaultErrorListener
	File string
	Errs List
}

// NewListener returns a listener reporting positions in file.
func NewListener(file string) *Listener {
	return &Listener{DefaultErrorListener: antlr.NewDefaultErrorListener(), File: file}
}

// SyntaxError records one error; ANTLR columns count from 0.
func (l *Listener) SyntaxError(_ antlr.Recognizer, _ any, line, column int, msg string, _ antlr.RecognitionException) {
	if len(l.Errs) < maxErrors {
		// ANTLR's lexer quotes the text it cannot read as is, line
		// breaks included: one error must stay one line.
		msg = controlEscaper.Replace(msg)
		l.Errs = append(l.Errs, &Error{Pos: xcfa.Pos{File: l.File, Line: line, Col: column + 1}, Msg: msg})
	}
}

var controlEscaper = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`)

// Attach replaces the console listeners of a lexer and a parser by l.
func (l *Listener) Attach(lexer antlr.Recognizer, parser antlr.Recognizer) {
	lexer.RemoveErrorListeners()
	lexer.AddErrorListener(l)
	parser.RemoveErrorListeners()
	parser.AddErrorListener(l)
}

// TokenPos is the position of a token.
func TokenPos(file string, t antlr.Token) xcfa.Pos {
	return xcfa.Pos{File: file, Line: t.GetLine(), Col: t.GetColumn() + 1}
}

// CtxPos is the position where a parse-tree node starts.
func CtxPos(file string, c antlr.ParserRuleContext) xcfa.Pos {
	return TokenPos(file, c.GetStart())
}
