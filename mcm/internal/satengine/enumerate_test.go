package satengine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/sat"
)

func pairs(ps ...[2]int32) []eval.Pair {
	var out []eval.Pair
	for _, p := range ps {
		out = append(out, eval.Pair{A: p[0], B: p[1]})
	}
	slices.SortFunc(out, func(p, q eval.Pair) int {
		if p.A != q.A {
			return int(p.A - q.A)
		}
		return int(p.B - q.B)
	})
	return out
}

// TestWithinComponents: only the edges that may lie on a cycle are kept.
func TestWithinComponents(t *testing.T) {
	tests := []struct {
		name     string
		in, want []eval.Pair
	}{
		{"chain", pairs([2]int32{1, 2}, [2]int32{2, 3}), nil},
		{"loop", pairs([2]int32{4, 4}, [2]int32{4, 5}), pairs([2]int32{4, 4})},
		{"two cycles joined", pairs([2]int32{1, 2}, [2]int32{2, 1}, [2]int32{2, 7}, [2]int32{7, 9}, [2]int32{9, 7}),
			pairs([2]int32{1, 2}, [2]int32{2, 1}, [2]int32{7, 9}, [2]int32{9, 7})},
		{"triangle with a tail", pairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 0}, [2]int32{3, 0}, [2]int32{2, 3}),
			pairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 0}, [2]int32{3, 0}, [2]int32{2, 3})},
		{"triangle and a sink", pairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 0}, [2]int32{1, 5}),
			pairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 0})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withinComponents(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCycleFinder: on random graphs, small (searched over bit sets) and
// large (over edge lists), find returns a clause exactly when the true
// edges have a cycle, and the clause negates true edges that form one.
func TestCycleFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nodes := range []int{3, 8, 40, 70} {
		for round := range 50 {
			s := sat.New()
			r := Rel{}
			truth := map[sat.Lit]eval.Pair{}
			for range nodes * 2 {
				a, b := rng.Int32N(int32(nodes)), rng.Int32N(int32(nodes))
				if a == b || r[eval.Pair{A: a, B: b}] != 0 {
					continue
				}
				l := s.NewVar()
				r[eval.Pair{A: a, B: b}] = l
				if rng.IntN(3) > 0 {
					s.AddClause(l)
					truth[l] = eval.Pair{A: a, B: b}
				} else {
					s.AddClause(-l)
				}
			}
			if !s.Solve() {
				t.Fatal("unsatisfiable")
			}
			var edges []eval.Pair
			for _, p := range truth {
				edges = append(edges, p)
			}
			want := hasCycle(edges)
			clause := newCycleFinder([]Rel{r}).find(s)
			if (clause != nil) != want {
				t.Fatalf("%d nodes, round %d: clause %v, want a cycle: %v", nodes, round, clause, want)
			}
			var cycle []eval.Pair
			for _, l := range clause {
				p, ok := truth[-l]
				if !ok {
					t.Fatalf("%d nodes, round %d: %v negates no true edge", nodes, round, l)
				}
				cycle = append(cycle, p)
			}
			if clause != nil && !hasCycle(cycle) {
				t.Errorf("%d nodes, round %d: the clause's edges %v have no cycle", nodes, round, cycle)
			}
		}
	}
}

// hasCycle decides acyclicity by removing nodes without predecessors.
func hasCycle(edges []eval.Pair) bool {
	in := map[int32]int{}
	succ := map[int32][]int32{}
	nodes := map[int32]bool{}
	for _, e := range edges {
		in[e.B]++
		succ[e.A] = append(succ[e.A], e.B)
		nodes[e.A], nodes[e.B] = true, true
	}
	var ready []int32
	for n := range nodes {
		if in[n] == 0 {
			ready = append(ready, n)
		}
	}
	removed := 0
	for len(ready) > 0 {
		n := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		removed++
		for _, m := range succ[n] {
			if in[m]--; in[m] == 0 {
				ready = append(ready, m)
			}
		}
	}
	return removed < len(nodes)
}

// TestForbidShortCycles: loops, cycles of two edges and cycles of three
// with a constant edge become clauses, which the solver then refutes
// without a cycle search; longer cycles are left to the search.
func TestForbidShortCycles(t *testing.T) {
	s := sat.New()
	v := func() sat.Lit { return s.NewVar() }
	loop, ab, ba, bc, ca, xy, yx, pq, qr, rs := v(), v(), v(), v(), v(), v(), v(), v(), v(), v()
	r := Rel{
		{A: 9, B: 9}: loop,
		{A: 0, B: 1}: ab, {A: 1, B: 0}: ba, {A: 1, B: 2}: bc, {A: 2, B: 0}: ca,
		{A: 5, B: 6}: sat.True, {A: 6, B: 7}: xy, {A: 7, B: 5}: yx,
		{A: 10, B: 11}: sat.True, {A: 11, B: 12}: pq, {A: 12, B: 13}: qr, {A: 13, B: 10}: rs,
	}
	newCycleFinder([]Rel{r}).forbidShortCycles(s)
	tests := []struct {
		name        string
		assume      []sat.Lit
		satisfiable bool
	}{
		{"loop", []sat.Lit{loop}, false},
		{"two edges", []sat.Lit{ab, ba}, false},
		{"three edges, one constant", []sat.Lit{xy, yx}, false},
		{"three edges, none constant", []sat.Lit{ab, bc, ca}, true},
		{"four edges", []sat.Lit{pq, qr, rs}, true},
	}
	for _, tt := range tests {
		if got := s.Solve(tt.assume...); got != tt.satisfiable {
			t.Errorf("%s: satisfiable %v, want %v", tt.name, got, tt.satisfiable)
		}
	}
}
