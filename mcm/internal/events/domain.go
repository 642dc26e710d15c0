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
// one term; past it, a new one merges with the kept one that shares the
// most reads with it, into one that passes through the reads both pass
// through, which forbids less. A merge forgets reads, so values may flow
// round a cycle of reads again, and domains grow each round: too small a
// bound costs more than it saves (a two-thread AArch64 CAS counter at
// --unroll 2: 179 values with 4, where all merged into one, and no answer;
// 10 values with 64 and an answer in a third of a second). Merging as
// derivations arrive bounds the work of each: an operation's derivations
// are the product of its operands'.
const maxVias = 64

// AnalyseValues computes every term's domain: the values it can take in
// some candidate execution.
func (u *Unfolding) AnalyseValues() error {
	return u.AnalyseValuesWith(context.Background(), ValueOptions{})
}

// ErrValuesBudget is AnalyseValuesWith's error when the analysis
// outgrows its budget.
var ErrValuesBudget = errors.New("the value analysis outgrew its budget")

// ValueOptions tune AnalyseValuesWith.
type ValueOptions struct {
	// Budget: the analysis gives up, returning ErrValuesBudget, once it
	// has derived more than Budget values with their reads (0: no
	// limit): the derivations of a long unfolding whose reads feed one
	// another grow fast (a lock's 32 failed attempts a thread: a third of
	// a minute), and a caller that only hopes for a proof from them can
	// do without.
	Budget int
	// Acyclic: the caller asks only about executions in which no value
	// flows round a cycle of path order and rf: the model's checks keep
	// po ∪ rf acyclic, and order a read before a write of its own
	// instruction whose value it computes. A read then takes no value
	// whose derivation passes through a read after it in its thread: the
	// later read's value flows, along path order and rf, into the write
	// the read reads, which closes a cycle. The analysis leaves such
	// derivations out, which keeps the domains of a counter's reads from
	// growing with every read of the unfolding; unless the unfolding may
	// meet a hazard (HazardFree), which herd7 stops on in any candidate
	// execution, consistent or not.
	Acyclic bool
}

// AnalyseValuesWith is AnalyseValues that gives up, returning ctx.Err(),
// when ctx is done.
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
func (u *Unfolding) AnalyseValuesWith(ctx context.Context, opt ValueOptions) error {
	a := newValueAnalysis(u, opt.Acyclic && u.HazardFree())
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
			if work += len(vals); opt.Budget > 0 && work > opt.Budget {
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

func (s readSet) intersect(o readSet) readSet {
	out := append(readSet(nil), s...)
	for i := range out {
		out[i] &= o[i]
	}
	return out
}

// sharedCount is the size of s ∩ o.
func (s readSet) sharedCount(o readSet) int {
	n := 0
	for i := range s {
		n += bits.OnesCount64(s[i] & o[i])
	}
	return n
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
	u     *Unfolding
	reads []*Event
	index map[*Event]int // read → its index in reads
	// barred, per read: the reads its value's derivation may not pass
	// through: those that cannot execute with it, and those after it in
	// its thread under ValueOptions.Acyclic.
	barred []readSet
	writes []*Event
	vals   [][]derived // per term
	empty  readSet
	// derived is derive's result, reused: most rounds derive what a term
	// had already.
	derived []derived
	acc     antichains // derive's working set
}

// newValueAnalysis readies the analysis of u's values; acyclic:
// ValueOptions.Acyclic, where no hazard can depend on it.
func newValueAnalysis(u *Unfolding, acyclic bool) *valueAnalysis {
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
	a.barred = make([]readSet, len(a.reads))
	for i, r := range a.reads {
		a.barred[i] = append(readSet(nil), a.empty...)
		for j, r2 := range a.reads {
			if !MayCoexist(r, r2) || acyclic && POOrdered(r, r2) {
				a.barred[i][j/64] |= 1 << (j % 64)
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
	c := &a.acc
	c.reset()
	switch t.Op {
	case TermRead:
		i := a.index[t.Read]
		if t.Read.IsReceive() {
			c.add(Nothing, c.with(a.empty, i)) // a receive may get nothing
		}
		for _, w := range a.writes {
			if !MayAlias(w.Addr, t.Read.Addr) || !MayCoexist(w, t.Read) || SameInstruction(w, t.Read) {
				continue
			}
			for _, d := range a.vals[w.Val.ID] {
				if d.via.has(i) || !d.via.disjoint(a.barred[i]) {
					continue // out of thin air, or through a read on another path or after it
				}
				c.add(d.v, c.with(d.via, i))
			}
		}
	case TermBinary:
		x, y := a.vals[t.Args[0].ID], a.vals[t.Args[1].ID]
		if t.Cancels() {
			if len(x) > 0 {
				c.add(outcome.Int(0), a.empty) // x^x needs no value of x
			}
			break
		}
		if t.Args[0] == t.Args[1] { // one term has one value
			for _, d := range x {
				if v, err := ApplyBinary(t.Bin, d.v, d.v); err == nil {
					c.add(v, d.via)
				}
			}
			break
		}
		// The operation applies once per pair of values, to every pair of
		// their derivations: x and y are sorted by value.
		for xs := range valueRuns(x) {
			for ys := range valueRuns(y) {
				v, err := ApplyBinary(t.Bin, xs[0].v, ys[0].v)
				if err != nil {
					continue
				}
				g := c.group(v)
				for _, dx := range xs {
					for _, dy := range ys {
						c.addTo(g, c.union(dx.via, dy.via))
					}
				}
			}
		}
	case TermUnary:
		for _, d := range a.vals[t.Args[0].ID] {
			if v, err := ApplyUnary(t.Un, d.v); err == nil {
				c.add(v, d.via)
			}
		}
	case TermPick:
		for _, d := range a.vals[t.Args[1].ID] {
			c.add(d.v, d.via)
		}
	case TermIte:
		for _, cond := range a.vals[t.Args[0].ID] {
			branch := t.Args[2]
			if Truth(cond.v) {
				branch = t.Args[1]
			}
			for _, d := range a.vals[branch.ID] {
				c.add(d.v, c.union(cond.via, d.via))
			}
		}
	}
	out := c.result(a.derived[:0])
	a.derived = out
	t.Dom = t.Dom[:0]
	for i, d := range out {
		if i == 0 || d.v != out[i-1].v {
			t.Dom = append(t.Dom, d.v)
		}
	}
	return out
}

// valueRuns yields the runs of derivations of one value in ds, sorted by
// value.
func valueRuns(ds []derived) func(yield func([]derived) bool) {
	return func(yield func([]derived) bool) {
		for lo := 0; lo < len(ds); {
			hi := lo + 1
			for hi < len(ds) && ds[hi].v == ds[lo].v {
				hi++
			}
			if !yield(ds[lo:hi]) {
				return
			}
			lo = hi
		}
	}
}

// antichains gathers one term's derivations: per value, the minimal read
// sets. A derivation arrives in a scratch set and is copied only when
// nothing kept subsumes it: an operation's derivations are the product
// of its operands', tens of thousands of which a handful survive.
type antichains struct {
	index   map[outcome.Value]int // value → its index in vals and sets
	vals    []outcome.Value
	sets    [][]readSet
	scratch readSet
}

func (c *antichains) reset() {
	if c.index == nil {
		c.index = map[outcome.Value]int{}
	}
	clear(c.index)
	c.vals = c.vals[:0]
}

// with returns s with read i, in the scratch set.
func (c *antichains) with(s readSet, i int) readSet {
	c.scratch = append(c.scratch[:0], s...)
	c.scratch[i/64] |= 1 << (i % 64)
	return c.scratch
}

// union returns s ∪ o, in the scratch set.
func (c *antichains) union(s, o readSet) readSet {
	c.scratch = c.scratch[:0]
	for i := range s {
		c.scratch = append(c.scratch, s[i]|o[i])
	}
	return c.scratch
}

// add records that v is derived through the reads of via, which it does
// not keep.
func (c *antichains) add(v outcome.Value, via readSet) { c.addTo(c.group(v), via) }

// group returns v's index in vals and sets.
func (c *antichains) group(v outcome.Value) int {
	i, ok := c.index[v]
	if !ok {
		i = len(c.vals)
		c.index[v] = i
		c.vals = append(c.vals, v)
		if i == len(c.sets) {
			c.sets = append(c.sets, nil)
		}
		c.sets[i] = c.sets[i][:0]
	}
	return i
}

// addTo records a derivation through the reads of via of the value of
// group i. A group that holds maxVias sets merges via into the one that
// shares the most reads with it, as their intersection.
func (c *antichains) addTo(i int, via readSet) {
	kept := c.sets[i]
	closest, shared := -1, -1
	for j, k := range kept {
		if k.subsetOf(via) {
			return
		}
		if len(kept) >= maxVias {
			if n := k.sharedCount(via); n > shared {
				closest, shared = j, n
			}
		}
	}
	if closest >= 0 {
		via = kept[closest].intersect(via)
	}
	n := 0
	for _, k := range kept {
		if !via.subsetOf(k) {
			kept[n] = k
			n++
		}
	}
	c.sets[i] = append(kept[:n], slices.Clone(via))
}

// result appends the derivations to out sorted by value, then by the size
// of their read set, then by the set.
func (c *antichains) result(out []derived) []derived {
	order := make([]int, len(c.vals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return CompareValues(c.vals[i], c.vals[j]) })
	for _, i := range order {
		v, sets := c.vals[i], c.sets[i]
		slices.SortFunc(sets, func(x, y readSet) int {
			if sx, sy := x.size(), y.size(); sx != sy {
				return cmp.Compare(sx, sy)
			}
			switch {
			case x.less(y):
				return -1
			case y.less(x):
				return 1
			}
			return 0
		})
		for _, s := range sets {
			out = append(out, derived{v, s})
		}
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
