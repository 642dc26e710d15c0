package eval

import "github.com/purr-mcm/purr/source"

// herd7's builtins that return sets of sets or of relations: purr lists
// their members only when the arguments are the same in every execution
// (the explicit engine's, always; the SAT engine's, when the events and
// relations involved are static). Over arguments that vary, they refuse
// rather than guess.

// maxLinearisations bounds the orders linearisations lists: herd7 lists
// them all too, but a model that asks for millions is stuck either way.
const maxLinearisations = 100_000

// staticMembers returns the events of s, or false when membership depends
// on the execution.
func (ev *evaluator[L]) staticMembers(s Set[L]) ([]int, bool) {
	var out []int
	for i, l := range s {
		switch l {
		case ev.al.t:
			out = append(out, i)
		case ev.al.f:
		default:
			return nil, false
		}
	}
	return out, true
}

// staticPair returns whether a and b are related by r, or false when that
// depends on the execution.
func (ev *evaluator[L]) staticPair(r Rel[L], a, b int) (related, ok bool) {
	l, in := r[PairOf(a, b)]
	switch {
	case !in || l == ev.al.f:
		return false, true
	case l == ev.al.t:
		return true, true
	}
	return false, false
}

func (ev *evaluator[L]) varies(pos source.Pos, fn string) error {
	return errVaries(pos, "%s over events or relations that depend on the execution is not supported by the SAT engine; use --engine explicit", fn)
}

// classesOf partitions the events of s into the classes of the
// equivalence r (herd's classes, and classes-loc with r = loc).
func (ev *evaluator[L]) classesOf(pos source.Pos, fn string, s Set[L], r Rel[L]) (value, error) {
	members, ok := ev.staticMembers(s)
	if !ok {
		return nil, ev.varies(pos, fn)
	}
	var classes [][]int
	for _, e := range members {
		placed := false
		for i, c := range classes {
			related, ok := ev.staticPair(r, c[0], e)
			if !ok {
				return nil, ev.varies(pos, fn)
			}
			if related {
				classes[i] = append(c, e)
				placed = true
				break
			}
		}
		if !placed {
			classes = append(classes, []int{e})
		}
	}
	var out setVal
	for _, c := range classes {
		set := ev.al.EmptySet()
		for _, e := range c {
			set[e] = ev.al.t
		}
		out = append(out, set)
	}
	if len(out) == 0 {
		return emptyVal{}, nil
	}
	return out, nil
}

// linearisations lists the strict total orders on the events of s that
// contain r restricted to s: none when r is cyclic on s.
func (ev *evaluator[L]) linearisations(pos source.Pos, s Set[L], r Rel[L]) (value, error) {
	members, ok := ev.staticMembers(s)
	if !ok {
		return nil, ev.varies(pos, "linearisations")
	}
	// before[i] lists the members that r puts before members[i].
	before := make([][]int, len(members))
	for i, a := range members {
		for j, b := range members {
			related, ok := ev.staticPair(r, b, a)
			if !ok {
				return nil, ev.varies(pos, "linearisations")
			}
			if related {
				before[i] = append(before[i], j)
			}
		}
	}
	var out setVal
	placed := make([]bool, len(members))
	order := make([]int, 0, len(members))
	var extend func() error
	extend = func() error {
		if len(order) == len(members) {
			if len(out) == maxLinearisations {
				return errAt(pos, "linearisations: more than %d orders", maxLinearisations)
			}
			rel := Rel[L]{}
			for i := range order {
				for j := i + 1; j < len(order); j++ {
					rel[PairOf(members[order[i]], members[order[j]])] = ev.al.t
				}
			}
			out = append(out, rel)
			return nil
		}
	next:
		for i := range members {
			if placed[i] {
				continue
			}
			for _, j := range before[i] {
				if !placed[j] {
					continue next
				}
			}
			placed[i] = true
			order = append(order, i)
			if err := extend(); err != nil {
				return err
			}
			order = order[:len(order)-1]
			placed[i] = false
		}
		return nil
	}
	if err := extend(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return emptyVal{}, nil
	}
	return out, nil
}

// herdSetBuiltins are the builtins above, as builtins[L] takes them.
func herdSetBuiltins[L comparable]() map[string]func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
	return map[string]func(ev *evaluator[L], pos source.Pos, arg value) (value, error){
		// classes-loc S: the events of S, by location (herd's stdlib
		// calls it partition).
		"classes-loc": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			s, err := ev.set(pos, arg)
			if err != nil {
				return nil, err
			}
			return ev.classesOf(pos, "classes-loc", s, ev.loc)
		},
		// classes r: the equivalence classes of r.
		"classes": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			r, err := ev.rel(pos, arg)
			if err != nil {
				return nil, err
			}
			return ev.classesOf(pos, "classes", ev.al.domain(r), r)
		},
		// linearisations(S, r): the strict total orders on S that extend r.
		"linearisations": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			t, ok := arg.(tupleVal)
			if !ok || len(t) != 2 {
				return nil, errAt(pos, "linearisations expects (set, relation), not %s", kindOf(arg))
			}
			s, err := ev.set(pos, t[0])
			if err != nil {
				return nil, err
			}
			r, err := ev.rel(pos, t[1])
			if err != nil {
				return nil, err
			}
			return ev.linearisations(pos, s, r)
		},
	}
}
