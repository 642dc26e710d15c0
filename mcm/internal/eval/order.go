package eval

import (
	"github.com/purr-mcm/purr/cat/ast"
)

// Orderer is what a Logic offers to choose an order symbolically: fresh
// variables, and clauses over literals that every execution meets. The
// SAT engine is one; the explicit engine lists the orders instead.
type Orderer[L comparable] interface {
	Fresh() L
	Require(clause ...L)
}

// orderGenerator recognises the generators of orders herd7's library
// defines, "with x from linearisations(S, r)", "generate_orders(S, r)"
// and "generate_cos(r)" (as herd's cross.cat and purr's define them): the
// strict total orders on S, per location for the last two (W for
// generate_cos), that contain r restricted to the events they order. It
// returns the arguments' expressions; s is nil for generate_cos.
func orderGenerator(w *ast.With) (s, r ast.Expr, perLoc, ok bool) {
	app, isApp := w.Set.(*ast.App)
	if !isApp {
		return nil, nil, false, false
	}
	f, isVar := app.Fun.(*ast.Var)
	if !isVar {
		return nil, nil, false, false
	}
	switch f.Name {
	case "generate_cos":
		return nil, app.Arg, true, true
	case "linearisations", "generate_orders":
		t, isTuple := app.Arg.(*ast.Tuple)
		if !isTuple || len(t.Elems) != 2 {
			return nil, nil, false, false
		}
		return t.Elems[0], t.Elems[1], f.Name == "generate_orders", true
	}
	return nil, nil, false, false
}

// fromLibrary tells whether name is bound in sc to what purr knows it as:
// the builtin linearisations, or generate_orders and generate_cos as a
// cross.cat defines them (herd's, or purr's embedded one). A model's own
// function of the same name means something else, which purr must not
// replace by the library's meaning.
func fromLibrary[L comparable](sc *env, name string) bool {
	v, ok := sc.lookup(name)
	if !ok {
		return false
	}
	switch f := v.(type) {
	case *builtin[L]:
		return name == "linearisations" && f.name == name
	case *closure:
		return isCrossFile(f.body.Position().File)
	}
	return false
}

// chooseOrder evaluates "with x from GEN(...)" for an orderGenerator over
// a Logic that is an Orderer: x is a fresh strict total order on S (per
// location when perLoc) that contains r restricted to the pairs it
// orders, and its variables join the choices an engine enumerates, so that
// each order is an execution of its own, as herd7 counts them.
func (ev *evaluator[L]) chooseOrder(w *ast.With, o Orderer[L], sx, rx ast.Expr, perLoc bool, sc *env) (Rel[L], error) {
	al, lg := ev.al, ev.al.lg
	var s Set[L]
	if sx == nil {
		v, ok := sc.lookup("W")
		if !ok {
			return nil, errAt(w.Pos, "generate_cos: W is not bound")
		}
		var err error
		if s, err = ev.set(w.Pos, v); err != nil {
			return nil, err
		}
	} else {
		v, err := ev.expr(sx, sc)
		if err != nil {
			return nil, err
		}
		if s, err = ev.set(sx.Position(), v); err != nil {
			return nil, err
		}
	}
	v, err := ev.expr(rx, sc)
	if err != nil {
		return nil, err
	}
	r, err := ev.rel(rx.Position(), v)
	if err != nil {
		return nil, err
	}
	// ordered(a, b): when a and b are both in S (at one location), and so
	// ordered one way or the other.
	ordered := func(a, b int) L {
		both := lg.And(s[a], s[b])
		if perLoc {
			l, in := ev.loc[PairOf(a, b)]
			if !in {
				return al.f
			}
			both = lg.And(both, l)
		}
		return both
	}
	x := Rel[L]{}
	var members []int
	for i, l := range s {
		if l != al.f {
			members = append(members, i)
		}
	}
	for i, a := range members {
		for _, b := range members[i+1:] {
			both := ordered(a, b)
			if both == al.f {
				continue
			}
			v := o.Fresh()
			o.Require(both, lg.Not(v)) // determined when a and b are not both ordered
			al.choices = append(al.choices, v)
			x[PairOf(a, b)] = lg.And(both, v)
			x[PairOf(b, a)] = lg.And(both, lg.Not(v))
		}
	}
	at := func(a, b int) L {
		if l, in := x[PairOf(a, b)]; in {
			return l
		}
		return al.f
	}
	for _, a := range members {
		for _, b := range members {
			ab := at(a, b)
			if ab == al.f {
				continue
			}
			for _, c := range members {
				if bc := at(b, c); bc != al.f && c != a {
					o.Require(lg.Not(ab), lg.Not(bc), at(a, c))
				}
			}
		}
	}
	// x contains r on the pairs it orders; a pair of r on one event of S
	// is a cycle, which no order contains.
	for _, k := range SortedPairs(r) {
		a, b := int(k.A), int(k.B)
		if a == b {
			o.Require(lg.Not(r[k]), lg.Not(s[a]))
			continue
		}
		if both := ordered(a, b); both != al.f {
			o.Require(lg.Not(r[k]), lg.Not(both), at(a, b))
		}
	}
	return x, nil
}
