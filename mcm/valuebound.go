package mcm

import (
	"fmt"
	"slices"
	"strings"

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

// cutsByValues tells whether the values the test's reads may take keep
// every consistent execution from the cuts of u (retries cut off, as
// retryOptions unfolds): then the answer at u's bound holds for every
// bound. precision names the reads the proof rests on, with the values
// they may take. false when the model may let an execution justify a
// value by itself, or the search gives up.
func (lc *loopCheck) cutsByValues(u *events.Unfolding) (precision []string, ok bool) {
	if lc.justified == nil {
		why, unordered := acyclicJustification(lc.model, lc.t)
		lc.justified = &justification{why, unordered}
	}
	if lc.justified.why != "" {
		return nil, false
	}
	if len(u.Events) > maxValueEvents {
		return nil, false
	}
	if err := lc.analyseValues(u); err != nil {
		return nil, false // values past the analysis's limits: the engines would refuse them too
	}
	decisive, ok := u.CutsByValues(cutsBudget)
	if !ok {
		return nil, false
	}
	return lc.valuePrecision(decisive), true
}

// tightestByValues returns the least bound from from up to n at which
// cutsByValues holds, with its unfolding (u is n's): the engines then
// search no more iterations than the values allow (a proof at 8 of loops
// that run 4 times would have them encode 8).
func (lc *loopCheck) tightestByValues(from, n int, u *events.Unfolding, precision []string) (*events.Unfolding, int, []string, error) {
	for k := from; k < n; k++ {
		uk, err := events.UnfoldWith(lc.ctx, lc.t.Program, lc.retryOptions(k), lc.initRegs, lc.initMem)
		if err != nil {
			return nil, 0, nil, err
		}
		if len(uk.Retries) > 0 && retriesRemovable(lc.model, uk) != nil {
			continue
		}
		if p, ok := lc.cutsByValues(uk); ok {
			return uk, k, p, nil
		}
	}
	return u, n, precision, nil
}

// valuePrecision names the reads a proof by values rests on, once per
// instruction, with the location and every value their instances may
// read: "P0 reads y at T.litmus:8:2: 0, 1, 2".
func (lc *loopCheck) valuePrecision(reads []*events.Event) []string {
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
		locs[s] = appendNew(locs[s], r.Addr.Dom...)
		vals[s] = appendNew(vals[s], r.Val.Dom...)
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
