package asm

import (
	"slices"
	"strings"
	"testing"
)

// TestHashCode checks herd7's renaming of labels for the hash: every
// label defined or named, sorted, becomes L00, L01, ...; a thread without
// code prints as no line.
func TestHashCode(t *testing.T) {
	type ins struct{ text, target string }
	tab := &Table[ins]{
		Procs: []Proc{{Name: "P0"}, {Name: "P1"}, {Name: "P2"}},
		Rows: [][]Cell[ins]{
			{{Instr: &ins{"B", "zed"}}, {Labels: []Label{{Name: "loop"}}, Instr: &ins{"NOP", ""}}},
			{{Labels: []Label{{Name: "zed"}}}, {Instr: &ins{"B", "alpha"}}},
		},
	}
	target := func(in *ins) (string, bool) { return in.target, in.target != "" }
	print := func(in *ins, rename map[string]string) string {
		if in.target != "" {
			return in.text + " " + rename[in.target]
		}
		return in.text
	}
	got := HashCode(tab, target, print)
	want := [][]string{{"B L02", "L02:"}, {"L01:", "NOP", "B L00"}, {}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, lines := range got {
		if lines == nil {
			t.Errorf("a thread without code is nil, want an empty list: %s", strings.Join(lines, ";"))
		}
	}
}
