package eval

import (
	"maps"
	"slices"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/mcm/internal/predef"
)

// HasFlags tells whether statements declare a flag or an undefined_unless
// check (whose failure is herd's flag of undefined behaviour), wherever
// they nest.
func HasFlags(stmts []ast.Stmt) bool {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Check:
			if st.Mode == ast.Flag || st.Mode == ast.UndefinedUnless {
				return true
			}
		case *ast.Include:
			if HasFlags(st.Stmts) {
				return true
			}
		case *ast.Procedure:
			if HasFlags(st.Body) {
				return true
			}
		case *ast.Forall:
			if HasFlags(st.Body) {
				return true
			}
		case *ast.IfVariant:
			if HasFlags(st.Then) || HasFlags(st.Else) {
				return true
			}
		case *ast.MatchStmt:
			if HasFlags(st.Default) {
				return true
			}
			for _, c := range st.Clauses {
				if HasFlags(c.Body) {
					return true
				}
			}
		}
	}
	return false
}

// FlagsSilent tells whether no flag of the model (undefined_unless
// included) can be raised by an execution of a program whose events fall
// in classes: each is a negated flag or an undefined_unless whose
// relation or set is empty for these classes, or skipped. RC11's
// `undefined_unless empty race` of a program whose accesses are all
// atomic: a race needs a non-atomic access. Besides the kinds of
// EventClass, classes here may be 'U' (an update, one event that reads
// and writes), 'I' (the initial writes), 'B' (branches), 'K' (marks) and
// 'O' (any other event, which may carry any tag). What a value may hold is
// found as ReadWriteOrders finds what it certainly holds, the other way:
// sound, not complete.
func FlagsSilent(m Model, classes []EventClass) bool {
	if len(classes) > maxClasses {
		return false
	}
	prelude, _, err := library()
	if err != nil {
		return false
	}
	a := &porf{model: m, variants: map[string]bool{}, included: map[string]bool{}, classes: classes,
		found: func(*contents) {}, mayAnalysis: true}
	for _, v := range m.Variants {
		a.variants[v] = true
	}
	env := a.predefined()
	a.run(prelude.Stmts, env, false)
	env["rfe"] = a.rfe()
	env["rfe"].may = a.upper(&ast.Var{Name: "rf"}, env)
	env["rfi"] = &contents{atoms: 1 << atomRfi, may: env["rfe"].may}
	a.run(m.Cat.Stmts, env, true)
	return !a.loud
}

// flag notes, in loud, a flag that may be raised.
func (a *porf) flag(c *ast.Check, env map[string]*contents) {
	id := c.Name
	if id == "" {
		id = c.Pos.String()
	}
	if a.model.Skips(id) {
		return
	}
	// A negated flag is raised when its test fails (~empty X: X is not
	// empty); so is a plain undefined_unless (empty X: X is not).
	raisedWhenNotEmpty := c.Mode == ast.Flag && c.Negated || c.Mode == ast.UndefinedUnless && !c.Negated
	if !raisedWhenNotEmpty || !a.upper(c.X, env).empty() {
		a.loud = true
	}
}

// mayHold is what a value may hold: as a set, the classes (set); as a
// relation, the pairs of classes; top, anything.
type mayHold struct {
	top   bool
	set   uint64
	pairs map[[2]int]bool
}

var anything = &mayHold{top: true}

func (x *mayHold) empty() bool { return !x.top && x.set == 0 && len(x.pairs) == 0 }

// union is what x or y may hold.
func (x *mayHold) union(y *mayHold) *mayHold {
	if x.top || y.top {
		return anything
	}
	out := &mayHold{set: x.set | y.set, pairs: maps.Clone(x.pairs)}
	if out.pairs == nil {
		out.pairs = map[[2]int]bool{}
	}
	for p := range y.pairs {
		out.pairs[p] = true
	}
	return out
}

// same tells whether x and y may hold the same.
func (x *mayHold) same(y *mayHold) bool {
	return x.top == y.top && x.set == y.set && maps.Equal(x.pairs, y.pairs)
}

func (a *porf) cross(x, y uint64) *mayHold {
	out := &mayHold{pairs: map[[2]int]bool{}}
	for i := range a.classes {
		for j := range a.classes {
			if x&(1<<i) != 0 && y&(1<<j) != 0 {
				out.pairs[[2]int{i, j}] = true
			}
		}
	}
	return out
}

// predefinedMay is what a predefined name may hold: memory sets and
// relations by kinds (a class 'O' may be anything), tags by the classes
// carrying them; anything else is anything.
func (a *porf) predefinedMay(e predef.Entry) *mayHold {
	all := a.every()
	other := a.kinds("O")
	reads, writes, mem := a.kinds("RUO"), a.kinds("WUIO"), a.kinds("RWUIO")
	switch {
	case e.Kind == cat.KindSet:
		switch e.Name {
		case "_":
			return &mayHold{set: all}
		case "R":
			return &mayHold{set: reads}
		case "W", "FW":
			return &mayHold{set: writes}
		case "M", "Exp":
			return &mayHold{set: mem}
		case "F":
			return &mayHold{set: a.kinds("FO")}
		case "IW", "I":
			return &mayHold{set: a.kinds("IO")}
		case "B":
			return &mayHold{set: a.kinds("BO")}
		}
		if !e.Tag || slices.Contains(baseSetNames, e.Name) {
			return anything
		}
		s := other
		for i, c := range a.classes {
			if slices.Contains(c.Tags, e.Name) {
				s |= 1 << i
			}
		}
		return &mayHold{set: s}
	case e.Name == "rf":
		return a.cross(writes, reads)
	case e.Name == "co":
		return a.cross(writes, writes)
	case e.Name == "fr":
		return a.cross(reads, writes)
	case e.Name == "loc":
		located := mem | a.kinds("K")
		out := a.cross(located, located)
		accesses := a.kinds("RWU")
		for k := range out.pairs {
			// An access to a location one thread owns and another
			// access are at one location only when that one is too.
			if accesses&(1<<k[0]) != 0 && accesses&(1<<k[1]) != 0 && a.classes[k[0]].Own != a.classes[k[1]].Own {
				delete(out.pairs, k)
			}
		}
		return out
	case e.Name == "ext":
		out := a.cross(all, all)
		for k := range out.pairs {
			if own := a.classes[k[0]].Own; own != 0 && own == a.classes[k[1]].Own {
				delete(out.pairs, k) // two accesses of the one thread
			}
		}
		return out
	case e.Name == "id":
		return a.identityMay(all)
	}
	return anything
}

// identityMay is what the identity on the classes s may hold.
func (a *porf) identityMay(s uint64) *mayHold {
	out := &mayHold{pairs: map[[2]int]bool{}}
	for i := range a.classes {
		if s&(1<<i) != 0 {
			out.pairs[[2]int{i, i}] = true
		}
	}
	return out
}

// relation is x as a relation: top stays top.
func (a *porf) relation(x *mayHold) map[[2]int]bool {
	if x.top {
		return a.cross(a.every(), a.every()).pairs
	}
	return x.pairs
}

// upper says what x may hold.
func (a *porf) upper(x ast.Expr, env map[string]*contents) *mayHold {
	switch x := x.(type) {
	case *ast.Var:
		if v := env[x.Name]; v != nil && v.may != nil {
			return v.may
		}
		return anything
	case *ast.Empty:
		return &mayHold{}
	case *ast.Universe:
		// The universe of sets or of relations, as the context takes it.
		all := a.every()
		return &mayHold{set: all, pairs: a.cross(all, all).pairs}
	case *ast.Binary:
		l, r := a.upper(x.X, env), a.upper(x.Y, env)
		switch x.Op {
		case ast.Union:
			if l.top || r.top {
				return anything
			}
			out := &mayHold{set: l.set | r.set, pairs: map[[2]int]bool{}}
			for p := range l.pairs {
				out.pairs[p] = true
			}
			for p := range r.pairs {
				out.pairs[p] = true
			}
			return out
		case ast.Inter:
			switch {
			case l.top:
				return r
			case r.top:
				return l
			}
			out := &mayHold{set: l.set & r.set, pairs: map[[2]int]bool{}}
			for p := range l.pairs {
				if r.pairs[p] {
					out.pairs[p] = true
				}
			}
			return out
		case ast.Diff:
			if l.top {
				return anything
			}
			// What the right side certainly holds whole: the classes of a
			// set, the products of classes of a relation.
			must := a.contents(x.Y, env)
			out := &mayHold{set: l.set, pairs: map[[2]int]bool{}}
			if must != nil {
				out.set &^= must.in
			}
			whole := a.whole(x.Y, env)
			for p := range l.pairs {
				if !whole[p] {
					out.pairs[p] = true
				}
			}
			return out
		case ast.Seq:
			lp, rp := a.relation(l), a.relation(r)
			out := &mayHold{pairs: map[[2]int]bool{}}
			for p := range lp {
				for q := range rp {
					if p[1] == q[0] {
						out.pairs[[2]int{p[0], q[1]}] = true
					}
				}
			}
			return out
		case ast.Cartesian:
			if l.top || r.top {
				return anything
			}
			return a.cross(l.set, r.set)
		}
		return anything
	case *ast.Unary:
		v := a.upper(x.X, env)
		switch x.Op {
		case ast.Plus, ast.Star, ast.Opt:
			if v.top {
				return anything
			}
			out := &mayHold{pairs: closePairs(v.pairs)}
			if x.Op != ast.Plus {
				for p := range a.identityMay(a.every()).pairs {
					out.pairs[p] = true
				}
			}
			return out
		case ast.Inverse:
			if v.top {
				return anything
			}
			out := &mayHold{pairs: map[[2]int]bool{}}
			for p := range v.pairs {
				out.pairs[[2]int{p[1], p[0]}] = true
			}
			return out
		case ast.ToID:
			if v.top {
				return a.identityMay(a.every())
			}
			return a.identityMay(v.set)
		}
		return anything
	case *ast.IfExpr:
		if holds, decided := a.cond(x.Cond); decided {
			if holds {
				return a.upper(x.Then, env)
			}
			return a.upper(x.Else, env)
		}
		return a.upper(&ast.Binary{Op: ast.Union, X: x.Then, Y: x.Else}, env)
	case *ast.Try:
		// herd's "try DMB.ISH with emptyset": the fallback when the name
		// is bound to nothing, else either side's value.
		if v, ok := x.X.(*ast.Var); ok {
			if _, bound := env[v.Name]; !bound {
				return a.upper(x.Fallback, env)
			}
		}
		return a.upper(&ast.Binary{Op: ast.Union, X: x.X, Y: x.Fallback}, env)
	case *ast.LetIn:
		inner := maps.Clone(env)
		a.bind(x.Rec, x.Bindings, inner)
		return a.upper(x.Body, inner)
	case *ast.App:
		if body, inner := a.call(x, env); body != nil {
			return a.upper(body, inner)
		}
		f, ok := x.Fun.(*ast.Var)
		if !ok || env[f.Name] != nil && env[f.Name].fun != nil {
			break // not a builtin: a function the model binds
		}
		switch f.Name {
		case "different-values":
			return a.upper(x.Arg, env) // some of its argument's pairs
		case "domain", "range":
			// The classes at one end of the pairs (purr's emptyset is
			// domain 0).
			v := a.upper(x.Arg, env)
			if v.top {
				return anything
			}
			out := &mayHold{}
			for p := range v.pairs {
				if f.Name == "domain" {
					out.set |= 1 << p[0]
				} else {
					out.set |= 1 << p[1]
				}
			}
			return out
		}
	}
	return anything
}

// whole lists the pairs of classes a relation certainly holds whole: a
// product of sets, unions and intersections of them.
func (a *porf) whole(x ast.Expr, env map[string]*contents) map[[2]int]bool {
	out := map[[2]int]bool{}
	b, ok := x.(*ast.Binary)
	if !ok {
		return out
	}
	switch b.Op {
	case ast.Cartesian:
		l, r := a.contents(b.X, env), a.contents(b.Y, env)
		if l != nil && r != nil {
			out = a.cross(l.in, r.in).pairs
		}
	case ast.Union:
		out = a.whole(b.X, env)
		for p := range a.whole(b.Y, env) {
			out[p] = true
		}
	case ast.Inter:
		r := a.whole(b.Y, env)
		for p := range a.whole(b.X, env) {
			if r[p] {
				out[p] = true
			}
		}
	}
	return out
}

// closePairs is the transitive closure of pairs.
func closePairs(pairs map[[2]int]bool) map[[2]int]bool {
	out := map[[2]int]bool{}
	for p := range pairs {
		out[p] = true
	}
	for changed := true; changed; {
		changed = false
		for p := range out {
			for q := range out {
				if p[1] == q[0] && !out[[2]int{p[0], q[1]}] {
					out[[2]int{p[0], q[1]}] = true
					changed = true
				}
			}
		}
	}
	return out
}
