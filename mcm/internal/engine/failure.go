package engine

import (
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/mcm/internal/eval"
)

// Failure is a check of the model an execution fails, with the events
// that show it (Builder.Fail lays them out).
type Failure struct {
	Check string // Check.ID
	Kind  string // Check.Kind
	// Nodes are unfolding event IDs: a cycle's (the first again at the
	// end), a reflexive pair, a member of a relation, a member of a set
	// twice; none for a negated check.
	Nodes []int
}

// Fails are the model's checks (not purr's rules of well-formed
// executions, which no execution breaks) that an execution fails, with
// their witnesses; holds tells a literal's value in the execution.
func Fails[L comparable](checks []eval.Check[L], holds func(L) bool) []Failure {
	var out []Failure
	for i := range checks {
		c := &checks[i]
		if c.WellFormed || (c.Mode != ast.Require && c.Mode != ast.Assert) {
			continue
		}
		if nodes, failed := Witness(c, holds); failed {
			out = append(out, Failure{Check: c.ID(), Kind: c.Kind, Nodes: nodes})
		}
	}
	return out
}

// Witness tells whether an execution fails the check c, and gives the
// events that show it: a cycle for acyclic, a pair (e, e) for
// irreflexive, a member for empty.
func Witness[L comparable](c *eval.Check[L], holds func(L) bool) ([]int, bool) {
	if c.Acyclic == nil && holds(c.Lit) {
		return nil, false
	}
	var pairs [][2]int
	for _, k := range eval.SortedPairs(c.Rel) {
		if holds(c.Rel[k]) {
			pairs = append(pairs, [2]int{int(k.A), int(k.B)})
		}
	}
	switch c.Kind {
	case "acyclic":
		cycle := cycleOf(pairs)
		return cycle, cycle != nil
	case "irreflexive":
		for _, p := range pairs {
			if p[0] == p[1] {
				return p[:], true
			}
		}
	case "empty":
		if len(pairs) > 0 {
			return pairs[0][:], true
		}
		for id, l := range c.Set {
			if holds(l) {
				return []int{id, id}, true
			}
		}
	}
	return nil, true
}

// cycleOf returns a cycle of the relation, as its nodes with the first
// again at the end, or nil when it is acyclic.
func cycleOf(pairs [][2]int) []int {
	succ := map[int][]int{}
	var nodes []int
	for _, p := range pairs {
		if len(succ[p[0]]) == 0 {
			nodes = append(nodes, p[0])
		}
		succ[p[0]] = append(succ[p[0]], p[1])
	}
	const (
		unseen = iota
		open
		closed
	)
	state := map[int]int{}
	var path []int
	var visit func(a int) []int
	visit = func(a int) []int {
		state[a] = open
		path = append(path, a)
		for _, b := range succ[a] {
			switch state[b] {
			case open:
				for i, n := range path {
					if n == b {
						return append(append([]int(nil), path[i:]...), b)
					}
				}
			case unseen:
				if c := visit(b); c != nil {
					return c
				}
			}
		}
		state[a] = closed
		path = path[:len(path)-1]
		return nil
	}
	for _, a := range nodes {
		if state[a] == unseen {
			if c := visit(a); c != nil {
				return c
			}
		}
	}
	return nil
}
