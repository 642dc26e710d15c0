package ast

import "testing"

// TestString prints trees built by hand: parentheses appear exactly where
// herd's precedences need them. (The round trip through the parser, over
// herd's whole library, is tested in package cat.)
func TestString(t *testing.T) {
	a, b, c := &Var{Name: "a"}, &Var{Name: "b"}, &Var{Name: "c"}
	tests := []struct {
		node any
		want string
	}{
		{&Binary{Op: Seq, X: &Binary{Op: Union, X: a, Y: b}, Y: c}, "(a | b); c"},
		{&Binary{Op: Union, X: a, Y: &Binary{Op: Seq, X: b, Y: c}}, "a | b; c"},
		{&Unary{Op: Compl, X: &Unary{Op: Star, X: a}}, "~(a*)"},
		{&App{Fun: &Var{Name: "domain"}, Arg: &Unary{Op: ToID, X: a}}, "domain([a])"},
		{&Check{Kind: Acyclic, X: &Binary{Op: Union, X: a, Y: b}, Name: "sc"}, "acyclic a | b as sc"},
	}
	for _, tc := range tests {
		if got := String(tc.node); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	if err := Fprint(nil, 42); err == nil {
		t.Error("Fprint of an int: no error")
	}
}
