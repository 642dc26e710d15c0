package parser

import (
	"strings"

	"github.com/purr-mcm/purr/source"
)

// blankComments removes every block comment (* ... *) of src without moving
// the code around it: a comment becomes its newlines, plus one space per
// character on its last line, so that the code after it keeps its line and
// column. Comments nest; a (* inside a string or after // or # does not open
// one, as in herd7's lexer. An unterminated comment is removed to the end
// and reported at its (*.
func blankComments(file, src string) (string, *source.Error) {
	if !strings.Contains(src, "(*") {
		return src, nil
	}
	var out strings.Builder
	out.Grow(len(src))
	line, col := 1, 1
	depth := 0
	pending := 0 // characters of the comment since its last newline
	var open source.Pos
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '(' && i+1 < len(src) && src[i+1] == '*':
			if depth == 0 {
				open = source.Pos{File: file, Line: line, Col: col}
				pending = 0
			}
			depth++
			pending += 2
			i, col = i+2, col+2
			continue
		case depth > 0 && c == '*' && i+1 < len(src) && src[i+1] == ')':
			depth--
			pending += 2
			i, col = i+2, col+2
			if depth == 0 {
				out.WriteString(strings.Repeat(" ", pending))
			}
			continue
		case depth > 0:
			if c == '\n' {
				out.WriteByte('\n')
				line, col, pending = line+1, 1, 0
			} else if c < 0x80 || c >= 0xC0 { // count runes, not bytes
				pending++
				col++
			}
			i++
			continue
		case c == '"':
			// A string: copy it whole, its content is not code.
			j := strings.IndexByte(src[i+1:], '"')
			end := len(src)
			if j >= 0 {
				end = i + j + 2
			}
			line, col = copyText(&out, src[i:end], line, col)
			i = end
			continue
		case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			line, col = copyText(&out, src[i:i+end], line, col)
			i += end
			continue
		}
		out.WriteByte(c)
		if c == '\n' {
			line, col = line+1, 1
		} else if c < 0x80 || c >= 0xC0 {
			col++
		}
		i++
	}
	if depth > 0 {
		return out.String(), &source.Error{Pos: open, Msg: "unterminated comment: '(*' without '*)'"}
	}
	return out.String(), nil
}

// copyText appends s and advances the position past it.
func copyText(out *strings.Builder, s string, line, col int) (int, int) {
	out.WriteString(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			line, col = line+1, 1
		case c < 0x80 || c >= 0xC0:
			col++
		}
	}
	return line, col
}
