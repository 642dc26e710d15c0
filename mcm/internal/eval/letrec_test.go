package eval

import (
	"slices"
	"testing"

	"github.com/purr-mcm/purr/cat"
)

// TestMonotoneRecs: a let rec is a prefixpoint only when every use of its
// value, through the names derived from it, grows with it under a
// required check that a larger relation can only fail.
func TestMonotoneRecs(t *testing.T) {
	lib := "let WW(r) = r & (W * W)\nlet drop(r) = po \\ r\n"
	tests := []struct {
		name, src string
		want      []string // the let recs (first names) encoded as prefixpoints
	}{
		{"acyclic", "let rec S = po | S;S\nacyclic S", []string{"S"}},
		{"when", "let rec S = po | S;S and T = S & loc when acyclic S as sc", []string{"S"}},
		{"derived", "let rec S = po | S;S\nlet c = WW(S) & ext\nempty rmw & c\nirreflexive domain(c) * range(c)", []string{"S"}},
		{"shown", "let rec S = po | S;S\nshow S\nacyclic S", []string{"S"}},
		{"flag", "let rec S = po | S;S\nflag ~empty S as f", nil},
		{"flagged derived", "let rec S = po | S;S\nlet c = S & loc\nflag ~empty c as f\nacyclic S", nil},
		{"negated", "let rec S = po | S;S\n~acyclic S", nil},
		{"complemented", "let rec S = po | S;S\nacyclic ~S", nil},
		{"subtracted", "let rec S = po | S;S\nacyclic po \\ S", nil},
		{"antitone function", "let rec S = po | S;S\nacyclic drop(S)", nil},
		{"non-monotone body", "let rec S = po \\ S\nacyclic S", nil},
		{"unknown function", "let rec S = po | S;S\nacyclic fencerel(S)", nil},
		{"in a function", "let rec S = po | S;S\nlet f(x) = x | S\nacyclic f(po)", nil},
		{"in a variant", "let rec S = po | S;S\nif \"v\" then acyclic S end", nil},
		{"rebound", "let rec S = po | S;S\nlet S = po\nflag ~empty S as f\nacyclic po", []string{"S"}},
		{"after a choice", "with x from {po, rf}\nlet rec S = x | S;S\nacyclic S", nil},
		{"on an earlier one", "let rec S = po | S;S\nlet rec T = S | T;T\nacyclic T", []string{"S", "T"}},
		{"earlier one flagged through a later", "let rec S = po | S;S\nlet rec T = S | T;T\nflag ~empty T as f", nil},
		{"later one not monotone", "let rec S = po | S;S\nlet rec T = S \\ T\nacyclic T", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			libFile, err := cat.Parse("lib.cat", []byte(lib))
			if err != nil {
				t.Fatal(err)
			}
			f, err := cat.Parse("m.cat", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for b := range monotoneRecs(libFile.Stmts, f.Stmts) {
				got = append(got, b.Names[0])
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("prefixpoints %v, want %v", got, tt.want)
			}
		})
	}
}
