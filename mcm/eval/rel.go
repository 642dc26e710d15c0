package eval

import (
	"sort"

	"github.com/purr-mcm/purr/mcm/sat"
)

// The symbolic algebra: a set of events is a literal per event, a relation
// a literal per pair that may be related. A literal says when the element
// belongs, in terms of the candidate execution's variables; constant
// literals make the same code the concrete algebra of one execution.
//
// Invariant: every member is executed. Base sets and relations are built
// with their events' exec literals, union, intersection, difference,
// composition and closure keep the invariant, and complements re-impose it.

// Set is a set of events: Set[i] says when event i belongs.
type Set []sat.Lit

type pair struct{ a, b int32 }

// Rel is a relation over events; absent pairs are never related.
type Rel map[pair]sat.Lit

// algebra builds sets and relations over the n events of one unfolding.
type algebra struct {
	s    *sat.Solver
	exec []sat.Lit // per event
}

func (al *algebra) n() int { return len(al.exec) }

// differences returns literals of which one holds exactly when two sets or
// two relations (or the empty value "0") differ; ok is false for other
// values.
func (al *algebra) differences(a, b value) (lits []sat.Lit, ok bool) {
	if _, empty := a.(emptyVal); empty {
		a, b = b, a
	}
	switch a := a.(type) {
	case emptyVal:
		_, empty := b.(emptyVal)
		return nil, empty
	case Set:
		other, isSet := b.(Set)
		if _, empty := b.(emptyVal); empty {
			other, isSet = al.emptySet(), true
		}
		if !isSet {
			return nil, false
		}
		for i := range a {
			lits = append(lits, al.s.Xor(a[i], other[i]))
		}
		return lits, true
	case Rel:
		other, isRel := b.(Rel)
		if _, empty := b.(emptyVal); empty {
			other, isRel = Rel{}, true
		}
		if !isRel {
			return nil, false
		}
		// Sorted, as everywhere gates are built, so that a run numbers
		// its variables as the last one did (the Or of the lits sorts
		// them itself).
		for _, p := range sortedPairs(a) {
			o, in := other[p]
			if !in {
				o = sat.False
			}
			lits = append(lits, al.s.Xor(a[p], o))
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

func (al *algebra) emptySet() Set {
	s := make(Set, al.n())
	for i := range s {
		s[i] = sat.False
	}
	return s
}

func (al *algebra) universe() Set { return append(Set(nil), al.exec...) }

func (al *algebra) setUnion(x, y Set) Set {
	out := make(Set, len(x))
	for i := range x {
		out[i] = al.s.Or(x[i], y[i])
	}
	return out
}

func (al *algebra) setInter(x, y Set) Set {
	out := make(Set, len(x))
	for i := range x {
		out[i] = al.s.And(x[i], y[i])
	}
	return out
}

func (al *algebra) setDiff(x, y Set) Set {
	out := make(Set, len(x))
	for i := range x {
		out[i] = al.s.And(x[i], -y[i])
	}
	return out
}

func (al *algebra) setComplement(x Set) Set { return al.setDiff(al.exec, x) }

// put adds lit to the pair, or-ing it with what is there.
func (al *algebra) put(r Rel, a, b int, lit sat.Lit) {
	if lit == sat.False {
		return
	}
	k := pair{int32(a), int32(b)}
	if old, ok := r[k]; ok {
		lit = al.s.Or(old, lit)
	}
	r[k] = lit
}

func (al *algebra) union(x, y Rel) Rel {
	out := make(Rel, len(x)+len(y))
	for k, l := range x {
		out[k] = l
	}
	for _, k := range sortedPairs(y) {
		al.put(out, int(k.a), int(k.b), y[k])
	}
	return out
}

func (al *algebra) inter(x, y Rel) Rel {
	if len(y) < len(x) {
		x, y = y, x
	}
	out := make(Rel)
	for _, k := range sortedPairs(x) {
		if m, ok := y[k]; ok {
			if g := al.s.And(x[k], m); g != sat.False {
				out[k] = g
			}
		}
	}
	return out
}

func (al *algebra) diff(x, y Rel) Rel {
	out := make(Rel, len(x))
	for _, k := range sortedPairs(x) {
		l := x[k]
		if m, ok := y[k]; ok {
			l = al.s.And(l, -m)
		}
		if l != sat.False {
			out[k] = l
		}
	}
	return out
}

func (al *algebra) inverse(x Rel) Rel {
	out := make(Rel, len(x))
	for k, l := range x {
		out[pair{k.b, k.a}] = l
	}
	return out
}

// rows indexes a relation by its first component, in a fixed order.
func rows(x Rel) map[int32][]pair {
	idx := make(map[int32][]pair)
	for k := range x {
		idx[k.a] = append(idx[k.a], k)
	}
	for _, ks := range idx {
		sort.Slice(ks, func(i, j int) bool { return ks[i].b < ks[j].b })
	}
	return idx
}

// sortedPairs lists a relation's pairs in a fixed order, so that the
// formula built from it (and so the solver's behaviour) is reproducible.
func sortedPairs(x Rel) []pair {
	ks := make([]pair, 0, len(x))
	for k := range x {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].a != ks[j].a {
			return ks[i].a < ks[j].a
		}
		return ks[i].b < ks[j].b
	})
	return ks
}

// seq composes: (x;y)(a,c) when x(a,b) and y(b,c) for some b.
func (al *algebra) seq(x, y Rel) Rel {
	yRows := rows(y)
	terms := make(map[pair][]sat.Lit)
	var order []pair
	for _, k := range sortedPairs(x) {
		for _, k2 := range yRows[k.b] {
			p := pair{k.a, k2.b}
			if _, ok := terms[p]; !ok {
				order = append(order, p)
			}
			terms[p] = append(terms[p], al.s.And(x[k], y[k2]))
		}
	}
	out := make(Rel, len(order))
	for _, p := range order {
		if l := al.s.Or(terms[p]...); l != sat.False {
			out[p] = l
		}
	}
	return out
}

func (al *algebra) cross(x, y Set) Rel {
	out := make(Rel)
	for i, a := range x {
		if a == sat.False {
			continue
		}
		for j, b := range y {
			if b == sat.False {
				continue
			}
			if l := al.s.And(a, b); l != sat.False {
				out[pair{int32(i), int32(j)}] = l
			}
		}
	}
	return out
}

// identity is [x]: each member of x related to itself.
func (al *algebra) identity(x Set) Rel {
	out := make(Rel)
	for i, a := range x {
		if a != sat.False {
			out[pair{int32(i), int32(i)}] = a
		}
	}
	return out
}

func (al *algebra) complement(x Rel) Rel {
	return al.diff(al.cross(al.exec, al.exec), x)
}

func (al *algebra) domain(x Rel) Set {
	terms := make([][]sat.Lit, al.n())
	for _, k := range sortedPairs(x) {
		terms[k.a] = append(terms[k.a], x[k])
	}
	out := make(Set, al.n())
	for i := range out {
		out[i] = al.s.Or(terms[i]...)
	}
	return out
}

func (al *algebra) rng(x Rel) Set { return al.domain(al.inverse(x)) }

// closure is the transitive closure x⁺, encoded exactly (it may be used
// under negation) by Floyd–Warshall over the events that have both a
// predecessor and a successor: t_k(i,j) = t(i,j) ∨ (t(i,k) ∧ t(k,j)).
func (al *algebra) closure(x Rel) Rel {
	t := make(Rel, len(x))
	for k, l := range x {
		t[k] = l
	}
	in, out := map[int32]bool{}, map[int32]bool{}
	for k := range x {
		out[k.a], in[k.b] = true, true
	}
	var mids []int32
	for v := range in {
		if out[v] {
			mids = append(mids, v)
		}
	}
	sort.Slice(mids, func(i, j int) bool { return mids[i] < mids[j] })
	for _, m := range mids {
		var preds, succs []pair
		for _, k := range sortedPairs(t) {
			if k.b == m {
				preds = append(preds, k)
			}
			if k.a == m {
				succs = append(succs, k)
			}
		}
		for _, p := range preds {
			for _, q := range succs {
				al.put(t, int(p.a), int(q.b), al.s.And(t[p], t[q]))
			}
		}
	}
	return t
}

// reflexiveClosure is x* = x⁺ ∪ id over executed events.
func (al *algebra) reflexiveClosure(x Rel) Rel {
	return al.union(al.closure(x), al.identity(al.exec))
}

// isEmpty is true when no pair is related.
func (al *algebra) isEmpty(x Rel) sat.Lit {
	lits := make([]sat.Lit, 0, len(x))
	for _, k := range sortedPairs(x) {
		lits = append(lits, -x[k])
	}
	return al.s.And(lits...)
}

func (al *algebra) isEmptySet(x Set) sat.Lit {
	lits := make([]sat.Lit, len(x))
	for i, l := range x {
		lits[i] = -l
	}
	return al.s.And(lits...)
}

func (al *algebra) irreflexive(x Rel) sat.Lit {
	var lits []sat.Lit
	for _, k := range sortedPairs(x) {
		if k.a == k.b {
			lits = append(lits, -x[k])
		}
	}
	return al.s.And(lits...)
}

func (al *algebra) acyclic(x Rel) sat.Lit { return al.irreflexive(al.closure(x)) }
