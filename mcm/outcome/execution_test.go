package outcome

import (
	"slices"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestSelects holds Show.Selects to herd7's table: prop and neg follow
// the proposition; cond keeps prop for exists and forall, neg for
// ~exists; wit keeps prop for exists and ~exists, neg for forall.
func TestSelects(t *testing.T) {
	type row struct{ holds, notHolds bool }
	want := map[Show]map[litmus.Quantifier]row{
		ShowAll:  {litmus.Exists: {true, true}, litmus.NotExists: {true, true}, litmus.Forall: {true, true}},
		ShowNone: {litmus.Exists: {false, false}, litmus.NotExists: {false, false}, litmus.Forall: {false, false}},
		ShowProp: {litmus.Exists: {true, false}, litmus.NotExists: {true, false}, litmus.Forall: {true, false}},
		ShowNeg:  {litmus.Exists: {false, true}, litmus.NotExists: {false, true}, litmus.Forall: {false, true}},
		ShowCond: {litmus.Exists: {true, false}, litmus.NotExists: {false, true}, litmus.Forall: {true, false}},
		ShowWit:  {litmus.Exists: {true, false}, litmus.NotExists: {true, false}, litmus.Forall: {false, true}},
	}
	if len(want) != len(Shows) {
		t.Fatalf("the table covers %d selections of %d", len(want), len(Shows))
	}
	for show, byQuant := range want {
		for q, r := range byQuant {
			if got := show.Selects(q, true); got != r.holds {
				t.Errorf("-show %s, %s, proposition holds: %v, want %v", show, q, got, r.holds)
			}
			if got := show.Selects(q, false); got != r.notHolds {
				t.Errorf("-show %s, %s, proposition fails: %v, want %v", show, q, got, r.notHolds)
			}
		}
	}
}

func TestLabel(t *testing.T) {
	for i, want := range map[int]string{0: "a", 1: "b", 25: "z", 26: "aa", 27: "ab", 51: "az", 52: "ba", 701: "zz", 702: "aaa"} {
		if got := Label(i); got != want {
			t.Errorf("Label(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestReduce(t *testing.T) {
	// a total order 0 < 1 < 2 < 3 and a diamond 4 → {5, 6} → 7
	edges := []Edge{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {4, 5}, {4, 6}, {4, 7}, {5, 7}, {6, 7}}
	want := []Edge{{0, 1}, {1, 2}, {2, 3}, {4, 5}, {4, 6}, {5, 7}, {6, 7}}
	if got := Reduce(edges); !slices.Equal(got, want) {
		t.Errorf("Reduce: got %v, want %v", got, want)
	}
}
