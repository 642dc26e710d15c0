package mcm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/mcm/internal/arg"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// Do the test's values end its loops? A loop whose iterations write (a
// ping-pong of two counters, a back-off that gives up after a number of
// turns) is no retry, and under a model that lets po | rf cycle the bound
// check (boundEnough) cannot vouch for it. Yet its exit often depends on
// values the other threads write from a finite set: at a large enough
// bound, no path past the bound can read values that make its branches
// go that way.
//
// cutsByValues asks that of the bounded unfolding: each cut leaf's
// assumptions are unsatisfiable when each read takes any value of its
// domain (events.CutsByValues). That makes the bound enough for every
// consistent execution E when E justifies no value by itself: rf and the
// dependencies of writes on reads (values, addresses, branches) acyclic,
// which acyclicJustification reads from the model and the program.
//
// Let E go past the bound. A write past a thread's cut point (which the
// unfolding has no event for; those before it, on a cut segment too, are
// in the value analysis) depends, by a branch or an assumption before the
// cut, on every read the thread's path up to the cut depends on (its
// decision reads); call it late. Order the threads that go past by "a
// late write of U reaches a decision read of T along rf and
// dependencies": it is acyclic, as a cycle would close one of rf and
// dependencies through the late writes.
// So some T's decision reads, and everything their values are computed
// from, read no late write: their values come from writes within the
// bound, computed along acyclic chains inside the bounded unfolding, so
// they are in the domains (the value analysis follows every such chain).
// With them T's path reaches its cut: its leaf's assumptions hold with
// values of the domains, which CutsByValues rules out.

// cutsBudget bounds the values CutsByValues tries for one unfolding.
const cutsBudget = 1 << 20

// maxValueEvents bounds the events of an unfolding whose values
// cutsByValues analyses: the value analysis grows with the reads times
// the terms times the writes, and a livelock's unfolding at 32
// iterations (Dekker's back-off, 866 events) took 80 s where one at 8
// (242) took 0.6.
const maxValueEvents = 400

// valuesBudget bounds the values, with their reads, the value analysis
// derives for cutsByValues (events.ValueOptions.Budget): the loop suite's
// and the corpora's proofs take at most 160,000; a test-and-set lock whose
// final value the test shows, which no proof by values decides, took
// 2,500,000 and 28 s at 32 iterations.
const valuesBudget = 300_000

// valueProof is what a proof by values rests on (outcome.Bound's
// Precision, Tracked and Refinements).
type valueProof struct {
	precision   []string // the reads the proof evaluated, with their values
	abstracted  bool     // the values are the abstraction's
	tracked     []string // the abstraction's precision, when it gave the values
	refinements int      // how often the abstraction's precision was refined
}

// record puts the proof into b.
func (p valueProof) record(b *outcome.Bound) {
	b.Precision, b.Abstracted, b.Tracked, b.Refinements = p.precision, p.abstracted, p.tracked, p.refinements
}

// cutsByValues tells whether the values the test's reads may take keep
// every consistent execution from the cuts of u (retries cut off, as
// retryOptions unfolds): then the answer at u's bound holds for every
// bound. The values are the abstraction's (cutsByAbstraction), or else
// the bounded unfolding's domains; proof names the reads it rests on,
// with those values. false when the model may let an execution justify
// a value by itself, or the search gives up.
func (lc *loopCheck) cutsByValues(u *events.Unfolding) (proof valueProof, ok bool) {
	if lc.justification().why != "" {
		return valueProof{}, false
	}
	if proof, ok := lc.cutsByAbstraction(u); ok {
		return proof, true
	}
	if len(u.Events) > maxValueEvents {
		return valueProof{}, false
	}
	if err := lc.analyseValuesWithin(u, valuesBudget); err != nil {
		// Values past the analysis's limits (the engines would refuse
		// them too), or past what a hope of a proof is worth.
		return valueProof{}, false
	}
	decisive, ok := u.CutsByValues(cutsBudget)
	if !ok {
		return valueProof{}, false
	}
	return valueProof{precision: lc.valuePrecision(decisive, func(r *events.Event) []outcome.Value { return r.Val.Dom })}, true
}

// cutsByAbstraction is cutsByValues with the values of the abstraction
// (package arg): the graphs of every thread, loops unbounded, give each
// location the values any execution's writes may write when no value
// justifies itself, so a cut leaf whose assumptions these values cannot
// make true is one no execution reaches, whatever the bound; no order
// between threads is needed (a write past the bound is in the graphs).
//
// It is the refinement loop of docs/loops.md: a cut leaf whose
// assumptions may hold with the values of the abstraction (an abstract
// counterexample) because a read may take any value refines the
// precision, tracking the havocked locations that value comes from;
// with nothing left to track, the bound check (the SAT engine) takes the
// counterexample on. The graphs do not depend on the bound: the precision
// a round refined holds for the next.
func (lc *loopCheck) cutsByAbstraction(u *events.Unfolding) (proof valueProof, ok bool) {
	if lc.tracked == nil {
		lc.tracked = map[outcome.Value]bool{}
	}
	for {
		if lc.graph == nil {
			g, err := arg.Explore(lc.ctx, lc.t.Program, lc.initRegs, lc.initMem, lc.tracked, arg.DefaultLimits)
			if err != nil {
				return valueProof{}, false
			}
			lc.graph = g
		}
		g := lc.graph
		values := func(r *events.Event) ([]outcome.Value, bool) {
			addr, ok := r.Addr.IsConst()
			if !ok {
				return nil, false
			}
			vals, top, _ := g.Values(addr)
			if top {
				return nil, false
			}
			if r.IsReceive() {
				vals = appendSorted(vals, events.Nothing)
			}
			return vals, true
		}
		decisive, open, ok := u.CutsByDomains(cutsBudget, values)
		if ok {
			precision := lc.valuePrecision(decisive, func(r *events.Event) []outcome.Value { vals, _ := values(r); return vals })
			return valueProof{precision, true, lc.trackedNames(), lc.refinements}, true
		}
		refined := false
		for _, r := range open {
			addr, ok := r.Addr.IsConst()
			if !ok {
				continue
			}
			// Tracking the read's own location lets the graphs follow the
			// loops that read it; the havocked locations its value comes
			// from give its writes their values.
			_, _, from := g.Values(addr)
			for _, a := range append([]outcome.Value{addr}, from...) {
				if !lc.tracked[a] {
					lc.tracked[a], refined = true, true
				}
			}
		}
		if !refined {
			return valueProof{}, false
		}
		lc.graph = nil
		lc.refinements++
	}
}

// trackedNames lists the abstraction's precision: the locations whose
// reads it tracks.
func (lc *loopCheck) trackedNames() []string {
	addrs := slices.SortedFunc(maps.Keys(lc.tracked), events.CompareValues)
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a.String()
	}
	return out
}

// appendSorted returns vs with v, sorted as events.CompareValues sorts.
func appendSorted(vs []outcome.Value, v outcome.Value) []outcome.Value {
	i, found := slices.BinarySearchFunc(vs, v, events.CompareValues)
	if found {
		return vs
	}
	return slices.Insert(slices.Clone(vs), i, v)
}

// tightestByValues returns the least bound from from up to n at which
// cutsByValues holds, with its unfolding (u is n's): the engines then
// search no more iterations than the values allow (a proof at 8 of loops
// that run 4 times would have them encode 8).
func (lc *loopCheck) tightestByValues(from, n int, u *events.Unfolding, proof valueProof) (*events.Unfolding, int, valueProof, error) {
	for k := from; k < n; k++ {
		uk, err := lc.unfoldRetrying(k)
		if err != nil {
			return nil, 0, valueProof{}, err
		}
		if len(uk.Retries) > 0 && lc.retriesRemovable(uk) != nil {
			continue
		}
		if p, ok := lc.cutsByValues(uk); ok {
			return uk, k, p, nil
		}
	}
	return u, n, proof, nil
}

// valuePrecision names the reads a proof by values rests on, once per
// instruction, with the location and every value their instances may
// read: "P0 reads y at T.litmus:8:2: 0, 1, 2".
func (lc *loopCheck) valuePrecision(reads []*events.Event, values func(*events.Event) []outcome.Value) []string {
	type site struct {
		thread int
		pos    string
	}
	var order []site
	locs := map[site][]outcome.Value{}
	vals := map[site][]outcome.Value{}
	for _, r := range reads {
		s := site{r.Thread, r.Pos.String()}
		if _, ok := vals[s]; !ok {
			order = append(order, s)
			vals[s] = []outcome.Value{}
		}
		addrs := r.Addr.Dom // the analysis's, or the address the abstraction's proof needs
		if a, ok := r.Addr.IsConst(); ok {
			addrs = []outcome.Value{a}
		}
		locs[s] = appendNew(locs[s], addrs...)
		vals[s] = appendNew(vals[s], values(r)...)
	}
	out := make([]string, len(order))
	for i, s := range order {
		names := make([]string, len(locs[s]))
		for j, l := range locs[s] {
			names[j] = l.String()
		}
		slices.SortFunc(vals[s], events.CompareValues)
		values := make([]string, len(vals[s]))
		for j, v := range vals[s] {
			values[j] = v.String()
		}
		what := "nothing"
		if len(values) > 0 {
			what = strings.Join(values, ", ")
		}
		out[i] = fmt.Sprintf("%s reads %s at %s: %s", threadName(lc.t, s.thread), strings.Join(names, " or "), s.pos, what)
	}
	return out
}

// appendNew appends the values not yet in vs.
func appendNew(vs []outcome.Value, more ...outcome.Value) []outcome.Value {
	for _, v := range more {
		if !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	return vs
}
