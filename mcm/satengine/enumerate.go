package satengine

import (
	"github.com/purr-mcm/purr/mcm/eval"
	"sort"

	"github.com/purr-mcm/purr/mcm/sat"
)

// enumerate calls visit once per consistent execution: once per model of
// the formula, projected onto the variables that identify an execution,
// whose lazy relations are acyclic. A model with a cycle in a lazy
// relation is refuted by a clause that forbids that cycle, and the solver
// is asked again; an accepted execution is blocked by a clause over the
// projection. visit returns false to stop. enumerate returns whether every
// execution was visited (limit 0: no limit). Each Solve checks the
// context of the solver's Limits: a deadline stops the loop there.
func enumerate(s *sat.Solver, projection []sat.Lit, lazy []Rel, limit int, visit func() bool) bool {
	seen := map[string]bool{}
	count := 0
	for s.Solve() {
		if cycle := findCycle(s, lazy); cycle != nil {
			s.AddClause(cycle...)
			continue
		}
		if limit > 0 && count == limit {
			return false
		}
		block := make([]sat.Lit, len(projection))
		key := make([]byte, len(projection))
		for i, p := range projection {
			if s.Value(p) {
				block[i], key[i] = -p, '1'
			} else {
				block[i], key[i] = p, '0'
			}
		}
		if seen[string(key)] {
			// The blocking clause below makes this impossible; looping
			// forever would be worse than stopping loudly.
			panic("mcm: the solver returned an execution twice")
		}
		seen[string(key)] = true
		count++
		if !visit() {
			return false
		}
		s.AddClause(block...)
	}
	return true
}

// findCycle looks for a cycle, in the solver's current model, in one of
// the relations; it returns the clause that forbids it (the negations of
// the cycle's edge literals), or nil when every relation is acyclic.
func findCycle(s *sat.Solver, rels []Rel) []sat.Lit {
	for _, r := range rels {
		succ := map[int32][]int32{}
		for _, k := range eval.SortedPairs(r) {
			if s.Value(r[k]) {
				succ[k.A] = append(succ[k.A], k.B)
			}
		}
		if cycle := cycleIn(succ); cycle != nil {
			clause := make([]sat.Lit, len(cycle))
			for i := range cycle {
				clause[i] = -r[eval.Pair{A: cycle[i], B: cycle[(i+1)%len(cycle)]}]
			}
			return clause
		}
	}
	return nil
}

// cycleIn returns the nodes of a cycle of a graph, in order, or nil.
func cycleIn(succ map[int32][]int32) []int32 {
	nodes := make([]int32, 0, len(succ))
	for n := range succ {
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i] < nodes[j] })
	const (
		unseen = iota
		onStack
		done
	)
	state := map[int32]int{}
	var stack []int32
	var found []int32
	var visit func(n int32) bool
	visit = func(n int32) bool {
		state[n] = onStack
		stack = append(stack, n)
		for _, m := range succ[n] {
			switch state[m] {
			case onStack:
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] == m {
						found = append([]int32(nil), stack[i:]...)
						return true
					}
				}
			case unseen:
				if visit(m) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[n] = done
		return false
	}
	for _, n := range nodes {
		if state[n] == unseen && visit(n) {
			return found
		}
	}
	return nil
}
