package eval

// Choices per member, in RetriesRemovable's analysis (retries.go): the
// kernel's lock.cat chooses what each failed trylock reads with
//
//	with rfe-lf from cross(map (fun r -> map (fun p -> p ++ 0)
//	    ((LKW * {r}) & loc & ext)) (LF \ range(rfi-lf)))
//
// one pair a member r of a set S, among the pairs of a relation T(r). A
// loop's failed trylocks are removed retries; the choice of E,
// restricted to the kept members, is a choice on E' when S cannot grow
// (each member of S(E') is one of S(E), kept) and each member's options
// are the same on E and E' (T(r) cannot shrink and holds kept pairs only,
// each option exact and kept). The union chosen then may only shrink; it
// is exact when S is exact and holds no removed event.

import "github.com/purr-mcm/purr/cat/ast"

type (
	// absMember is one member of a set or relation that map walks: a
	// kept event or pair of kept events, the same on E and E'.
	absMember struct{}
	// absFamily is map f S over an event set or relation S: elem is f
	// applied to a member.
	absFamily struct {
		over *events
		elem value
	}
	// absCross is cross(F) of a family F.
	absCross struct{ of *absFamily }
)

// libraryFamily applies map's inner function (purr's prelude's
// apply_all) to an event set or relation, and cross.cat's functions to a
// family; ok is false for every other application.
func (a *retries) libraryFamily(x *ast.App, f *closure, arg value) (value, bool) {
	switch {
	case f.name == "apply_all" && f.body.Position().File == preludeFile:
		s, isEvents := arg.(*events)
		fn, bound := f.env.lookup("f")
		if !isEvents || s.empty || !bound {
			return nil, false
		}
		return &absFamily{over: s, elem: a.apply(x, fn, absMember{})}, true
	case isCrossFile(f.body.Position().File):
		if fam, ok := arg.(*absFamily); ok {
			return &absCross{fam}, true
		}
	}
	return nil, false
}

// memberSingleton is {m} or m ++ 0 of a member: exact, its events kept.
func memberSingleton() *events { return exact().kept() }

// withCross binds x for "with x from cross(F)" (see the top of the file).
func (a *retries) withCross(w *ast.With, c *absCross, next *env) *env {
	over := c.of.over
	if over.grows != nil {
		a.refuseAt(over.grows, "may grow", "with "+w.Var+" chooses for each of its members")
		return next
	}
	if why := sameOptions(c.of.elem); why != "" {
		a.refuse(w.Pos, "with %s from %s: %s, so a choice made on the unbounded program may have none on the reduced one: %s",
			w.Var, short(ast.String(w.Set)), why, cannot)
		return next
	}
	x := exact()
	switch {
	case over.shrinks != nil:
		x.shrinks = over.shrinks
	case !over.domKept:
		x.shrinks = causeAt(w.Set, "a removed member's choice is lost")
	default:
		x.kept()
	}
	next.set(w.Var, x.normalise())
	return next
}

// sameOptions says why a member's options (F's elem) may differ between
// E and E', "" when they cannot: a family over a relation that cannot
// shrink and holds kept pairs only, of exact and kept values; or a
// listed set of such values.
func sameOptions(elem value) string {
	sameKept := func(v value) bool {
		e, ok := v.(*events)
		return ok && e.shrinks == nil && e.grows == nil && e.domKept && e.rngKept
	}
	switch o := elem.(type) {
	case *absFamily:
		if o.over.shrinks != nil || !o.over.domKept || !o.over.rngKept {
			return "a member's options are walked from a set that may lose members"
		}
		if !sameKept(o.elem) {
			return "a member's options may differ"
		}
		return ""
	case *absSet:
		if o.open != nil {
			return "a member's options may differ"
		}
		for _, e := range o.elems {
			if !sameKept(e) {
				return "a member's options may differ"
			}
		}
		return ""
	case *events:
		if o.empty {
			return ""
		}
	}
	return "a member's options are values purr does not follow"
}
