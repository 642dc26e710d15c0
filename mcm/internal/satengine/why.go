package satengine

import (
	"context"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// checkGroup is the checks of one ID (Check.ID: -skipchecks leaves them
// out together), and the literal that holds them.
type checkGroup struct {
	id     string
	on     sat.Lit
	checks []*eval.Check[sat.Lit]
}

// Why finds why the model forbids the outcome the test's condition names
// (its proposition; its negation for a forall): the minimal sets of the
// model's checks whose removal lets an execution show it, smallest
// first, at most maxSets of them (0: all), each with an execution that
// fails exactly those checks. Each ID of check has a literal that holds
// its checks when true (an acyclic check's cycles are refuted only then);
// a counter bounds how many are false. At each bound, every solution is a
// minimal set (a smaller one would have been found, and its supersets
// are blocked), which is blocked in turn.
func Why(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout, opt engine.Options,
	maxSets int) (w *outcome.Why, err error) {
	defer sat.Catch(&err)
	f, err := build(ctx, m, t, u, lay, opt, true)
	if err != nil {
		return nil, err
	}
	en := f.en
	s := en.s
	if err := en.refuseHazards(t, f.derivation); err != nil {
		return nil, err
	}
	var groups []*checkGroup
	byID := map[string]*checkGroup{}
	var lazy []Rel
	var guards []sat.Lit
	for i := range f.checks {
		c := &f.checks[i]
		if c.Mode != ast.Require && c.Mode != ast.Assert {
			continue
		}
		if c.WellFormed {
			if c.Acyclic != nil {
				lazy, guards = append(lazy, c.Acyclic), append(guards, sat.True)
			} else {
				s.AddClause(c.Lit)
			}
			continue
		}
		g := byID[c.ID()]
		if g == nil {
			g = &checkGroup{id: c.ID(), on: s.NewVar()}
			byID[g.id] = g
			groups = append(groups, g)
		}
		g.checks = append(g.checks, c)
		if c.Acyclic != nil {
			lazy, guards = append(lazy, c.Acyclic), append(guards, g.on)
		} else {
			s.AddClause(-g.on, c.Lit)
		}
	}
	lazy, guards = append(lazy, f.derivation), append(guards, sat.True)
	fs, cond, err := f.finalState(t, lay)
	if err != nil {
		return nil, err
	}
	target := cond
	if t.Quant == litmus.Forall {
		target = -cond
	}
	s.AddClause(target)
	cycles := newGuardedCycleFinder(lazy, guards)
	cycles.forbidShortCycles(s)
	solve := func(assume ...sat.Lit) bool {
		for s.Solve(assume...) {
			if cycle := cycles.find(s); cycle != nil {
				s.AddClause(cycle...) // a consequence of the guarded acyclicity: it holds for every execution
				continue
			}
			return true
		}
		return false
	}
	show := func(fails []*checkGroup) outcome.Execution {
		b := en.builder(t, lay, f.sets, f.rels, f.captured, opt.Capture)
		for _, g := range fails {
			for _, c := range g.checks {
				if nodes, failed := engine.Witness(c, s.Value); failed {
					b.Fail(engine.Failure{Check: c.ID(), Kind: c.Kind, Nodes: nodes})
				}
			}
		}
		return b.Finish(1, currentState(fs, t, lay), s.Value(cond), nil)
	}

	w = &outcome.Why{Target: litmus.FormatProp(t.Cond), Shown: f.captured.Shown}
	if t.Quant == litmus.Forall {
		w.Target = "~(" + w.Target + ")"
	}
	on := make([]sat.Lit, len(groups))
	off := make([]sat.Lit, len(groups))
	for i, g := range groups {
		on[i], off[i] = g.on, -g.on
	}
	if solve(on...) {
		x := show(nil)
		w.Allowed = &x
		return w, nil
	}
	atLeast := counter(s, off)
	for k := 1; k <= len(groups); k++ {
		for {
			var assume []sat.Lit
			if k < len(groups) {
				assume = append(assume, -atLeast[k]) // at most k checks left out
			}
			if maxSets > 0 && len(w.Sets) == maxSets {
				w.Complete = !solve()
				return w, nil
			}
			if !solve(assume...) {
				break
			}
			var set []*checkGroup
			var block []sat.Lit
			for _, g := range groups {
				if !s.Value(g.on) {
					set = append(set, g)
					block = append(block, g.on)
				}
			}
			ids := make([]string, len(set))
			for i, g := range set {
				ids[i] = g.id
			}
			w.Sets = append(w.Sets, outcome.WhySet{Checks: ids, Execution: show(set)})
			s.AddClause(block...) // no superset of this set is minimal
		}
	}
	w.Complete = true
	w.Never = len(w.Sets) == 0
	return w, nil
}

// counter returns, for the literals xs, literals atLeast[j] that are true
// whenever at least j+1 of them are (a sequential counter, Sinz 2005):
// assuming -atLeast[k] allows at most k.
func counter(s *sat.Solver, xs []sat.Lit) []sat.Lit {
	n := len(xs)
	prev := make([]sat.Lit, n) // over the inputs so far
	for j := range prev {
		prev[j] = sat.False
	}
	for _, x := range xs {
		cur := make([]sat.Lit, n)
		for j := range cur {
			cur[j] = s.NewVar()
			s.AddClause(-prev[j], cur[j])
			if j == 0 {
				s.AddClause(-x, cur[j])
			} else {
				s.AddClause(-x, -prev[j-1], cur[j])
			}
		}
		prev = cur
	}
	return prev
}

// currentState is the final state of the solver's current model.
func currentState(fs *finalState, t *litmus.Test, lay events.Layout) outcome.State {
	observed := events.ObservedLocations(t)
	st := make(outcome.State, 0, len(observed))
	for i := range observed {
		loc := &observed[i]
		b := outcome.Binding{Loc: loc, Type: lay.TypeOf(*loc)}
		if n, isArray := lay.Length[loc.Name]; isArray && loc.Kind == litmus.GlobalLoc {
			for j := range n {
				v, _ := fs.valueOf(litmus.Loc{Kind: litmus.IndexLoc, Name: loc.Name, Index: j})
				b.Array = append(b.Array, v)
			}
		} else {
			b.Value, _ = fs.valueOf(*loc)
		}
		st = append(st, b)
	}
	return st
}
