package events

import (
	"slices"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// CutsByValues tells whether the values the reads may take (their
// domains, after AnalyseValues, which counts the writes of cut segments
// before their cut too) keep every path from the bound's cuts:
// for each cut leaf, no choice of a value of its domain for each read
// makes every assumption on the leaf's path (its branches, the values a
// successful compare-and-swap read) true. Each read is chosen on its own,
// as a thread would see it if any write of the domain could be read. It
// gives up (false) after budget choices in all.
//
// decisive are the reads whose assumptions the search evaluated, in the
// order of the unfolding: what the answer rests on. A read without values
// (a domain left empty) cannot execute, nor can a path through it.
//
// This is about the bounded program: that the answer holds for every
// bound needs more (see mcm's cutsByValues).
func (u *Unfolding) CutsByValues(budget int) (decisive []*Event, ok bool) {
	decisive, _, ok = u.CutsByDomains(budget, func(r *Event) ([]outcome.Value, bool) { return r.Val.Dom, true })
	return decisive, ok
}

// Domain gives the values a read may take, or false when it may take any.
type Domain func(read *Event) (vals []outcome.Value, ok bool)

// CutsByDomains is CutsByValues with the reads' values from dom: a read
// of any value is left unknown, and an assumption that needs it may hold.
// When some cut leaf's assumptions may hold, open lists the reads of any
// value they depend on: what a finer domain would have to fix.
func (u *Unfolding) CutsByDomains(budget int, dom Domain) (decisive, open []*Event, ok bool) {
	seen := map[*Event]bool{}
	for _, s := range u.Segments {
		if !s.Cut || s.Dead {
			continue
		}
		var assumes []*Term
		for p := s; p != nil; p = p.Parent {
			assumes = append(assumes, p.Assumes...)
		}
		search := newAssumeSearch(assumes, dom)
		if search.satisfiable(0, &budget) || budget < 0 {
			for i, r := range search.reads {
				if !search.bounded[i] {
					open = append(open, r.Read)
				}
			}
			return nil, open, false
		}
		for _, r := range search.reads {
			seen[r.Read] = true
		}
	}
	for _, e := range u.Events {
		if seen[e] {
			decisive = append(decisive, e)
		}
	}
	return decisive, nil, true
}

// assumeSearch looks for values of a path's reads, from their domains,
// that make its assumptions true: reads in path order, each assumption
// evaluated once the last read it depends on has its value.
type assumeSearch struct {
	reads   []*Term
	dom     [][]outcome.Value // per read: its values, when bounded
	bounded []bool
	due     [][]*Term // per read index: the assumptions its value completes
	always  []*Term   // assumptions that depend on no read
	value   map[*Term]outcome.Value
}

func newAssumeSearch(assumes []*Term, dom Domain) *assumeSearch {
	s := &assumeSearch{value: map[*Term]outcome.Value{}}
	readsOf := make([][]*Term, len(assumes))
	index := map[*Term]bool{}
	for i, a := range assumes {
		readsOf[i] = termReads(a, nil, map[*Term]bool{})
		for _, r := range readsOf[i] {
			if !index[r] {
				index[r] = true
				s.reads = append(s.reads, r)
			}
		}
	}
	slices.SortFunc(s.reads, func(a, b *Term) int { return a.Read.Depth - b.Read.Depth })
	position := map[*Term]int{}
	for i, r := range s.reads {
		position[r] = i
	}
	s.dom = make([][]outcome.Value, len(s.reads))
	s.bounded = make([]bool, len(s.reads))
	for i, r := range s.reads {
		s.dom[i], s.bounded[i] = dom(r.Read)
	}
	s.due = make([][]*Term, len(s.reads))
	for i, a := range assumes {
		last := -1
		for _, r := range readsOf[i] {
			last = max(last, position[r])
		}
		if last < 0 {
			s.always = append(s.always, a)
		} else {
			s.due[last] = append(s.due[last], a)
		}
	}
	return s
}

// termReads appends the read terms t is computed from.
func termReads(t *Term, out []*Term, visited map[*Term]bool) []*Term {
	if visited[t] {
		return out
	}
	visited[t] = true
	if t.Op == TermRead {
		return append(out, t)
	}
	for _, a := range t.Args {
		out = termReads(a, out, visited)
	}
	return out
}

// satisfiable tells whether values of reads[i:] make the assumptions
// true, the earlier reads holding theirs; each value tried costs budget.
func (s *assumeSearch) satisfiable(i int, budget *int) bool {
	if i == 0 && !mayHold(s.always, s.value) {
		return false
	}
	if i == len(s.reads) {
		return true
	}
	r := s.reads[i]
	if !s.bounded[i] {
		return mayHold(s.due[i], s.value) && s.satisfiable(i+1, budget) // any value: left unknown
	}
	for _, v := range s.dom[i] {
		if *budget--; *budget < 0 {
			return false
		}
		s.value[r] = v
		if mayHold(s.due[i], s.value) && s.satisfiable(i+1, budget) {
			return true
		}
	}
	delete(s.value, r)
	return false
}

// mayHold tells whether every assumption may be true with the values
// known gives reads: one that needs another read, or whose operation is
// undefined for them, may (herd7 would stop there, which is no answer a
// search may rule out).
func mayHold(assumes []*Term, known map[*Term]outcome.Value) bool {
	for _, a := range assumes {
		if v, ok := termValue(a, known, true); ok && !Truth(v) {
			return false
		}
	}
	return true
}
