package eval

import (
	"cmp"
	"slices"
	"sort"
)

// The algebra of sets and relations over the events of one unfolding,
// generic over its literals: a set of events is a literal per event, a
// relation a literal per pair that may be related. A literal says when the
// element belongs: over the SAT solver's literals (the SAT engine) in
// terms of the candidate execution's variables, over booleans (the
// explicit engine) in one execution.
//
// Invariant: every member is executed. Base sets and relations are built
// with their events' exec literals, union, intersection, difference,
// composition and closure keep the invariant, and complements re-impose it.

// Logic is what the algebra needs of its literals: constants, the
// connectives, and whether a literal holds in some execution.
type Logic[L comparable] interface {
	True() L
	False() L
	Not(a L) L
	And(a, b L) L
	Or(a, b L) L
	Xor(a, b L) L
	All(lits []L) L // the conjunction of lits (true when empty)
	Any(lits []L) L // the disjunction of lits (false when empty)
	// Satisfiable tells whether the literal holds in some execution; the
	// evaluator asks it whether two rounds of a fixpoint may differ.
	Satisfiable(a L) bool
}

// Set is a set of events: Set[i] says when event i belongs.
type Set[L comparable] []L

// Pair is a pair of events of a relation, by ID.
type Pair struct{ A, B int32 }

// PairOf is the pair of events a, b.
func PairOf(a, b int) Pair { return Pair{int32(a), int32(b)} }

// Rel is a relation over events; absent pairs are never related.
type Rel[L comparable] map[Pair]L

// Algebra builds sets and relations over the events of one unfolding.
type Algebra[L comparable] struct {
	lg   Logic[L]
	t, f L   // lg.True(), lg.False()
	Exec []L // per event: when it executes
	// DifferentValues, set by the engine, says when events a and b carry
	// different values (herd's different-values; an event without a value
	// differs from every event).
	DifferentValues func(a, b int) L

	// What a run of a model over the algebra found (see Choices, ReadsCo).
	choices []L
	readsCo bool

	// Scratch of the operations below, kept between calls: a model runs
	// thousands of them on each test. No operation calls another while it
	// uses them.
	pairs  [2][]Pair
	starts []int32
	terms  [][]L
	met    []int32
	lits   []L
	found  []relEntry[L]
}

// relEntry is a pair of a relation being built and its literal: gathered
// first, so that the relation's map is made at its size, not grown.
type relEntry[L comparable] struct {
	k Pair
	l L
}

// sorted lists x's pairs as SortedPairs does, into the scratch slice
// al.pairs[i], valid until the next call with i.
func (al *Algebra[L]) sorted(i int, x Rel[L]) []Pair {
	ks := al.pairs[i][:0]
	for k := range x {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, comparePairs)
	al.pairs[i] = ks
	return ks
}

// Choices are the selectors of the model's "with x from S" choices (those
// a Chooser made, that are no constants): an engine enumerates them with
// the execution, so that each choice that passes counts, as in herd7.
func (al *Algebra[L]) Choices() []L { return al.choices }

// ReadsCo tells whether the model read the engine's co, or a relation
// derived from it (fr, coe, coi, fre, fri), or bound it with "with co
// from". herd7 builds no co for a model that does not: it tells
// executions apart by rf and the final writes of the observed locations
// only, and so must an engine counting them.
func (al *Algebra[L]) ReadsCo() bool { return al.readsCo }

// NewAlgebra is the algebra of the events whose execution exec gives.
func NewAlgebra[L comparable](lg Logic[L], exec []L) *Algebra[L] {
	return &Algebra[L]{lg: lg, t: lg.True(), f: lg.False(), Exec: exec}
}

func (al *Algebra[L]) n() int { return len(al.Exec) }

// differences returns literals of which one holds exactly when two sets or
// two relations (or the empty value "0") differ; ok is false for other
// values.
func (al *Algebra[L]) differences(a, b value) (lits []L, ok bool) {
	if _, empty := a.(emptyVal); empty {
		a, b = b, a
	}
	switch a := a.(type) {
	case emptyVal:
		_, empty := b.(emptyVal)
		return nil, empty
	case Set[L]:
		other, isSet := b.(Set[L])
		if _, empty := b.(emptyVal); empty {
			other, isSet = al.EmptySet(), true
		}
		if !isSet {
			return nil, false
		}
		for i := range a {
			lits = append(lits, al.lg.Xor(a[i], other[i]))
		}
		return lits, true
	case Rel[L]:
		other, isRel := b.(Rel[L])
		if _, empty := b.(emptyVal); empty {
			other, isRel = Rel[L]{}, true
		}
		if !isRel {
			return nil, false
		}
		// Sorted, as everywhere gates are built, so that a run numbers
		// its variables as the last one did (the Or of the lits sorts
		// them itself).
		for _, p := range SortedPairs(a) {
			o, in := other[p]
			if !in {
				o = al.f
			}
			lits = append(lits, al.lg.Xor(a[p], o))
		}
		for p, l := range other {
			if _, seen := a[p]; !seen {
				lits = append(lits, l)
			}
		}
		return lits, true
	}
	return nil, false
}

// EmptySet is the set without members.
func (al *Algebra[L]) EmptySet() Set[L] {
	s := make(Set[L], al.n())
	for i := range s {
		s[i] = al.f
	}
	return s
}

func (al *Algebra[L]) universe() Set[L] { return append(Set[L](nil), al.Exec...) }

func (al *Algebra[L]) setUnion(x, y Set[L]) Set[L] {
	out := make(Set[L], len(x))
	for i := range x {
		out[i] = al.lg.Or(x[i], y[i])
	}
	return out
}

func (al *Algebra[L]) setInter(x, y Set[L]) Set[L] {
	out := make(Set[L], len(x))
	for i := range x {
		out[i] = al.lg.And(x[i], y[i])
	}
	return out
}

func (al *Algebra[L]) setDiff(x, y Set[L]) Set[L] {
	out := make(Set[L], len(x))
	for i := range x {
		out[i] = al.lg.And(x[i], al.lg.Not(y[i]))
	}
	return out
}

func (al *Algebra[L]) setComplement(x Set[L]) Set[L] { return al.setDiff(al.Exec, x) }

// Put adds lit to the pair (a, b), or-ing it with what is there.
func (al *Algebra[L]) Put(r Rel[L], a, b int, lit L) {
	if lit == al.f {
		return
	}
	k := Pair{int32(a), int32(b)}
	if old, ok := r[k]; ok {
		lit = al.lg.Or(old, lit)
	}
	r[k] = lit
}

// The operations on two relations build formulas only for the pairs both
// have, which they visit in a fixed order (so that the formula, and the
// solver's behaviour, are reproducible); the others they copy in any
// order.

// common lists the pairs both x and y have, as SortedPairs does, into the
// scratch slice al.pairs[0].
func (al *Algebra[L]) common(x, y Rel[L]) []Pair {
	if len(y) < len(x) {
		x, y = y, x
	}
	ks := al.pairs[0][:0]
	for k := range x {
		if _, ok := y[k]; ok {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, comparePairs)
	al.pairs[0] = ks
	return ks
}

func (al *Algebra[L]) union(x, y Rel[L]) Rel[L] {
	out := make(Rel[L], len(x)+len(y))
	for k, l := range x {
		out[k] = l
	}
	for k, l := range y {
		if _, both := x[k]; !both && l != al.f {
			out[k] = l
		}
	}
	for _, k := range al.common(x, y) {
		al.Put(out, int(k.A), int(k.B), y[k])
	}
	return out
}

func (al *Algebra[L]) inter(x, y Rel[L]) Rel[L] {
	if len(y) < len(x) {
		x, y = y, x
	}
	out := make(Rel[L])
	for _, k := range al.common(x, y) {
		if g := al.lg.And(x[k], y[k]); g != al.f {
			out[k] = g
		}
	}
	return out
}

// Diff is x \ y.
func (al *Algebra[L]) Diff(x, y Rel[L]) Rel[L] {
	out := make(Rel[L], len(x))
	for k, l := range x {
		if _, both := y[k]; !both && l != al.f {
			out[k] = l
		}
	}
	for _, k := range al.common(x, y) {
		if l := al.lg.And(x[k], al.lg.Not(y[k])); l != al.f {
			out[k] = l
		}
	}
	return out
}

// inverse is x^-1.
func (al *Algebra[L]) inverse(x Rel[L]) Rel[L] {
	out := make(Rel[L], len(x))
	for k, l := range x {
		out[Pair{k.B, k.A}] = l
	}
	return out
}

// rowStarts indexes sorted pairs by their first component, into the
// scratch slice al.starts: the pairs of a are ks[starts[a]:starts[a+1]]
// (see row).
func (al *Algebra[L]) rowStarts(ks []Pair) []int32 {
	n := 0
	if len(ks) > 0 {
		n = int(ks[len(ks)-1].A) + 1
	}
	starts := slices.Grow(al.starts[:0], n+1)[:n+1]
	i := 0
	for a := range n + 1 {
		starts[a] = int32(i)
		for i < len(ks) && int(ks[i].A) == a {
			i++
		}
	}
	al.starts = starts
	return starts
}

// row returns the pairs of sorted pairs ks whose first component is a,
// given their rowStarts.
func row(ks []Pair, starts []int32, a int32) []Pair {
	if int(a)+1 >= len(starts) {
		return nil
	}
	return ks[starts[a]:starts[a+1]]
}

// comparePairs orders pairs by their first event, then their second.
func comparePairs(p, q Pair) int {
	if p.A != q.A {
		return cmp.Compare(p.A, q.A)
	}
	return cmp.Compare(p.B, q.B)
}

// SortedPairs lists a relation's pairs in a fixed order, so that the
// formula built from it (and so the solver's behaviour) is reproducible.
func SortedPairs[L comparable](x Rel[L]) []Pair {
	ks := make([]Pair, 0, len(x))
	for k := range x {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, comparePairs)
	return ks
}

// seq composes: (x;y)(a,c) when x(a,b) and y(b,c) for some b.
func (al *Algebra[L]) seq(x, y Rel[L]) Rel[L] {
	ys := al.sorted(1, y)
	yStarts := al.rowStarts(ys)
	found := al.found[:0]
	// The pairs of x come sorted by their first event: the terms of the
	// pairs (a, c) of one a are gathered per c, in a slice indexed by
	// event, in the order they are met, as are the cs.
	terms, met := al.terms, al.met[:0]
	ks := al.sorted(0, x)
	for i := 0; i < len(ks); {
		a := ks[i].A
		for ; i < len(ks) && ks[i].A == a; i++ {
			k := ks[i]
			for _, k2 := range row(ys, yStarts, k.B) {
				c := k2.B
				if int(c) >= len(terms) {
					terms = append(terms, make([][]L, int(c)+1-len(terms))...)
				}
				if len(terms[c]) == 0 {
					met = append(met, c)
				}
				terms[c] = append(terms[c], al.lg.And(x[k], y[k2]))
			}
		}
		for _, c := range met {
			if l := al.lg.Any(terms[c]); l != al.f {
				found = append(found, relEntry[L]{Pair{a, c}, l})
			}
			terms[c] = terms[c][:0]
		}
		met = met[:0]
	}
	al.terms, al.met, al.found = terms, met, found
	out := make(Rel[L], len(found))
	for _, e := range found {
		out[e.k] = e.l
	}
	return out
}

// seqWithin is mask & (x; y), composed only over the pairs of mask.
func (al *Algebra[L]) seqWithin(x, y, mask Rel[L]) Rel[L] {
	xs := al.sorted(1, x)
	xStarts := al.rowStarts(xs)
	out := make(Rel[L])
	terms := al.lits
	for _, k := range al.sorted(0, mask) {
		terms = terms[:0]
		for _, k1 := range row(xs, xStarts, k.A) {
			if l, ok := y[Pair{k1.B, k.B}]; ok {
				terms = append(terms, al.lg.And(x[k1], l))
			}
		}
		if g := al.lg.And(mask[k], al.lg.Any(terms)); g != al.f {
			out[k] = g
		}
	}
	al.lits = terms
	return out
}

func (al *Algebra[L]) cross(x, y Set[L]) Rel[L] {
	out := make(Rel[L])
	for i, a := range x {
		if a == al.f {
			continue
		}
		for j, b := range y {
			if b == al.f {
				continue
			}
			if l := al.lg.And(a, b); l != al.f {
				out[Pair{int32(i), int32(j)}] = l
			}
		}
	}
	return out
}

// Identity is [x]: each member of x related to itself.
func (al *Algebra[L]) Identity(x Set[L]) Rel[L] {
	n := 0
	for _, a := range x {
		if a != al.f {
			n++
		}
	}
	out := make(Rel[L], n)
	for i, a := range x {
		if a != al.f {
			out[Pair{int32(i), int32(i)}] = a
		}
	}
	return out
}

// Complement is ~x: the pairs of executed events x does not relate.
func (al *Algebra[L]) Complement(x Rel[L]) Rel[L] {
	// As Diff(cross(Exec, Exec), x), in the same order of operations (so
	// the same formula), without building the cross product as a map.
	n := al.n()
	both := slices.Grow(al.lits[:0], n*n)[:n*n]
	for i, a := range al.Exec {
		for j, b := range al.Exec {
			both[i*n+j] = al.f
			if a != al.f && b != al.f {
				both[i*n+j] = al.lg.And(a, b)
			}
		}
	}
	al.lits = both
	out := make(Rel[L], max(n*n-len(x), 0))
	for i, l := range both {
		if l == al.f {
			continue
		}
		k := Pair{int32(i / n), int32(i % n)}
		if m, ok := x[k]; ok {
			l = al.lg.And(l, al.lg.Not(m))
		}
		if l != al.f {
			out[k] = l
		}
	}
	return out
}

func (al *Algebra[L]) domain(x Rel[L]) Set[L] {
	terms := make([][]L, al.n())
	for _, k := range SortedPairs(x) {
		terms[k.A] = append(terms[k.A], x[k])
	}
	out := make(Set[L], al.n())
	for i := range out {
		out[i] = al.lg.Any(terms[i])
	}
	return out
}

func (al *Algebra[L]) rng(x Rel[L]) Set[L] { return al.domain(al.inverse(x)) }

// closure is the transitive closure x⁺, encoded exactly (it may be used
// under negation) by Floyd–Warshall over the events that have both a
// predecessor and a successor: t_k(i,j) = t(i,j) ∨ (t(i,k) ∧ t(k,j)).
func (al *Algebra[L]) closure(x Rel[L]) Rel[L] {
	t := make(Rel[L], len(x))
	for k, l := range x {
		t[k] = l
	}
	in, out := map[int32]bool{}, map[int32]bool{}
	for k := range x {
		out[k.A], in[k.B] = true, true
	}
	var mids []int32
	for v := range in {
		if out[v] {
			mids = append(mids, v)
		}
	}
	slices.Sort(mids)
	// The predecessors and successors of each event in t, kept as t
	// grows, instead of sorting all of t's pairs for each middle event.
	preds, succs := map[int32][]int32{}, map[int32][]int32{}
	for k := range t {
		preds[k.B] = append(preds[k.B], k.A)
		succs[k.A] = append(succs[k.A], k.B)
	}
	for _, m := range mids {
		ps, ss := slices.Clone(preds[m]), slices.Clone(succs[m])
		slices.Sort(ps)
		slices.Sort(ss)
		for _, a := range ps {
			for _, b := range ss {
				k := Pair{a, b}
				_, had := t[k]
				al.Put(t, int(a), int(b), al.lg.And(t[Pair{a, m}], t[Pair{m, b}]))
				if _, has := t[k]; has && !had {
					preds[b] = append(preds[b], a)
					succs[a] = append(succs[a], b)
				}
			}
		}
	}
	return t
}

// reflexiveClosure is x* = x⁺ ∪ id over executed events.
func (al *Algebra[L]) reflexiveClosure(x Rel[L]) Rel[L] {
	return al.union(al.closure(x), al.Identity(al.Exec))
}

// isEmpty is true when no Pair is related.
func (al *Algebra[L]) isEmpty(x Rel[L]) L {
	lits := make([]L, 0, len(x))
	for _, k := range SortedPairs(x) {
		lits = append(lits, al.lg.Not(x[k]))
	}
	return al.lg.All(lits)
}

func (al *Algebra[L]) isEmptySet(x Set[L]) L {
	lits := make([]L, len(x))
	for i, l := range x {
		lits[i] = al.lg.Not(l)
	}
	return al.lg.All(lits)
}

func (al *Algebra[L]) irreflexive(x Rel[L]) L {
	var lits []L
	for _, k := range SortedPairs(x) {
		if k.A == k.B {
			lits = append(lits, al.lg.Not(x[k]))
		}
	}
	return al.lg.All(lits)
}

func (al *Algebra[L]) acyclic(x Rel[L]) L { return al.irreflexive(al.closure(x)) }

// Fuse returns the view of an execution in which each event w of into is
// one with the event into[w]: the latter is in every set either is in and
// relates as either does, w is in nothing, and a pair of the two is
// dropped unless the relation holds every event with itself (reflexive:
// id, loc, int, ...). herd7 builds a C11 read-modify-write as one event
// that reads and writes; purr builds a read and a write, and fuses them
// for the model.
func (al *Algebra[L]) Fuse(into map[int]int, sets map[string]Set[L], rels map[string]Rel[L], reflexive func(name string) bool) (*Algebra[L], map[string]Set[L], map[string]Rel[L]) {
	rep := func(e int) int {
		if r, ok := into[e]; ok {
			return r
		}
		return e
	}
	halves := make([]int, 0, len(into))
	for w := range into {
		halves = append(halves, w)
	}
	sort.Ints(halves)
	fuseSet := func(s Set[L]) Set[L] {
		out := append(Set[L](nil), s...)
		for _, w := range halves {
			r := into[w]
			out[r] = al.lg.Or(out[r], out[w])
			out[w] = al.f
		}
		return out
	}
	fused := NewAlgebra[L](al.lg, fuseSet(al.Exec))
	fused.DifferentValues = al.DifferentValues // a fused pair keeps its read's index
	outSets := make(map[string]Set[L], len(sets))
	for name, s := range sets {
		outSets[name] = fuseSet(s)
	}
	outRels := make(map[string]Rel[L], len(rels))
	for name, r := range rels {
		keepSelf := reflexive(name)
		out := make(Rel[L], len(r))
		for _, k := range SortedPairs(r) {
			a, b := rep(int(k.A)), rep(int(k.B))
			if a == b && k.A != k.B && !keepSelf {
				continue
			}
			fused.Put(out, a, b, r[k])
		}
		outRels[name] = out
	}
	return fused, outSets, outRels
}
