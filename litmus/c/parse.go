package c

import (
	"fmt"
	"slices"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
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
	text := withoutRegions(prog.Padded())
	tree, err := parseProgram(prog.File, text)
	if err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tree, []rune(text))
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

// parseProgram runs the ANTLR parser and collects its errors.
// newParser is a parser of text whose syntax errors, positioned in file,
// collect in the listener it returns; it stops at the first.
func newParser(file, text string) (*cparser.CParser, *errorListener) {
	lexer := cparser.NewCLexer(antlr.NewInputStream(text))
	parser := cparser.NewCParser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
	l := &errorListener{DefaultErrorListener: antlr.NewDefaultErrorListener(), file: file}
	lexer.RemoveErrorListeners()
	lexer.AddErrorListener(l)
	parser.RemoveErrorListeners()
	parser.AddErrorListener(l)
	parser.SetErrorHandler(&stopAtFirstError{antlr.NewDefaultErrorStrategy()})
	return parser, l
}

func parseProgram(file, text string) (cparser.IProgramContext, error) {
	parser, l := newParser(file, text)
	tree := parser.Program()
	if len(l.errs) > 0 {
		return nil, l.errs.Err()
	}
	return tree, nil
}

// stopAtFirstError reports the first syntax error (with ANTLR's usual
// single-token repairs) and then skips the rest of the input: resynchronising
// at every level of a deeply nested input costs quadratic time, and the
// errors after the first are rarely worth reading.
type stopAtFirstError struct{ *antlr.DefaultErrorStrategy }

func (s *stopAtFirstError) Recover(p antlr.Parser, _ antlr.RecognitionException) {
	for p.GetTokenStream().LA(1) != antlr.TokenEOF {
		p.Consume()
	}
}

func (s *stopAtFirstError) Sync(antlr.Parser) {}

// RecoverInline repairs the first error only: computing the expected tokens
// again at every level of the unwinding is what costs quadratic time.
func (s *stopAtFirstError) RecoverInline(p antlr.Parser) antlr.Token {
	if s.InErrorRecoveryMode(p) {
		p.SetError(antlr.NewInputMisMatchException(p))
		return nil
	}
	return s.DefaultErrorStrategy.RecoverInline(p)
}

// maxSyntaxErrors bounds what the listener keeps: after a few, errors are
// consequences of the first.
const maxSyntaxErrors = 5

// unsupportedKeywords are C statements herd7's C dialect does not have.
var unsupportedKeywords = map[int]string{
	cparser.CLexerFOR:    "for statement",
	cparser.CLexerDO:     "do statement",
	cparser.CLexerSWITCH: "switch statement",
	cparser.CLexerRETURN: "return statement",
	cparser.CLexerGOTO:   "goto statement",
	cparser.CLexerLBRK:   "array subscript",
	cparser.CLexerDOT:    "structure member",
	cparser.CLexerARROW:  "structure member",
}

type errorListener struct {
	*antlr.DefaultErrorListener
	file string
	errs litmus.ErrorList
}

func (l *errorListener) SyntaxError(_ antlr.Recognizer, offending any, line, column int, msg string, _ antlr.RecognitionException) {
	if len(l.errs) >= maxSyntaxErrors {
		return
	}
	pos := xcfa.Pos{File: l.file, Line: line, Col: column + 1}
	if tok, ok := offending.(antlr.Token); ok && tok != nil {
		if what, ok := unsupportedKeywords[tok.GetTokenType()]; ok {
			msg = "unsupported " + what
		} else if tok.GetTokenType() == antlr.TokenEOF {
			msg = "unexpected end of the program: " + msg
		} else {
			msg = fmt.Sprintf("syntax error at %q: %s", tok.GetText(), msg)
		}
	} else if strings.HasPrefix(msg, "token recognition error at: ") {
		msg = "unexpected character " + strings.TrimPrefix(msg, "token recognition error at: ")
	}
	// After an unsupported construct the rest is noise.
	if len(l.errs) > 0 && strings.HasPrefix(l.errs[len(l.errs)-1].Msg, "unsupported ") {
		return
	}
	l.errs = append(l.errs, litmus.Errorf(pos, "%s", msg))
}

func tokPos(file string, t antlr.Token) xcfa.Pos {
	return xcfa.Pos{File: file, Line: t.GetLine(), Col: t.GetColumn() + 1}
}

func ctxPos(file string, c antlr.ParserRuleContext) xcfa.Pos {
	return tokPos(file, c.GetStart())
}
