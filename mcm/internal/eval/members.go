package eval

import "github.com/purr-mcm/purr/source"

// Members of event sets and relations as values, for the models that walk
// them (lock.cat maps a function over the events of a set and over the
// pairs of a relation): purr lists them only when membership is the same
// in every execution, which always holds in the explicit engine.

// eventVal is one event taken out of an event set.
type eventVal int

// pairVal is one pair taken out of a relation.
type pairVal Pair

func (eventVal) kind() string { return "an event" }
func (pairVal) kind() string  { return "a pair of events" }

// staticEvents lists the events of s as values, or false when membership
// depends on the execution.
func (ev *evaluator[L]) staticEvents(s Set[L]) ([]value, bool) {
	members, ok := ev.staticMembers(s)
	if !ok {
		return nil, false
	}
	out := make([]value, len(members))
	for i, e := range members {
		out[i] = eventVal(e)
	}
	return out, true
}

// staticPairs lists the pairs of r as values, or false when they depend on
// the execution.
func (ev *evaluator[L]) staticPairs(r Rel[L]) ([]value, bool) {
	var out []value
	for _, k := range SortedPairs(r) {
		switch r[k] {
		case ev.al.t:
			out = append(out, pairVal(k))
		case ev.al.f:
		default:
			return nil, false
		}
	}
	return out, true
}

// restOf is what remains of a set of events or a relation once its first
// member (from staticEvents or staticPairs) is taken: of the same kind.
func (ev *evaluator[L]) restOf(whole value, rest []value) value {
	switch whole.(type) {
	case Set[L]:
		s := ev.al.EmptySet()
		for _, e := range rest {
			s[int(e.(eventVal))] = ev.al.t
		}
		return s
	case Rel[L]:
		r := make(Rel[L], len(rest))
		for _, p := range rest {
			r[Pair(p.(pairVal))] = ev.al.t
		}
		return r
	}
	if len(rest) == 0 {
		return emptyVal{}
	}
	return setVal(rest)
}

// addMember is e ++ S for an event and a set of events, or a pair and a
// relation; ok is false for other operands.
func (ev *evaluator[L]) addMember(a, b value) (value, bool) {
	_, bEmpty := b.(emptyVal)
	switch a := a.(type) {
	case eventVal:
		s, isSet := b.(Set[L])
		if !isSet && !bEmpty {
			return nil, false
		}
		out := ev.al.EmptySet()
		copy(out, s)
		out[int(a)] = ev.al.t
		return out, true
	case pairVal:
		r, isRel := b.(Rel[L])
		if !isRel && !bEmpty {
			return nil, false
		}
		out := make(Rel[L], len(r)+1)
		for k, l := range r {
			out[k] = l
		}
		out[Pair(a)] = ev.al.t
		return out, true
	}
	return nil, false
}

// membersLiteral is {e1, e2, ...} of events (an event set) or of pairs (a
// relation); ok is false unless all elements are one or the other.
func (ev *evaluator[L]) membersLiteral(pos source.Pos, elems []value) (value, bool) {
	if len(elems) == 0 {
		return nil, false
	}
	var acc value = emptyVal{}
	for _, v := range elems {
		next, ok := ev.addMember(v, acc)
		if !ok {
			return nil, false
		}
		acc = next
	}
	return acc, true
}

func sameMember(a, b value) (same, ok bool) {
	switch a := a.(type) {
	case eventVal:
		e, is := b.(eventVal)
		return is && a == e, true
	case pairVal:
		p, is := b.(pairVal)
		return is && a == p, true
	}
	return false, false
}
