package eval

import (
	"strings"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

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

// varyingSet is a set of values whose members depend on the execution
// (a family): map f S over an event set or relation S whose membership
// varies (the SAT engine's, for lock.cat's failed trylocks that exist on
// some paths only). Member i, f applied to S's i-th possible member, is
// in it when lits[i] holds. It is only chosen from, by with
// (withFamily), directly or through cross: herd's sets hold each value
// once, which withFamily checks the members make no difference to.
type varyingSet[L comparable] struct {
	elems []value
	lits  []L
}

func (*varyingSet[L]) kind() string { return "a set of values that depends on the execution" }

// crossOf is cross(F) for a family F: every choice of one member of each
// of F's members, united; only chosen from, by with.
type crossOf[L comparable] struct{ of *varyingSet[L] }

func (*crossOf[L]) kind() string { return "the combinations of a set that depends on the execution" }

// libraryFamily applies two functions of purr's library to a varying
// argument, which their bodies cannot walk: map's inner function
// (apply_all) over an event set or relation whose membership varies,
// giving a family, and cross (cross.cat's, purr's or herd's) over a
// family. ok is false for every other application.
func (ev *evaluator[L]) libraryFamily(pos source.Pos, f *closure, arg value) (v value, ok bool, err error) {
	switch {
	case f.name == "apply_all" && f.body.Position().File == preludeFile:
		fn, bound := f.env.lookup("f")
		if !bound {
			return nil, false, nil
		}
		var members []value
		var lits []L
		switch s := arg.(type) {
		case Set[L]:
			if _, static := ev.staticMembers(s); static {
				return nil, false, nil
			}
			for e, l := range s {
				if l != ev.al.f {
					members, lits = append(members, eventVal(e)), append(lits, l)
				}
			}
		case Rel[L]:
			if _, static := ev.staticPairs(s); static {
				return nil, false, nil
			}
			for _, p := range SortedPairs(s) {
				if l := s[p]; l != ev.al.f {
					members, lits = append(members, pairVal(p)), append(lits, l)
				}
			}
		default:
			return nil, false, nil
		}
		out := &varyingSet[L]{lits: lits}
		for _, m := range members {
			x, err := ev.apply(pos, fn, m)
			if err != nil {
				return nil, true, err
			}
			out.elems = append(out.elems, x)
		}
		return out, true, nil
	case isCrossFile(f.body.Position().File):
		// cross is the only function of cross.cat (purr's or herd's)
		// that takes a set of sets of relations.
		if fam, isFamily := arg.(*varyingSet[L]); isFamily {
			return &crossOf[L]{fam}, true, nil
		}
	}
	return nil, false, nil
}

// isCrossFile tells whether file is a cross.cat, purr's or herd's.
func isCrossFile(file string) bool {
	return file == "cross.cat" || strings.HasSuffix(file, "/cross.cat") || strings.HasSuffix(file, ":cross.cat")
}

// options are the values one choice of withFamily picks among, each
// there when its literal holds.
type options[L comparable] struct {
	elems []value
	lits  []L
	when  L // the options are chosen among when this holds
}

// familyOptions gives what "with x from v" chooses among when v is a
// family (one choice among its members) or the cross of one (a choice
// per member of the family, among that member's members, x the union of
// the picks); ok is false for other values.
func (ev *evaluator[L]) familyOptions(pos source.Pos, v value) (choices []options[L], ok bool, err error) {
	switch v := v.(type) {
	case *varyingSet[L]:
		return []options[L]{{elems: v.elems, lits: v.lits, when: ev.al.t}}, true, nil
	case *crossOf[L]:
		for i, m := range v.of.elems {
			o := options[L]{when: v.of.lits[i]}
			switch m := m.(type) {
			case *varyingSet[L]:
				o.elems, o.lits = m.elems, m.lits
			case setVal:
				o.elems = m
				for range m {
					o.lits = append(o.lits, ev.al.t)
				}
			case emptyVal:
			default:
				return nil, true, errVaries(pos, "unsupported: cross over %s, which depends on the execution", kindOf(m))
			}
			choices = append(choices, o)
		}
		return choices, true, nil
	}
	return nil, false, nil
}

// withFamily runs "with x from v; rest" for a v of familyOptions, over a
// Chooser: one selector per option, exactly one of a choice's when the
// choice is made (when holds) and only of an option that is there; x is
// the union of the options selected. Each combination is an execution of
// its own, as herd counts them, when the unions differ: the options of a
// choice must differ whenever both are there, and the options of two
// choices share no possible pair or event (herd's sets would merge
// equal values, which purr then refuses).
func (ev *evaluator[L]) withFamily(w *ast.With, choices []options[L], rest []ast.Stmt, sc *env) (*env, error) {
	ch, choosing := ev.al.lg.(Chooser[L])
	if !choosing {
		return nil, errVaries(w.Pos, "unsupported: choosing among values that depend on the execution")
	}
	lg := ev.al.lg
	if err := ev.familyDistinct(w.Pos, choices); err != nil {
		return nil, err
	}
	var holds []L // what the choices require of the options they select
	var x value = emptyVal{}
	for _, c := range choices {
		when := lg.And(ev.guard(), c.when)
		if len(c.elems) == 0 {
			holds = append(holds, lg.Not(when))
			continue
		}
		sels := ch.Choose(when, len(c.elems))
		for i, sel := range sels {
			if sel != ev.al.t && sel != ev.al.f {
				ev.al.choices = append(ev.al.choices, sel)
			}
			holds = append(holds, lg.Or(lg.Not(sel), c.lits[i]))
		}
		picked, ok := ev.mux(sels, c.elems)
		if !ok {
			return nil, errVaries(w.Pos, "unsupported: choosing among values that depend on the execution and are not all event sets or all relations")
		}
		var err error
		if x, err = ev.binary(&ast.Binary{Pos: w.Pos, Op: ast.Union}, x, picked); err != nil {
			return nil, err
		}
	}
	ev.checks = append(ev.checks, Check[L]{Name: w.Var, Mode: ast.Require, Lit: lg.All(holds), Pos: w.Pos})
	inner := sc.child()
	inner.set(w.Var, x)
	return ev.run(rest, inner)
}

// familyDistinct refuses the options withFamily cannot count as herd
// does (see there).
func (ev *evaluator[L]) familyDistinct(pos source.Pos, choices []options[L]) error {
	lg := ev.al.lg
	owner := map[any]int{} // a possible pair or event → the choice whose options hold it
	for ci, c := range choices {
		for i, x := range c.elems {
			for j := range i {
				diff, ok := ev.al.differences(x, c.elems[j])
				if !ok || lg.Any(diff) != ev.al.t {
					return errVaries(pos, "unsupported: choosing among values that depend on the execution and may be equal")
				}
			}
			var keys []any
			switch x := x.(type) {
			case Rel[L]:
				for p, l := range x {
					if l != ev.al.f {
						keys = append(keys, p)
					}
				}
			case Set[L]:
				for e, l := range x {
					if l != ev.al.f {
						keys = append(keys, e)
					}
				}
			case emptyVal:
			default:
				return errVaries(pos, "unsupported: choosing among %s, which depend on the execution", kindOf(x))
			}
			for _, k := range keys {
				if o, seen := owner[k]; seen && o != ci {
					return errVaries(pos, "unsupported: combining choices among values that depend on the execution and overlap")
				}
				owner[k] = ci
			}
		}
	}
	return nil
}
