package litmus

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// Section is a byte range of a litmus file. Parsers of a section lex
// Padded(), the whole file with everything outside the section blanked, or
// read the section in place as if they did (internal/syntax.Feed), so that
// the positions they report are positions in the original file.
type Section struct {
	File       string
	Src        []byte // the whole file
	Start, End int    // byte offsets of the section
}

// Text is the section's own text.
func (s Section) Text() string { return string(s.Src[s.Start:s.End]) }

// Padded returns the file with every character outside the section
// replaced by a space (newlines kept), so that line and column numbers of
// the section's text are those of the file.
func (s Section) Padded() string {
	return syntax.Padded(s.Src, s.Start, s.End)
}

// Pos returns the position of a byte offset of the file.
func (s Section) Pos(offset int) source.Pos { return posOf(s.File, s.Src, offset) }

// StartPos is the position where the section begins.
func (s Section) StartPos() source.Pos { return s.Pos(s.Start) }

// posOf computes the line and column (in characters, from 1) of an offset.
func posOf(file string, src []byte, offset int) source.Pos {
	if offset > len(src) {
		offset = len(src)
	}
	line, lineStart := 1, 0
	for i := 0; i < offset; i++ {
		if src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return source.Pos{File: file, Line: line, Col: utf8.RuneCount(src[lineStart:offset]) + 1}
}

// Split is a litmus file cut into its parts, the way herd's splitter cuts
// it: the header line (architecture, name, optional quoted doc string),
// key=value lines, the initial state between braces, the program, and the
// final part (locations, filter, condition) up to the end or to "<<".
type Split struct {
	Arch, Name, Doc string
	ArchPos         source.Pos
	Info            []KeyValue
	Init            Section // between the braces
	Prog            Section
	Cond            Section // empty when the test has no final part
	HasCond         bool
}

// SplitTest cuts src into sections. skipComments says whether "(*" opens a
// comment inside the program (not in C, where "(*p)" is code).
func SplitTest(file string, src []byte, skipComments func(arch string) bool) (*Split, error) {
	sc := &scanner{file: file, src: src}
	sp := &Split{}
	// Header: blanks, ARCH, blanks, NAME.
	sc.skipBlanks()
	archStart := sc.i
	for sc.i < len(src) && isWordByte(src[sc.i]) {
		sc.i++
	}
	if sc.i == archStart {
		return nil, sc.errorf(sc.i, "expected a header line \"ARCH NAME\" (for example \"AArch64 MP\")")
	}
	sp.Arch = string(src[archStart:sc.i])
	sp.ArchPos = sc.pos(archStart)
	if sc.skipBlanks() == 0 {
		return nil, sc.errorf(sc.i, "expected the test name after the architecture %q", sp.Arch)
	}
	nameStart := sc.i
	for sc.i < len(src) && isTestNameByte(src[sc.i]) {
		sc.i++
	}
	if sc.i == nameStart {
		return nil, sc.errorf(sc.i, "expected the test name after the architecture %q", sp.Arch)
	}
	sp.Name = string(src[nameStart:sc.i])
	if sp.Name == "--" {
		sp.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	} else {
		// herd drops a .litmus suffix from the name (its Misc.clean_name):
		// its output, names and nonames know the test without it.
		sp.Name = strings.TrimSuffix(sp.Name, ".litmus")
	}
	sc.skipBlanks()
	// An optional (texname), ignored.
	if sc.peek('(') && !sc.peekString("(*") {
		j := sc.i + 1
		for j < len(src) && src[j] != ')' && src[j] != '\n' {
			j++
		}
		if j < len(src) && src[j] == ')' {
			sc.i = j + 1
			sc.skipBlanks()
		}
	}
	// An optional doc string, on this line or the next.
	{
		j := sc.i
		if j < len(src) && src[j] == '\n' {
			j++
		}
		for j < len(src) && isBlank(src[j]) {
			j++
		}
		if j < len(src) && src[j] == '"' {
			k := j + 1
			for k < len(src) && src[k] != '"' {
				k++
			}
			if k < len(src) {
				sp.Doc = string(src[j+1 : k])
				sc.i = k + 1
				sc.skipBlanks()
			}
		}
	}
	if sc.peek(';') {
		sc.i++
	}
	// Up to the opening brace: key=value lines, comments, anything else.
	atLineStart := false
	for {
		if sc.i >= len(src) {
			return nil, sc.errorf(sc.i, "expected the initial state \"{ ... }\"")
		}
		c := src[sc.i]
		switch {
		case c == '\n':
			sc.i++
			atLineStart = true
			continue
		case sc.peekString("(*"):
			if err := sc.skipComment(); err != nil {
				return nil, err
			}
		case c == '{':
			sc.i++
			goto init
		case atLineStart && isAlpha(c):
			if kv, ok := sc.keyValue(); ok {
				sp.Info = append(sp.Info, kv)
				atLineStart = true
				continue
			}
			sc.i++
		default:
			sc.i++
		}
		atLineStart = false
	}
init:
	initStart := sc.i
	// Array initialisers ({1,2}) nest braces inside the initial state.
	for depth := 0; sc.i < len(src) && (src[sc.i] != '}' || depth > 0); sc.i++ {
		switch src[sc.i] {
		case '{':
			depth++
		case '}':
			depth--
		}
	}
	if sc.i >= len(src) {
		return nil, sc.errorf(initStart-1, "the initial state opened here has no closing \"}\"")
	}
	sp.Init = Section{File: file, Src: src, Start: initStart, End: sc.i}
	sc.i++
	progStart := sc.i
	skip := skipComments == nil || skipComments(sp.Arch)
	condStart := -1
	for sc.i < len(src) && condStart < 0 {
		c := src[sc.i]
		switch {
		case skip && sc.peekString("(*"):
			if err := sc.skipComment(); err != nil {
				return nil, err
			}
		case c == '"':
			k := sc.i + 1
			for k < len(src) && src[k] != '"' {
				k++
			}
			sc.i = k + 1
		case c == '~':
			j := sc.i + 1
			for j < len(src) && isBlank(src[j]) {
				j++
			}
			if strings.HasPrefix(string(src[j:min(j+6, len(src))]), "exists") && (j+6 >= len(src) || !isNameByte(src[j+6])) {
				condStart = sc.i
			} else {
				sc.i++
			}
		case isAlpha(c):
			j := sc.i
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			switch string(src[sc.i:j]) {
			case "final", "forall", "exists", "cases", "observed", "Observed", "locations", "filter":
				condStart = sc.i
			default:
				sc.i = j
			}
		default:
			sc.i++
		}
	}
	if sc.i > len(src) {
		sc.i = len(src)
	}
	if condStart < 0 {
		sp.Prog = Section{File: file, Src: src, Start: progStart, End: len(src)}
		sp.Cond = Section{File: file, Src: src, Start: len(src), End: len(src)}
		return sp, nil
	}
	sp.Prog = Section{File: file, Src: src, Start: progStart, End: condStart}
	sp.HasCond = true
	// The final part runs to the end, or to "<<" (herd's scope section).
	for sc.i < len(src) && !sc.peekString("<<") {
		if sc.peekString("(*") {
			if err := sc.skipComment(); err != nil {
				return nil, err
			}
			continue
		}
		sc.i++
	}
	sp.Cond = Section{File: file, Src: src, Start: condStart, End: min(sc.i, len(src))}
	return sp, nil
}

type scanner struct {
	file string
	src  []byte
	i    int
}

func (s *scanner) pos(off int) source.Pos { return posOf(s.file, s.src, off) }

func (s *scanner) errorf(off int, format string, args ...any) error {
	return source.Errorf(s.pos(off), format, args...)
}

func (s *scanner) peek(c byte) bool { return s.i < len(s.src) && s.src[s.i] == c }

func (s *scanner) peekString(p string) bool {
	return strings.HasPrefix(string(s.src[s.i:min(s.i+len(p), len(s.src))]), p)
}

func (s *scanner) skipBlanks() int {
	n := 0
	for s.i < len(s.src) && isBlank(s.src[s.i]) {
		s.i++
		n++
	}
	return n
}

// skipComment skips a (possibly nested) OCaml-style comment at s.i.
func (s *scanner) skipComment() error {
	start := s.i
	depth := 0
	for s.i < len(s.src) {
		switch {
		case s.peekString("(*"):
			depth++
			s.i += 2
		case s.peekString("*)"):
			depth--
			s.i += 2
			if depth == 0 {
				return nil
			}
		default:
			s.i++
		}
	}
	return s.errorf(start, "unterminated comment")
}

// keyValue reads "key = value\n" at s.i, if the line has that shape.
func (s *scanner) keyValue() (KeyValue, bool) {
	j := s.i
	for j < len(s.src) && isNameByte(s.src[j]) {
		j++
	}
	key := string(s.src[s.i:j])
	for j < len(s.src) && isBlank(s.src[j]) {
		j++
	}
	if j >= len(s.src) || s.src[j] != '=' {
		return KeyValue{}, false
	}
	j++
	for j < len(s.src) && isBlank(s.src[j]) {
		j++
	}
	k := j
	for k < len(s.src) && s.src[k] != '\n' {
		k++
	}
	if k >= len(s.src) {
		return KeyValue{}, false
	}
	kv := KeyValue{Key: key, Value: strings.TrimRight(string(s.src[j:k]), " \t\r"), Pos: s.pos(s.i)}
	s.i = k + 1
	return kv, true
}

func isBlank(c byte) bool    { return c == ' ' || c == '\t' || c == '\r' }
func isAlpha(c byte) bool    { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isWordByte(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }
func isNameByte(c byte) bool {
	return isWordByte(c) || c == '/' || c == '.' || c == '-'
}
func isTestNameByte(c byte) bool {
	return isNameByte(c) || c == '+' || c == '[' || c == ']'
}
