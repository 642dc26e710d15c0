package sat

import (
	"math/rand/v2"
	"testing"
	"time"
)

// finishes runs f in a goroutine and fails t if it does not return within a
// generous bound. This is a liveness check (an enumeration that never ends),
// not a speed test.
func finishes(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not finish within 10s", what)
	}
}

// TestEnumerateTwoLiteralProjectionTerminates is the shape of the reported
// hang: a projection of two literals, enumerated again and again with
// clauses, units and gates added between enumerations (so gophersat gets
// clauses appended after it has solved, and new variables).
func TestEnumerateTwoLiteralProjectionTerminates(t *testing.T) {
	finishes(t, "repeated two-literal enumerations", func() {
		s := New()
		x, y, z, w := s.NewVar(), s.NewVar(), s.NewVar(), s.NewVar()
		s.AddClause(x, y, z)
		s.AddClause(-x, w)
		counts := []int{}
		for round := range 6 {
			n, complete := enumerate(s, []Lit{x, y}, 0, func([]bool) bool { return true })
			if !complete {
				t.Errorf("round %d: enumeration not complete", round)
			}
			counts = append(counts, n)
			switch round {
			case 0:
				s.AddClause(-x, -y) // clause over projected variables
			case 1:
				g := s.And(x, z) // new gate variable after solving
				s.AddClause(-g, w)
				s.AddClause(g, y, -z)
			case 2:
				s.AddClause(z) // unit after solving
			case 3:
				s.AddClause(-x, -y) // duplicate clause
			case 4:
				s.AddClause(-y) // unit on a projected variable
			}
		}
		want := []int{4, 3, 2, 2, 2, 1} // round 2: (x,y) = (0,0) forces z, so g = 0 and y ∨ ¬z fails
		for i := range want {
			if counts[i] != want[i] {
				t.Errorf("round %d: %d models, want %d (all rounds %v)", i, counts[i], want[i], counts)
			}
		}
	})
}

// TestIncrementalEnumerationAgainstExhaustive interleaves random clause
// additions (including units and clauses over projected variables) with
// projected enumerations under assumptions, over up to 16 variables, and
// compares every enumeration with exhaustive search.
func TestIncrementalEnumerationAgainstExhaustive(t *testing.T) {
	for seed := range uint64(150) {
		r := rand.New(rand.NewPCG(seed, 3))
		n := 2 + r.IntN(15) // 2..16 variables
		f, s := randomFormula(r, n, r.IntN(n))
		finishes(t, "incremental enumeration", func() {
			for round := range 6 {
				projection := []Lit{randomLit(r, n), randomLit(r, n)}
				for range r.IntN(4) {
					projection = append(projection, randomLit(r, n))
				}
				var assumptions []Lit
				if r.IntN(3) == 0 {
					assumptions = append(assumptions, randomLit(r, n))
				}
				want := map[string]bool{}
				for _, bits := range f.models(assumptions) {
					want[project(bits, projection)] = true
				}
				got := map[string]bool{}
				count, complete := enumerateUnder(s, assumptions, projection, 0, func(model []bool) bool {
					got[key(model)] = true
					return true
				})
				if !complete || count != len(want) || len(got) != len(want) {
					t.Errorf("seed %d round %d: %d projected models (complete %v), want %d", seed, round, count, complete, len(want))
					return
				}
				for k := range want {
					if !got[k] {
						t.Errorf("seed %d round %d: missing projected model %s", seed, round, k)
						return
					}
				}
				// Grow the formula between enumerations: random clauses,
				// a clause blocking one projected model, a unit now and then.
				for range r.IntN(n/2 + 1) {
					c := randomClause(r, n)
					f.clauses = append(f.clauses, c)
					s.AddClause(c...)
				}
				if r.IntN(2) == 0 {
					block := make([]Lit, len(projection))
					for i, p := range projection {
						block[i] = p
						if r.IntN(2) == 0 {
							block[i] = -p
						}
					}
					f.clauses = append(f.clauses, block)
					s.AddClause(block...)
				}
				if r.IntN(4) == 0 {
					u := []Lit{randomLit(r, n)}
					f.clauses = append(f.clauses, u)
					s.AddClause(u...)
				}
			}
		})
	}
}
