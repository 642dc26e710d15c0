package satengine

import (
	"slices"

	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// encoding is one formula for every candidate execution of an unfolding:
// which path each thread takes (segment literals), what each term's value
// is (one literal per domain value), rf and co (one variable per pair that
// may be related).
type encoding struct {
	u   *events.Unfolding
	s   *sat.Solver
	al  *eval.Algebra[sat.Lit]
	seg []sat.Lit   // per segment: the segment executes
	val [][]sat.Lit // per term, per domain value
	rf  Rel         // write → read
	co  Rel         // write → write, strict total order per location
	// projection: the variables that identify an execution (herd counts
	// executions, not solver models).
	projection []sat.Lit
	// The projection's parts: the path variables, and the variables of rf
	// and co by name (Options.Distinct projects onto some of them).
	pathVars []sat.Lit
	relVars  map[string][]sat.Lit
}

// encodeLimited builds the formula of an unfolding under limits: the
// solver panics past them (see sat.Catch).
func encodeLimited(u *events.Unfolding, limits sat.Limits) *encoding {
	s := sat.New()
	s.SetLimits(limits)
	en := &encoding{u: u, s: s, relVars: map[string][]sat.Lit{}}
	en.encodePaths()
	en.encodeValues()
	exec := make([]sat.Lit, len(u.Events))
	for i, e := range u.Events {
		if e.Kind == events.KindInit {
			exec[i] = sat.True
		} else {
			exec[i] = en.seg[e.Seg.ID]
		}
	}
	en.al = eval.NewAlgebra[sat.Lit](logic{s}, exec)
	en.al.DifferentValues = func(a, b int) sat.Lit {
		va, vb := en.u.Events[a].Val, en.u.Events[b].Val
		if va == nil || vb == nil {
			return sat.True // an event without a value differs from all
		}
		return -en.sameValue(va, vb)
	}
	en.encodeRF()
	en.encodeCO()
	// co before rf: an enumeration that decides coherence first meets
	// fewer dead ends where read-modify-writes chain (rf then follows
	// from co), and no more elsewhere.
	en.projection = append(en.projection, en.relVars["co"]...)
	en.projection = append(en.projection, en.relVars["rf"]...)
	return en
}

// encodePaths gives each segment a literal: roots always execute, a
// segment that executes executes exactly one child, a child only executes
// with its parent, a cut segment never, and a segment's assumptions hold
// when it executes.
func (en *encoding) encodePaths() {
	s := en.s
	en.seg = make([]sat.Lit, len(en.u.Segments))
	for _, sg := range en.u.Segments { // parents come before children
		switch {
		case sg.Cut || sg.Dead:
			en.seg[sg.ID] = sat.False
			if sg.Parent == nil {
				// Roots always execute: a thread cut at its start (B L
				// to itself) has no execution, as the explicit engine
				// finds, rather than one that runs nothing.
				s.AddClause()
			}
		case sg.Parent == nil:
			en.seg[sg.ID] = sat.True
		case len(sg.Parent.Children) == 1:
			en.seg[sg.ID] = en.seg[sg.Parent.ID]
		default:
			en.seg[sg.ID] = s.NewVar()
		}
	}
	for _, sg := range en.u.Segments {
		lit := en.seg[sg.ID]
		if len(sg.Children) > 1 {
			var kids []sat.Lit
			for _, c := range sg.Children {
				k := en.seg[c.ID]
				kids = append(kids, k)
				s.AddClause(-k, lit)
				if k != sat.False && !k.IsConst() {
					en.projection = append(en.projection, k)
					en.pathVars = append(en.pathVars, k)
				}
			}
			// When the parent executes, exactly one child does.
			s.AddClause(append([]sat.Lit{-lit}, kids...)...)
			for i := range kids {
				for j := i + 1; j < len(kids); j++ {
					s.AddClause(-kids[i], -kids[j])
				}
			}
		}
	}
}

// encodeValues gives every term one literal per value of its domain. A
// read's value is free (rf constrains it); an operation's value follows
// from its operands'. Assumptions are asserted after all terms exist.
func (en *encoding) encodeValues() {
	s := en.s
	u := en.u
	en.val = make([][]sat.Lit, len(u.Terms))
	for _, t := range u.Terms { // operands are created before the terms that use them
		lits := make([]sat.Lit, len(t.Dom))
		switch t.Op {
		case events.TermConst:
			lits[0] = sat.True
		case events.TermRead:
			if len(lits) == 1 {
				lits[0] = sat.True
				break
			}
			for i := range lits {
				lits[i] = s.NewVar()
			}
			s.ExactlyOne(lits...)
		case events.TermBinary:
			terms := make([][]sat.Lit, len(t.Dom))
			x, y := t.Args[0], t.Args[1]
			for i, a := range x.Dom {
				for j, b := range y.Dom {
					if x == y && i != j {
						continue // one term has one value
					}
					v, err := events.ApplyBinary(t.Bin, a, b)
					if err != nil {
						continue
					}
					if k, ok := t.Position(v); ok {
						terms[k] = append(terms[k], s.And(en.val[x.ID][i], en.val[y.ID][j]))
					}
				}
			}
			for k := range lits {
				lits[k] = s.Or(terms[k]...)
			}
		case events.TermUnary:
			terms := make([][]sat.Lit, len(t.Dom))
			x := t.Args[0]
			for i, a := range x.Dom {
				if v, err := events.ApplyUnary(t.Un, a); err == nil {
					if k, ok := t.Position(v); ok {
						terms[k] = append(terms[k], en.val[x.ID][i])
					}
				}
			}
			for k := range lits {
				lits[k] = s.Or(terms[k]...)
			}
		case events.TermPick:
			copy(lits, en.val[t.Args[1].ID])
		case events.TermIte:
			c, x, y := t.Args[0], t.Args[1], t.Args[2]
			isTrue, isFalse := en.truthLits(c)
			terms := make([][]sat.Lit, len(t.Dom))
			// A branch's value outside t.Dom is one the condition never
			// selects (its literal here is False).
			for i, v := range x.Dom {
				if k, ok := t.Position(v); ok {
					terms[k] = append(terms[k], s.And(isTrue, en.val[x.ID][i]))
				}
			}
			for i, v := range y.Dom {
				if k, ok := t.Position(v); ok {
					terms[k] = append(terms[k], s.And(isFalse, en.val[y.ID][i]))
				}
			}
			for k := range lits {
				lits[k] = s.Or(terms[k]...)
			}
		}
		en.val[t.ID] = lits
	}
	for _, sg := range u.Segments {
		for _, a := range sg.Assumes {
			isTrue, _ := en.truthLits(a)
			s.AddClause(-en.seg[sg.ID], isTrue)
		}
	}
}

// truthLits says when a term is true (an address or a non-zero integer)
// and when it is false.
func (en *encoding) truthLits(t *events.Term) (isTrue, isFalse sat.Lit) {
	var ts, fs []sat.Lit
	for i, v := range t.Dom {
		if events.Truth(v) {
			ts = append(ts, en.val[t.ID][i])
		} else {
			fs = append(fs, en.val[t.ID][i])
		}
	}
	return en.s.Or(ts...), en.s.Or(fs...)
}

// valueIs is the literal "term t has value v".
func (en *encoding) valueIs(t *events.Term, v outcome.Value) sat.Lit {
	if i, ok := t.Position(v); ok {
		return en.val[t.ID][i]
	}
	return sat.False
}

// sameValue is the literal "terms a and b have the same value".
func (en *encoding) sameValue(a, b *events.Term) sat.Lit {
	if a == b {
		return sat.True
	}
	var lits []sat.Lit
	for i, v := range a.Dom {
		if j, ok := b.Position(v); ok {
			lits = append(lits, en.s.And(en.val[a.ID][i], en.val[b.ID][j]))
		}
	}
	return en.s.Or(lits...)
}

// encodeRF: one variable per write/read pair that may share a location;
// rf(w,r) implies both execute with the same address and value, and an
// executed read reads from exactly one write; a receive reads from at most
// one, and holds Nothing when it reads from none.
func (en *encoding) encodeRF() {
	s := en.s
	en.rf = make(Rel)
	writes := en.u.Writes()
	for _, r := range en.u.Events {
		if !r.IsRead() {
			continue
		}
		var cands []sat.Lit
		for _, w := range writes {
			if !events.MayAlias(w.Addr, r.Addr) || !events.MayCoexist(w, r) || events.SameInstruction(w, r) {
				continue // an instruction never reads its own write
			}
			same := s.And(en.sameValue(w.Addr, r.Addr), en.sameValue(w.Val, r.Val))
			if same == sat.False {
				continue
			}
			v := s.NewVar()
			s.AddClause(-v, en.al.Exec[w.ID])
			s.AddClause(-v, en.al.Exec[r.ID])
			s.AddClause(-v, same)
			en.rf[eval.PairOf(w.ID, r.ID)] = v
			cands = append(cands, v)
			en.relVars["rf"] = append(en.relVars["rf"], v)
		}
		atLeast := append([]sat.Lit{-en.al.Exec[r.ID]}, cands...)
		if r.IsReceive() {
			// A receive may get no message, and then holds Nothing.
			atLeast = append(atLeast, en.valueIs(r.Val, events.Nothing))
		}
		s.AddClause(atLeast...)
		for i := range cands {
			for j := i + 1; j < len(cands); j++ {
				s.AddClause(-cands[i], -cands[j])
			}
		}
	}
}

// encodeCO: for writes that may share a location, co is a strict total
// order of the executed writes to each address, initial writes first
// (with the marks that ask for co: a spinlock's LKW).
func (en *encoding) encodeCO() {
	s := en.s
	en.co = make(Rel)
	writes := en.u.CoEvents()
	exec := en.al.Exec
	lit := func(a, b *events.Event) sat.Lit {
		if l, ok := en.co[eval.PairOf(a.ID, b.ID)]; ok {
			return l
		}
		return sat.False
	}
	for i, a := range writes {
		for _, b := range writes[i+1:] {
			if !events.MayAlias(a.Addr, b.Addr) || !events.MayCoexist(a, b) {
				continue
			}
			same := en.sameValue(a.Addr, b.Addr)
			both := s.And(exec[a.ID], exec[b.ID], same)
			if both == sat.False {
				continue
			}
			ab, ba := eval.PairOf(a.ID, b.ID), eval.PairOf(b.ID, a.ID)
			switch {
			case a.Kind == events.KindInit && b.Kind == events.KindInit:
				continue // distinct locations
			case a.Kind == events.KindInit:
				en.co[ab] = both
			case b.Kind == events.KindInit:
				en.co[ba] = both
			default:
				v := s.NewVar()
				s.AddClause(both, -v) // determined when the pair is not ordered at all
				en.relVars["co"] = append(en.relVars["co"], v)
				// v: a before b; ¬v: b before a, when both execute on one address.
				en.co[ab] = s.And(both, v)
				en.co[ba] = s.And(both, -v)
			}
		}
	}
	// Transitivity over triples of writes that may share a location.
	for _, a := range writes {
		for _, b := range writes {
			ab := lit(a, b)
			if ab == sat.False || a == b {
				continue
			}
			for _, c := range writes {
				if c == a || c == b {
					continue
				}
				bc := lit(b, c)
				if bc == sat.False {
					continue
				}
				s.AddClause(-ab, -bc, lit(a, c))
			}
		}
	}
}

// fromReads is fr, rf^-1; co: a read is from-read before the writes
// coherence-after the write it reads from. Composed by the algebra, each
// pair would be the disjunction of a gate per write the read may read
// from; as a read reads from one write at most (encodeRF), a variable per
// pair defined by clauses is enough: fr(r, w) when r reads from w' with
// co(w', w), and not fr(r, w) when r reads from a w' without it, or from
// none of the writes coherence-before w. Propagation then sets a read's
// fr row from its rf and co without a gate per triple.
func (en *encoding) fromReads() Rel {
	s := en.s
	bySource := map[int32][]eval.Pair{} // rf's pairs by their write
	for _, k := range eval.SortedPairs(en.rf) {
		bySource[k.A] = append(bySource[k.A], k)
	}
	// terms[(r, w)]: the pairs (rf(w', r), co(w', w)) that make fr(r, w).
	type term struct{ rf, co sat.Lit }
	terms := map[eval.Pair][]term{}
	var order []eval.Pair
	for _, c := range eval.SortedPairs(en.co) {
		for _, k := range bySource[c.A] {
			if k.B == c.B {
				continue // a read and a write of one event: fr is irreflexive
			}
			p := eval.Pair{A: k.B, B: c.B}
			if _, ok := terms[p]; !ok {
				order = append(order, p)
			}
			terms[p] = append(terms[p], term{en.rf[k], en.co[c]})
		}
	}
	slices.SortFunc(order, func(p, q eval.Pair) int {
		if p.A != q.A {
			return int(p.A - q.A)
		}
		return int(p.B - q.B)
	})
	fr := Rel{}
	for _, p := range order {
		ts := terms[p]
		if len(ts) == 1 {
			fr[p] = s.And(ts[0].rf, ts[0].co)
			continue
		}
		v := s.NewVar()
		some := []sat.Lit{-v}
		for _, t := range ts {
			s.AddClause(-t.rf, -t.co, v)
			s.AddClause(-t.rf, t.co, -v)
			some = append(some, t.rf)
		}
		// Reading from none of these writes (from one that may not be
		// coherence-before w, or from none at all), r is not fr-before w.
		s.AddClause(some...)
		fr[p] = v
	}
	return fr
}

// distinctProjection is the projection onto the paths and the variables
// of the relations named.
func (en *encoding) distinctProjection(rels []string) []sat.Lit {
	out := append([]sat.Lit(nil), en.pathVars...)
	for _, r := range rels {
		out = append(out, en.relVars[r]...)
	}
	return out
}

// derivation is the relation "read r's value is computed from read r2's":
// r reads from a write whose value needs r2's. Values flow along rf from
// the initial state, as in herd7 and the explicit engine, so an execution
// in which this relation has a cycle (values that justify themselves, out
// of thin air) is no candidate at all, whatever the model; enumerate
// refutes such cycles lazily.
func (en *encoding) derivation() Rel {
	memo := map[*events.Term]Set{}
	d := Rel{}
	for _, k := range eval.SortedPairs(en.rf) {
		w := en.u.Events[k.A]
		for r2, l := range en.needs(w.Val, memo) {
			en.al.Put(d, int(k.B), r2, en.s.And(en.rf[k], l))
		}
	}
	return d
}

// needs says, for each read (by event ID), when computing t needs its
// value: as the explicit engine computes terms, a conditional needs its
// condition and the branch taken, a pick the value picked, x^x nothing,
// other operations all their operands. A Set, not a map, so that gates
// are built in the same order on every run.
func (en *encoding) needs(t *events.Term, memo map[*events.Term]Set) Set {
	if m, ok := memo[t]; ok {
		return m
	}
	m := en.al.EmptySet()
	add := func(arg *events.Term, when sat.Lit) {
		for i, l := range en.needs(arg, memo) {
			if l != sat.False {
				m[i] = en.s.Or(m[i], en.s.And(when, l))
			}
		}
	}
	switch t.Op {
	case events.TermRead:
		m[t.Read.ID] = sat.True
	case events.TermPick:
		add(t.Args[1], sat.True)
	case events.TermIte:
		isTrue, isFalse := en.truthLits(t.Args[0])
		add(t.Args[0], sat.True)
		add(t.Args[1], isTrue)
		add(t.Args[2], isFalse)
	case events.TermBinary, events.TermUnary:
		if t.Cancels() {
			break
		}
		for _, a := range t.Args {
			add(a, sat.True)
		}
	}
	memo[t] = m
	return m
}
