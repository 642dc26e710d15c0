package syntax

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/antlr4-go/antlr/v4"
)

// Feed gives the section src[start:end] of a file to a lexer as if it
// lexed Padded(src, start, end): tokens, their lines and columns, and the
// end of the input, are those of the whole file. A file of ASCII
// characters, as litmus tests are, is read in place, without the blanks
// around the section: the lexer starts at the section's line and column,
// and the blanks after it, which only place the end of the input, shrink
// to its lines and last columns. Lexing the padded text itself cost most
// of the time of parsing a test.
func Feed(l *antlr.BaseLexer, src []byte, start, end int) {
	for _, c := range src {
		if c >= 0x80 {
			l.SetInputStream(antlr.NewInputStream(Padded(src, start, end)))
			return
		}
	}
	before, after := src[:start], src[end:]
	st := &sectionStream{text: src[start:end], newlines: bytes.Count(after, []byte{'\n'})}
	st.spaces = len(after) - (bytes.LastIndexByte(after, '\n') + 1)
	l.SetInputStream(st)
	sim := l.Interpreter.(*antlr.LexerATNSimulator)
	sim.Line = 1 + bytes.Count(before, []byte{'\n'})
	sim.CharPositionInLine = len(before) - (bytes.LastIndexByte(before, '\n') + 1)
}

// Padded returns src with every character outside src[start:end]
// replaced by a space (newlines kept), so that line and column numbers of
// the section's text are those of the file.
func Padded(src []byte, start, end int) string {
	var b strings.Builder
	b.Grow(len(src))
	blank := func(from, to int) {
		for i := from; i < to; {
			r, n := utf8.DecodeRune(src[i:])
			if r == '\n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
			i += n
		}
	}
	blank(0, start)
	b.Write(src[start:end])
	blank(end, len(src))
	return b.String()
}

// sectionStream is antlr.InputStream over a section's text followed by
// newlines, then spaces: the characters are bytes.
type sectionStream struct {
	text             []byte
	newlines, spaces int
	index            int
}

func (p *sectionStream) at(i int) byte {
	switch {
	case i < len(p.text):
		return p.text[i]
	case i < len(p.text)+p.newlines:
		return '\n'
	}
	return ' '
}

func (p *sectionStream) Consume() {
	if p.index >= p.Size() {
		panic("cannot consume EOF")
	}
	p.index++
}

func (p *sectionStream) LA(offset int) int {
	if offset == 0 {
		return 0
	}
	if offset < 0 {
		offset++ // LA(-1) is the character before the index
	}
	pos := p.index + offset - 1
	if pos < 0 || pos >= p.Size() {
		return antlr.TokenEOF
	}
	return int(p.at(pos))
}

func (p *sectionStream) Mark() int   { return -1 }
func (p *sectionStream) Release(int) {}
func (p *sectionStream) Index() int  { return p.index }
func (p *sectionStream) Size() int   { return len(p.text) + p.newlines + p.spaces }

func (p *sectionStream) Seek(index int) {
	if index <= p.index {
		p.index = index
		return
	}
	p.index = min(index, p.Size())
}

func (p *sectionStream) GetSourceName() string { return "Obtained from string" }

func (p *sectionStream) GetText(start, stop int) string {
	stop = min(stop, p.Size()-1)
	if start >= p.Size() || stop < start {
		return ""
	}
	if stop < len(p.text) {
		return string(p.text[start : stop+1])
	}
	var b strings.Builder
	for i := start; i <= stop; i++ {
		b.WriteByte(p.at(i))
	}
	return b.String()
}

func (p *sectionStream) GetTextFromTokens(start, stop antlr.Token) string {
	if start != nil && stop != nil {
		return p.GetTextFromInterval(antlr.NewInterval(start.GetTokenIndex(), stop.GetTokenIndex()))
	}
	return ""
}

func (p *sectionStream) GetTextFromInterval(i antlr.Interval) string {
	return p.GetText(i.Start, i.Stop)
}

// Parse reads the section src[start:end] of file with a grammar's
// generated lexer (lexer, and base, the ANTLR lexer it embeds) and the
// parser newParser makes over its tokens, from the start rule rule. It
// returns the parse tree, or the syntax errors, positioned in the file.
func Parse[P antlr.Recognizer, T any](file string, src []byte, start, end int, lexer antlr.Lexer, base *antlr.BaseLexer,
	newParser func(antlr.TokenStream) P, rule func(P) T) (T, error) {
	l := NewListener(file)
	Feed(base, src, start, end)
	p := newParser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
	l.Attach(lexer, p)
	tree := rule(p)
	if len(l.Errs) > 0 {
		var none T
		return none, l.Errs.Err()
	}
	return tree, nil
}
