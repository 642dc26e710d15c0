package events

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// maxDomain bounds the values one term may take: a test whose value
// analysis goes past it is refused. It guards the cost of the analysis and
// of the one-hot encoding, which tabulates an operation over every pair of
// its operands' values. Litmus tests are far below it: no term of purr's
// corpora takes more than 7 values.
const maxDomain = 1024

// maxVias bounds the derivations the analysis keeps apart for one value of
// one term; past it, they merge into one that passes through only the
// reads all of them pass through, which forbids less.
const maxVias = 4

// AnalyseValues computes every term's domain: the values it can take in
// some candidate execution.
func (u *Unfolding) AnalyseValues() error { return u.AnalyseValuesContext(context.Background()) }

// AnalyseValuesContext is AnalyseValues that gives up, returning
// ctx.Err(), when ctx is done.
func (u *Unfolding) AnalyseValuesContext(ctx context.Context) error {
	return u.AnalyseValuesWithin(ctx, 0)
}

// ErrValuesBudget is AnalyseValuesWithin's error when the analysis
// outgrows its budget.
var ErrValuesBudget = errors.New("the value analysis outgrew its budget")

// AnalyseValuesWithin is AnalyseValuesContext that gives up, returning
// ErrValuesBudget, once it has derived more than budget values with their
// reads (0: no limit): the derivations of a long unfolding whose reads
// feed one another grow fast (a lock's 32 failed attempts a thread: a
// third of a minute), and a caller that only hopes for a proof from
// them can do without.
//
// Values flow as the engines compute them: a read returns the value of the
// write it reads from, an operation applies to its operands' values. The
// analysis follows every such derivation, and records with each value the
// reads its derivation passes through. A read can take a value only from a
// write that may execute with it (not on another branch of its thread,
// not of its own instruction), and only when the write's value was
// derived neither through the read itself (the read would justify its own
// value, out of thin air: both engines refute that) nor through a read
// that cannot execute with it. Without these restrictions, read-modify-
// write increments feed each other in a circle and their domains grow
// without bound. It iterates to a fixpoint.
func (u *Unfolding) AnalyseValuesWithin(ctx context.Context, budget int) error {
	a := newValueAnalysis(u)
	// A derivation that passes through each read at most once is found
	// after at most one round per read (each round extends every derivation
	// by at least one read), so the rounds beyond that can only add the
	// values of derivations merged by maxVias: the analysis stops there.
	rounds := len(a.reads) + 2
	work := 0 // the values derived so far, with their reads
	// A term whose inputs kept their values since it was last derived
	// derives what it has: it is skipped, and counts as derived.
	// Versions order the derivations and changes.
	version := 0
	derivedAt := make([]int, len(u.Terms))
	changedAt := make([]int, len(u.Terms))
	for changed := true; changed && rounds > 0; rounds-- {
		changed = false
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, t := range u.Terms {
			if t.Op == TermConst {
				continue
			}
			var vals []derived
			if derivedAt[t.ID] > 0 && !a.inputsChanged(t, derivedAt[t.ID], changedAt) {
				vals = a.vals[t.ID]
			} else {
				version++
				derivedAt[t.ID] = version
				vals = a.derive(t)
			}
			if work += len(vals); budget > 0 && work > budget {
				return ErrValuesBudget
			}
			if len(t.Dom) > maxDomain {
				return fmt.Errorf("the value of %v may take more than %d values", t, maxDomain)
			}
			if !equalDerived(vals, a.vals[t.ID]) {
				a.vals[t.ID] = slices.Clone(vals)
				changedAt[t.ID] = version
				changed = true
			}
		}
	}
	return nil
}

// inputsChanged tells whether a term's derivation may give something new
// since it was last derived, at version since: the values of its operands
// changed, or for a read, those of its address or of a write's address or
// value.
func (a *valueAnalysis) inputsChanged(t *Term, since int, changedAt []int) bool {
	if t.Op != TermRead {
		for _, x := range t.Args {
			if changedAt[x.ID] > since {
				return true
			}
		}
		return false
	}
	if changedAt[t.Read.Addr.ID] > since {
		return true
	}
	for _, w := range a.writes {
		if changedAt[w.Addr.ID] > since || changedAt[w.Val.ID] > since {
			return true
		}
	}
	return false
}

// readSet is a set of reads, by their index in valueAnalysis.reads.
type readSet []uint64

func (s readSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

func (s readSet) with(i int) readSet {
	out := append(readSet(nil), s...)
	out[i/64] |= 1 << (i % 64)
	return out
}

func (s readSet) union(o readSet) readSet {
	out := append(readSet(nil), s...)
	for i := range out {
		out[i] |= o[i]
	}
	return out
}

func (s readSet) intersect(o readSet) readSet {
	out := append(readSet(nil), s...)
	for i := range out {
		out[i] &= o[i]
	}
	return out
}

func (s readSet) subsetOf(o readSet) bool {
	for i := range s {
		if s[i]&^o[i] != 0 {
			return false
		}
	}
	return true
}

func (s readSet) disjoint(o readSet) bool {
	for i := range s {
		if s[i]&o[i] != 0 {
			return false
		}
	}
	return true
}

func (s readSet) less(o readSet) bool {
	for i := range s {
		if s[i] != o[i] {
			return s[i] < o[i]
		}
	}
	return false
}

func (s readSet) size() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// derived is one value of a term with the reads its derivation passes
// through.
type derived struct {
	v   outcome.Value
	via readSet
}

// valueAnalysis holds the analysis's state: per term, its derived values,
// sorted by value, with for each value an antichain of read sets (a
// derivation through fewer reads allows more, so it subsumes the others).
type valueAnalysis struct {
	u      *Unfolding
	reads  []*Event
	index  map[*Event]int // read → its index in reads
	apart  []readSet      // per read: the reads that cannot execute with it
	writes []*Event
	vals   [][]derived // per term
	empty  readSet
	// derived is derive's result, reused: most rounds derive what a term
	// had already.
	derived []derived
}

func newValueAnalysis(u *Unfolding) *valueAnalysis {
	a := &valueAnalysis{u: u, index: map[*Event]int{}, vals: make([][]derived, len(u.Terms))}
	for _, e := range u.Events {
		switch {
		case e.IsRead():
			a.index[e] = len(a.reads)
			a.reads = append(a.reads, e)
		case e.IsWrite():
			a.writes = append(a.writes, e)
		}
	}
	a.empty = make(readSet, (len(a.reads)+63)/64)
	a.apart = make([]readSet, len(a.reads))
	for i, r := range a.reads {
		a.apart[i] = append(readSet(nil), a.empty...)
		for j, r2 := range a.reads {
			if !MayCoexist(r, r2) {
				a.apart[i][j/64] |= 1 << (j % 64)
			}
		}
	}
	for _, t := range u.Terms {
		t.Dom = nil
		if t.Op == TermConst {
			t.Dom = []outcome.Value{t.Val}
			a.vals[t.ID] = []derived{{t.Val, a.empty}}
		}
	}
	return a
}

// derive computes a term's derived values from the current ones of its
// operands (of the writes it may read from, for a read), and sets its
// domain. The result is valid until the next call.
func (a *valueAnalysis) derive(t *Term) []derived {
	out := a.derived[:0]
	switch t.Op {
	case TermRead:
		i := a.index[t.Read]
		if t.Read.IsReceive() {
			out = append(out, derived{Nothing, a.empty.with(i)}) // a receive may get nothing
		}
		for _, w := range a.writes {
			if !MayAlias(w.Addr, t.Read.Addr) || !MayCoexist(w, t.Read) || SameInstruction(w, t.Read) {
				continue
			}
			for _, d := range a.vals[w.Val.ID] {
				if d.via.has(i) || !d.via.disjoint(a.apart[i]) {
					continue // out of thin air, or through a read on another path
				}
				out = append(out, derived{d.v, d.via.with(i)})
			}
		}
	case TermBinary:
		x, y := a.vals[t.Args[0].ID], a.vals[t.Args[1].ID]
		if t.Cancels() {
			if len(x) > 0 {
				out = append(out, derived{outcome.Int(0), a.empty}) // x^x needs no value of x
			}
			break
		}
		for i, dx := range x {
			for j, dy := range y {
				if t.Args[0] == t.Args[1] && i != j {
					continue // one term has one value
				}
				if v, err := ApplyBinary(t.Bin, dx.v, dy.v); err == nil {
					out = append(out, derived{v, dx.via.union(dy.via)})
				}
			}
		}
	case TermUnary:
		for _, d := range a.vals[t.Args[0].ID] {
			if v, err := ApplyUnary(t.Un, d.v); err == nil {
				out = append(out, derived{v, d.via})
			}
		}
	case TermPick:
		out = append(out, a.vals[t.Args[1].ID]...)
	case TermIte:
		for _, c := range a.vals[t.Args[0].ID] {
			branch := t.Args[2]
			if Truth(c.v) {
				branch = t.Args[1]
			}
			for _, d := range a.vals[branch.ID] {
				out = append(out, derived{d.v, c.via.union(d.via)})
			}
		}
	}
	out = minimalDerived(out)
	a.derived = out
	t.Dom = t.Dom[:0]
	for i, d := range out {
		if i == 0 || d.v != out[i-1].v {
			t.Dom = append(t.Dom, d.v)
		}
	}
	return out
}

// minimalDerived sorts derived values and keeps, per value, the minimal
// read sets, at most maxVias of them, in place: the result shares ds's
// storage.
func minimalDerived(ds []derived) []derived {
	// Elements no order tells apart are equal: any sort gives one result.
	slices.SortFunc(ds, func(x, y derived) int {
		if x.v != y.v {
			return CompareValues(x.v, y.v)
		}
		if sx, sy := x.via.size(), y.via.size(); sx != sy {
			return cmp.Compare(sx, sy)
		}
		switch {
		case x.via.less(y.via):
			return -1
		case y.via.less(x.via):
			return 1
		}
		return 0
	})
	// A value's kept derivations are written over those already read.
	out := ds[:0]
	for lo := 0; lo < len(ds); {
		v := ds[lo].v
		hi := lo
		for hi < len(ds) && ds[hi].v == v {
			hi++
		}
		start := len(out)
		for _, d := range ds[lo:hi] { // smaller sets first: only they can subsume
			subsumed := false
			for _, kept := range out[start:] {
				if kept.via.subsetOf(d.via) {
					subsumed = true
					break
				}
			}
			if !subsumed {
				out = append(out, d)
			}
		}
		if len(out)-start > maxVias {
			merged := out[start].via
			for _, d := range out[start+1:] {
				merged = merged.intersect(d.via)
			}
			out = append(out[:start], derived{v, merged})
		}
		lo = hi
	}
	return out
}

func equalDerived(a, b []derived) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].v != b[i].v || a[i].via.less(b[i].via) || b[i].via.less(a[i].via) {
			return false
		}
	}
	return true
}

// MayAlias tells whether two address terms may hold the same address.
func MayAlias(a, b *Term) bool {
	for _, v := range a.Dom {
		if containsValue(b.Dom, v) {
			return true
		}
	}
	return false
}

func containsValue(sorted []outcome.Value, v outcome.Value) bool {
	lo, hi := 0, len(sorted)
	for lo < hi {
		m := (lo + hi) / 2
		if lessValue(sorted[m], v) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(sorted) && sorted[lo] == v
}
