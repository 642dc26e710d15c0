package sat

import (
	"fmt"
	"slices"
)

// The tests enumerate models with these helpers, the loop of an
// incremental enumeration (purr's own, in package satengine, also refutes
// cycles lazily).

// enumerate calls fn with each distinct assignment of the projection
// literals that extends to a model (model[i] is the value of projection[i]),
// until fn returns false, limit models were found (limit <= 0: no limit) or
// none is left; it returns the number of models passed to fn and whether the
// enumeration was exhaustive. Models differ on the projection only:
// auxiliary variables are never enumerated. The formula is unchanged
// afterwards: the blocking clauses are guarded by a fresh literal that is
// retired at the end.
func enumerate(s *Solver, projection []Lit, limit int, fn func(model []bool) bool) (count int, complete bool) {
	return enumerateUnder(s, nil, projection, limit, fn)
}

// enumerateUnder is enumerate restricted to the models of the assumptions.
func enumerateUnder(s *Solver, assumptions, projection []Lit, limit int, fn func(model []bool) bool) (count int, complete bool) {
	for _, p := range projection {
		s.check(p)
	}
	active := s.NewVar()
	defer s.AddClause(active.Not())
	assume := append(slices.Clip(assumptions), active)
	// Each model found is blocked, so a model seen twice means a blocking
	// clause was ignored and the loop would never end: fail loudly instead.
	seen := make(map[string]bool)
	key := make([]byte, len(projection))
	for limit <= 0 || count < limit {
		if !s.Solve(assume...) {
			return count, true
		}
		model := make([]bool, len(projection))
		block := make([]Lit, 0, len(projection)+1)
		block = append(block, active.Not())
		for i, p := range projection {
			model[i] = s.Value(p)
			key[i] = '0'
			if model[i] {
				key[i] = '1'
				block = append(block, p.Not())
			} else {
				block = append(block, p)
			}
		}
		if seen[string(key)] {
			panic(fmt.Sprintf("sat: the solver returned projected model %s twice (a blocking clause was ignored)", key))
		}
		seen[string(key)] = true
		count++
		if !fn(model) {
			return count, false
		}
		s.AddClause(block...)
	}
	// The limit was reached: exhaustive only if nothing else is left.
	return count, !s.Solve(assume...)
}
