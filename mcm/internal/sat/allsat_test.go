package sat

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAllSolutionsAgainstExhaustive enumerates random formulas projected
// onto random literals, with refutations of a random hidden clause, and
// compares with exhaustive search: every projection of a model of the
// formula and the hidden clause, once each.
func TestAllSolutionsAgainstExhaustive(t *testing.T) {
	for seed := range uint64(2000) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 1 + r.IntN(12)
		f, s := randomFormula(r, n, r.IntN(3*n))
		projection := randomProjection(r, n)
		var hidden [][]Lit
		for range r.IntN(3) {
			hidden = append(hidden, randomClause(r, n))
		}
		want := map[string]bool{}
		withHidden := &cnf{n: n, clauses: append(append([][]Lit(nil), f.clauses...), hidden...)}
		for _, bits := range withHidden.models(nil) {
			want[project(bits, projection)] = true
		}
		got := map[string]bool{}
		refute := func() []Lit {
			for _, c := range hidden {
				sat := false
				for _, l := range c {
					if l.variable() > 0 && s.Value(l) {
						sat = true
					}
				}
				if !sat {
					return c
				}
			}
			return nil
		}
		visit := func() bool {
			// AppendTrue reads the search's model as Value does.
			var all []Lit
			for v := 1; v <= n; v++ {
				all = append(all, Lit(v), Lit(-v))
			}
			var wantTrue []int32
			for i, l := range all {
				if s.Value(l) {
					wantTrue = append(wantTrue, int32(i))
				}
			}
			if got := s.AppendTrue(nil, all); !slices.Equal(got, wantTrue) {
				t.Fatalf("seed %d: AppendTrue = %v, Value says %v", seed, got, wantTrue)
			}
			for _, c := range hidden {
				ok := false
				for _, l := range c {
					ok = ok || s.Value(l)
				}
				if !ok {
					t.Fatalf("seed %d: a visited model violates a refuted clause", seed)
				}
			}
			for _, c := range f.clauses {
				ok := false
				for _, l := range c {
					ok = ok || s.Value(l)
				}
				if !ok {
					t.Fatalf("seed %d: a visited model violates the formula", seed)
				}
			}
			m := make([]bool, len(projection))
			for i, p := range projection {
				m[i] = s.Value(p)
			}
			k := key(m)
			if got[k] {
				t.Fatalf("seed %d: projection %s visited twice", seed, k)
			}
			got[k] = true
			return true
		}
		// Half the seeds give up at once or soon: the rest of the space,
		// searched by Solve, must hold the projections not yet visited.
		budget := 1 << 20
		if seed%2 == 1 {
			budget = r.IntN(4)
		}
		stopped, rest := s.AllSolutions(projection, budget, refute, visit)
		if stopped {
			t.Fatalf("seed %d: stopped", seed)
		}
		for _, cube := range rest {
			for s.Solve(cube...) {
				if c := refute(); c != nil {
					s.AddClause(c...)
					continue
				}
				visit()
				var block []Lit
				for _, p := range projection {
					if s.Value(p) {
						block = append(block, -p)
					} else {
						block = append(block, p)
					}
				}
				s.AddClause(block...)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d projections, want %d", seed, len(got), len(want))
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("seed %d: missing projection %s", seed, k)
			}
		}
		// The refuted clauses were added to the formula (and, after
		// giving up, the blocking clauses).
		if got, want := s.Solve(), len(want) > 0; rest == nil && got != want {
			t.Fatalf("seed %d: Solve after AllSolutions = %v, want %v", seed, got, want)
		}
	}
}

// TestAllSolutionsStopsAndGivesUp checks visit's stop and the budget.
func TestAllSolutionsStopsAndGivesUp(t *testing.T) {
	s := New()
	newVars(s, 12)
	var projection []Lit
	for v := 2; v <= 13; v++ {
		projection = append(projection, Lit(v))
	}
	visits := 0
	stopped, rest := s.AllSolutions(projection, 0, func() []Lit { return nil }, func() bool { visits++; return visits < 3 })
	if !stopped || rest != nil || visits != 3 {
		t.Fatalf("stopped %v, rest %v after %d visits, want a stop after 3", stopped, rest, visits)
	}
	// Pigeonhole 5 in 4 has no model; the search needs more than one
	// conflict to know it.
	s = New()
	hole := func(p, h int) Lit { return Lit(2 + 4*p + h) }
	newVars(s, 20)
	for p := range 5 {
		s.AddClause(hole(p, 0), hole(p, 1), hole(p, 2), hole(p, 3))
		for q := range p {
			for h := range 4 {
				s.AddClause(-hole(p, h), -hole(q, h))
			}
		}
	}
	stopped, rest = s.AllSolutions(nil, 1, func() []Lit { return nil }, func() bool { t.Fatal("a model of pigeonhole 5 in 4"); return true })
	if stopped || rest == nil {
		t.Fatalf("stopped %v, rest %v, want to give up", stopped, rest)
	}
}
