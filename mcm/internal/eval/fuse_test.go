package eval

import (
	"reflect"
	"testing"
)

type bools struct{}

func (bools) True() bool              { return true }
func (bools) False() bool             { return false }
func (bools) Not(a bool) bool         { return !a }
func (bools) And(a, b bool) bool      { return a && b }
func (bools) Or(a, b bool) bool       { return a || b }
func (bools) Xor(a, b bool) bool      { return a != b }
func (bools) Satisfiable(a bool) bool { return a }
func (bools) All(ls []bool) bool {
	for _, l := range ls {
		if !l {
			return false
		}
	}
	return true
}
func (bools) Any(ls []bool) bool {
	for _, l := range ls {
		if l {
			return true
		}
	}
	return false
}

// TestFuse fuses event 2 (a write half) into event 1 (its read half): the
// read half takes the write's sets and pairs, the write half leaves every
// set, and the pair of the two is kept only where every event relates to
// itself.
func TestFuse(t *testing.T) {
	al := NewAlgebra[bool](bools{}, []bool{true, true, true, true})
	sets := map[string]Set[bool]{
		"R": {false, true, false, true},
		"W": {true, false, true, false},
	}
	rels := map[string]Rel[bool]{
		"loc": {PairOf(1, 2): true, PairOf(2, 1): true, PairOf(0, 2): true},
		"rmw": {PairOf(1, 2): true},
		"rf":  {PairOf(0, 1): true, PairOf(2, 3): true},
		"co":  {PairOf(0, 2): true},
	}
	fused, fsets, frels := al.Fuse(map[int]int{2: 1}, sets, rels, func(n string) bool { return n == "loc" })
	if want := []bool{true, true, false, true}; !reflect.DeepEqual([]bool(fused.Exec), want) {
		t.Errorf("exec %v, want %v", fused.Exec, want)
	}
	if want := (Set[bool]{false, true, false, true}); !reflect.DeepEqual(fsets["R"], want) {
		t.Errorf("R %v, want %v", fsets["R"], want)
	}
	if want := (Set[bool]{true, true, false, false}); !reflect.DeepEqual(fsets["W"], want) {
		t.Errorf("W %v, want %v", fsets["W"], want)
	}
	for name, want := range map[string]Rel[bool]{
		"loc": {PairOf(1, 1): true, PairOf(0, 1): true},
		"rmw": {},
		"rf":  {PairOf(0, 1): true, PairOf(1, 3): true},
		"co":  {PairOf(0, 1): true},
	} {
		if !reflect.DeepEqual(frels[name], want) {
			t.Errorf("%s %v, want %v", name, frels[name], want)
		}
	}
}
