// Package syntax holds what every litmus grammar's driver shares: feeding
// a section of a test to an ANTLR lexer in place and parsing it (Parse),
// an error listener that collects positioned errors instead of printing
// them, and the positions of tokens.
package syntax

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/source"
)

// maxErrors bounds what a listener keeps: beyond a few, errors are noise.
const maxErrors = 10

// Listener collects syntax errors of an ANTLR lexer or parser.
type Listener struct {
	*antlr.DefaultErrorListener
	File string
	Errs source.ErrorList
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
		l.Errs.Add(source.Pos{File: l.File, Line: line, Col: column + 1}, "%s", msg)
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
func TokenPos(file string, t antlr.Token) source.Pos {
	return source.Pos{File: file, Line: t.GetLine(), Col: t.GetColumn() + 1}
}

// CtxPos is the position where a parse-tree node starts.
func CtxPos(file string, c antlr.ParserRuleContext) source.Pos {
	return TokenPos(file, c.GetStart())
}
