package mutants

import (
	"bytes"
	"regexp"
)

// OpSize is the number of bytes one mutation reads from its recipe.
const OpSize = 3

// MaxOps bounds the mutations Mutate applies, so that a mutant stays
// close enough to its test to get past the parser now and then.
const MaxOps = 4

// Tokens are what insertions put into a test: the punctuation, names and
// keywords of the litmus grammars.
var Tokens = []string{";", "|", "=", ",", ":", "[", "]", "(", ")", "{", "}", "*", "-", "#",
	"1", "0", "-1", "x", "y", "0:X1", "1:X3", "X11x", "0:r255", "P1", "P0", "exists", "~exists",
	"forall", "/\\", "\\/", "not", "MOV", "LDR", "STR", "W0", "[X1]", "EAX", "$1", "r1", "int", "&x"}

// Constants are what a changed constant becomes.
var Constants = []string{"0", "1", "2", "-1", "3", "255", "65536", "0x10", "4294967296", "9223372036854775807"}

var number = regexp.MustCompile(`-?\b[0-9]+\b`)

// Mutate applies the mutations recipe describes to src, OpSize bytes a
// mutation (at most MaxOps of them; a short tail is ignored): byte 0
// chooses the kind, bytes 1 and 2 where and what. It never fails: every
// recipe gives some text.
func Mutate(src, recipe []byte) []byte {
	out := bytes.Clone(src)
	for i := 0; i+OpSize <= len(recipe) && i/OpSize < MaxOps; i += OpSize {
		out = mutateOnce(out, recipe[i], int(recipe[i+1]), int(recipe[i+2]))
	}
	return out
}

func mutateOnce(src []byte, kind byte, a, b int) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	n := len(lines)
	pick := func(k int) int { return k % n }
	switch kind % 6 {
	case 0: // delete a line
		i := pick(a)
		lines = append(lines[:i], lines[i+1:]...)
	case 1: // duplicate a line
		i := pick(a)
		lines = append(lines[:i+1], lines[i:]...)
	case 2: // cut a line short
		i := pick(a)
		if l := lines[i]; len(l) > 0 {
			lines[i] = append(bytes.Clone(l[:b%len(l)]), '\n')
		}
	case 3: // insert a token
		if len(src) == 0 {
			return []byte(Tokens[b%len(Tokens)])
		}
		at := (a*256 + b) % len(src)
		tok := " " + Tokens[(a+b)%len(Tokens)] + " "
		return append(append(bytes.Clone(src[:at]), tok...), src[at:]...)
	case 4: // change a constant
		found := number.FindAllIndex(src, -1)
		if len(found) == 0 {
			return src
		}
		m := found[a%len(found)]
		c := Constants[b%len(Constants)]
		if c == string(src[m[0]:m[1]]) { // a change, not the same constant
			c = Constants[(b+1)%len(Constants)]
		}
		return append(append(bytes.Clone(src[:m[0]]), c...), src[m[1]:]...)
	case 5: // swap two lines
		i, j := pick(a), pick(b)
		lines[i], lines[j] = lines[j], lines[i]
	}
	return bytes.Join(lines, nil)
}
