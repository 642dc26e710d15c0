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
	// ids are the check IDs in the model's order; on[i] holds the checks
	// of ids[i] when true.
	var ids []string
	var on []sat.Lit
	index := map[string]int{}
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
		k, seen := index[c.ID()]
		if !seen {
			k = len(ids)
			index[c.ID()] = k
			ids, on = append(ids, c.ID()), append(on, s.NewVar())
		}
		if c.Acyclic != nil {
			lazy, guards = append(lazy, c.Acyclic), append(guards, on[k])
		} else {
			s.AddClause(-on[k], c.Lit)
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
	// show lays out the solver's model: an execution that shows the
	// outcome and, at a minimal set, fails exactly its checks.
	show := func() outcome.Execution {
		b := en.builder(t, lay, f.sets, f.rels, f.captured, opt.Capture, false)
		for _, fail := range engine.Fails(f.checks, s.Value) {
			b.Fail(fail)
		}
		return b.Finish(1, currentState(fs, t, lay), s.Value(cond), nil)
	}

	w = &outcome.Why{Target: litmus.FormatProp(t.Cond), Shown: f.captured.Shown}
	if t.Quant == litmus.Forall {
		w.Target = "~(" + w.Target + ")"
	}
	if cycles.solve(s, on...) {
		x := show()
		w.Allowed = &x
		return w, nil
	}
	off := make([]sat.Lit, len(on))
	for i, l := range on {
		off[i] = -l
	}
	atLeast := counter(s, off)
	for k := 1; k <= len(ids); k++ {
		for {
			var assume []sat.Lit
			if k < len(ids) {
				assume = append(assume, -atLeast[k]) // at most k checks left out
			}
			if maxSets > 0 && len(w.Sets) == maxSets {
				w.Complete = !cycles.solve(s)
				return w, nil
			}
			if !cycles.solve(s, assume...) {
				break
			}
			var set []string
			var block []sat.Lit
			for i, l := range on {
				if !s.Value(l) {
					set, block = append(set, ids[i]), append(block, l)
				}
			}
			w.Sets = append(w.Sets, outcome.WhySet{Checks: set, Execution: show()})
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
