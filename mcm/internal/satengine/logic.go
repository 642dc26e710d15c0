package satengine

import (
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/sat"
)

// Set and Rel are the algebra's sets and relations over the formula's
// literals: a member belongs in the executions where its literal holds.
type (
	Set = eval.Set[sat.Lit]
	Rel = eval.Rel[sat.Lit]
)

// logic is the algebra's logic over the solver's literals, built with its
// gates.
type logic struct{ s *sat.Solver }

func (logic) True() sat.Lit              { return sat.True }
func (logic) False() sat.Lit             { return sat.False }
func (logic) Not(a sat.Lit) sat.Lit      { return -a }
func (g logic) And(a, b sat.Lit) sat.Lit { return g.s.And(a, b) }
func (g logic) Or(a, b sat.Lit) sat.Lit  { return g.s.Or(a, b) }
func (g logic) Xor(a, b sat.Lit) sat.Lit { return g.s.Xor(a, b) }
func (g logic) All(l []sat.Lit) sat.Lit  { return g.s.And(l...) }
func (g logic) Any(l []sat.Lit) sat.Lit  { return g.s.Or(l...) }

// Satisfiable asks the solver whether some execution makes a true.
func (g logic) Satisfiable(a sat.Lit) bool { return a != sat.False && g.s.Solve(a) }

// Choose makes n fresh selectors of a "with x from S" choice: exactly one
// holds when guard does, none when it does not.
func (g logic) Choose(guard sat.Lit, n int) []sat.Lit {
	sels := make([]sat.Lit, n)
	for i := range sels {
		sels[i] = g.s.NewVar()
		g.s.AddClause(-sels[i], guard)
	}
	g.s.AddClause(append([]sat.Lit{-guard}, sels...)...)
	for i := range sels {
		for j := i + 1; j < n; j++ {
			g.s.AddClause(-sels[i], -sels[j])
		}
	}
	return sels
}

// Fresh is a new variable, which AllSolutions tries false first: the
// relations of a let rec encoded as a prefixpoint (eval.Prefixpoints) are
// then completed to their least value without search. With Require, it
// also makes the orders "with x from linearisations(...)" chooses among.
func (g logic) Fresh() sat.Lit {
	l := g.s.NewVar()
	g.s.PreferFalse(l)
	return l
}

// Require adds a clause every execution meets.
func (g logic) Require(clause ...sat.Lit) { g.s.AddClause(clause...) }

// Implies requires a → b in every execution.
func (g logic) Implies(a, b sat.Lit) { g.Require(-a, b) }
