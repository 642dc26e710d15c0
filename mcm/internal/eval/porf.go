package eval

import (
	"maps"

	"github.com/purr-mcm/purr/cat/ast"
)

// ImpliesAcyclicPoRf tells whether every execution the model accepts has
// po ∪ rf acyclic, by a check the model states: a required (not a flag,
// not skipped, not under an `if` the model's variants leave undecided)
// `acyclic X` whose X certainly contains po and rf (or rfe and rfi both),
// through unions, intersections, closures and let-bound names (sb, com,
// hb). Anything else, a sequence, a function, a procedure's check, a
// fixpoint, counts as containing neither, so false may be a model that
// implies it semantically (TSO's "ppo | rfe | ...", which leaves po's
// write-read pairs out): the answer is sound, not complete.
//
// Telling whether a bound is enough (mcm's cutReachable) needs it: a
// consistent execution that goes past the bound then has a thread whose
// events up to its cut depend on nothing past a cut.
func ImpliesAcyclicPoRf(m Model) bool {
	prelude, _, err := library()
	if err != nil {
		return false
	}
	a := &porf{model: m, variants: map[string]bool{}, included: map[string]bool{}}
	for _, v := range m.Variants {
		a.variants[v] = true
	}
	env := map[string]members{}
	a.run(prelude.Stmts, env, false)
	// The prelude's rf & ext and rf & int, which together are rf.
	env["rfe"], env["rfi"] = members{"rfe": true}, members{"rfi": true}
	return a.run(m.Cat.Stmts, env, true)
}

// members are the predefined relations an expression certainly contains:
// po, rf, rfe, rfi.
type members map[string]bool

// porfAtoms are the predefined names members tracks.
var porfAtoms = map[string]bool{"po": true, "rf": true}

type porf struct {
	model    Model
	variants map[string]bool
	included map[string]bool // as the evaluator, a file at most once
}

// run walks statements, binding names in env, and tells whether one of
// them is a check that makes po ∪ rf acyclic (when model: the prelude's
// checks are no model's).
func (a *porf) run(stmts []ast.Stmt, env map[string]members, model bool) bool {
	found := false
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Let:
			a.bind(st.Rec, st.Bindings, env)
		case *ast.Check:
			if model && a.ordersPoRf(st, env) {
				found = true
			}
		case *ast.Include:
			if st.Resolved != "" && !a.included[st.Resolved] {
				a.included[st.Resolved] = true
				found = a.run(st.Stmts, env, model) || found
			}
		case *ast.IfVariant:
			switch then, decided := a.cond(st.Cond); {
			case decided && then:
				found = a.run(st.Then, env, model) || found
			case decided:
				found = a.run(st.Else, env, model) || found
			default:
				a.forget(st.Then, env)
				a.forget(st.Else, env)
			}
		case *ast.With:
			env[st.Var] = nil
		case *ast.Enum:
			env[st.Name] = nil
			for _, t := range st.Tags {
				env[ast.TagSet(t)] = nil
			}
		case *ast.MatchStmt:
			// Which arm runs depends on the test: what they bind is unknown.
			for _, c := range st.Clauses {
				a.forget(c.Body, env)
			}
			a.forget(st.Default, env)
		}
		// Procedures, calls and forall bind nothing outside their bodies;
		// their checks are not followed.
	}
	return found
}

// ordersPoRf tells whether a check requires a relation that contains po
// and rf to be acyclic.
func (a *porf) ordersPoRf(c *ast.Check, env map[string]members) bool {
	if c.Mode != ast.Require || c.Negated || c.Kind != ast.Acyclic {
		return false
	}
	id := c.Name
	if id == "" {
		id = c.Pos.String() // as Check.ID names an unnamed check
	}
	if a.model.Skips(id) {
		return false
	}
	x := a.members(c.X, env)
	return x["po"] && (x["rf"] || (x["rfe"] && x["rfi"]))
}

// bind binds a let's names to what their values contain: nothing known of
// a recursive definition (a fixpoint may start empty) or of a pattern.
func (a *porf) bind(rec bool, bs []*ast.Binding, env map[string]members) {
	for _, b := range bs {
		var v members
		if !rec && len(b.Names) == 1 {
			v = a.members(b.Value, env)
		}
		for _, n := range b.Names {
			env[n] = v
		}
	}
}

// members says which of po, rf, rfe and rfi x certainly contains.
func (a *porf) members(x ast.Expr, env map[string]members) members {
	switch x := x.(type) {
	case *ast.Var:
		if v, ok := env[x.Name]; ok {
			return v
		}
		if porfAtoms[x.Name] {
			return members{x.Name: true}
		}
	case *ast.Binary:
		switch x.Op {
		case ast.Union:
			out := maps.Clone(a.members(x.X, env))
			if out == nil {
				out = members{}
			}
			maps.Copy(out, a.members(x.Y, env))
			return out
		case ast.Inter:
			return both(a.members(x.X, env), a.members(x.Y, env))
		}
	case *ast.Unary:
		switch x.Op {
		case ast.Plus, ast.Star, ast.Opt:
			return a.members(x.X, env)
		}
	case *ast.LetIn:
		inner := maps.Clone(env)
		a.bind(x.Rec, x.Bindings, inner)
		return a.members(x.Body, inner)
	case *ast.IfExpr:
		return both(a.members(x.Then, env), a.members(x.Else, env))
	case *ast.Try:
		return both(a.members(x.X, env), a.members(x.Fallback, env))
	}
	return nil
}

// both are the members two relations certainly contain, the one or the
// other (the branches of an if) or both (an intersection).
func both(x, y members) members {
	out := members{}
	for n := range x {
		if y[n] {
			out[n] = true
		}
	}
	return out
}

// cond decides an if's condition by the model's variants; decided is
// false when it compares values, which depend on the test.
func (a *porf) cond(c ast.Cond) (holds, decided bool) {
	switch c := c.(type) {
	case *ast.Variant:
		return a.variants[c.Name], true
	case *ast.Not:
		x, ok := a.cond(c.X)
		return !x, ok
	case *ast.And:
		x, okx := a.cond(c.X)
		y, oky := a.cond(c.Y)
		switch {
		case okx && !x, oky && !y:
			return false, true
		}
		return x && y, okx && oky
	case *ast.Or:
		x, okx := a.cond(c.X)
		y, oky := a.cond(c.Y)
		switch {
		case okx && x, oky && y:
			return true, true
		}
		return x || y, okx && oky
	}
	return false, false
}

// forget unbinds, as unknown, the names that statements which may or may
// not run bind.
func (a *porf) forget(stmts []ast.Stmt, env map[string]members) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Let:
			for _, b := range st.Bindings {
				for _, n := range b.Names {
					env[n] = nil
				}
			}
		case *ast.With:
			env[st.Var] = nil
		case *ast.Enum:
			env[st.Name] = nil
			for _, t := range st.Tags {
				env[ast.TagSet(t)] = nil
			}
		case *ast.Include:
			// Whether the evaluator includes the file here or later is
			// unknown: a later include is not followed either.
			a.included[st.Resolved] = true
			a.forget(st.Stmts, env)
		case *ast.IfVariant:
			a.forget(st.Then, env)
			a.forget(st.Else, env)
		case *ast.MatchStmt:
			for _, c := range st.Clauses {
				a.forget(c.Body, env)
			}
			a.forget(st.Default, env)
		}
	}
}
