package source

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a place in a source file. Line and Col count from 1; Col counts
// characters (runes). The zero Pos means "no position".
type Pos struct {
	File      string
	Line, Col int
}

// Position returns p itself, so that every node embedding a Pos has one.
func (p Pos) Position() Pos { return p }

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before orders positions by file, then line, then column.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Error is one problem found at a position.
type Error struct {
	Pos Pos
	Msg string
}

// Errorf builds an Error at pos.
func Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is several errors; as an error it prints one a line.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, Errorf(pos, format, args...))
}

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the list by position, keeping the order of equal positions.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Before(l[j].Pos) })
}

// Unique drops the repeats of an error (same position, same message),
// keeping the first of each, in place: a Cat file included at two places is
// checked at both.
func (l ErrorList) Unique() ErrorList {
	seen := map[Error]bool{}
	out := l[:0]
	for _, e := range l {
		if !seen[*e] {
			seen[*e] = true
			out = append(out, e)
		}
	}
	return out
}

// Err returns nil for an empty list, the error itself for one, and the
// list otherwise.
func (l ErrorList) Err() error {
	switch len(l) {
	case 0:
		return nil
	case 1:
		return l[0]
	}
	return l
}
