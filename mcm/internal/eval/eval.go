package eval

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// The evaluator runs a resolved Cat model over the algebra. Values are
// event sets, relations, the polymorphic empty set/relation "0", tags,
// sets and tuples of values, functions and procedures.

type (
	emptyVal struct{} // 0, {}: empty whatever its use
	tagVal   string
	tupleVal []value
	setVal   []value // a set of non-event values (tags, relations, ...)
	closure  struct {
		name   string
		params []string
		body   ast.Expr
		env    *env
	}
	builtin[L comparable] struct {
		name string
		fn   func(ev *evaluator[L], pos source.Pos, arg value) (value, error)
	}
	procedure struct {
		def *ast.Procedure
		env *env
	}
)

type value any

// env is a scope: a chain of bindings.
type env struct {
	// A scope binds few names (a let binds one, a call its parameters),
	// and a model nests hundreds of scopes, one per let: lookups walk the
	// chain, so a scope keeps its names in a slice, which is faster to
	// scan than a map is to hash, and indexes them only when it has many
	// (the predefined names).
	names  []string
	vals   []value
	index  map[string]int
	parent *env
	// shared says that names and index are shared with other scopes (the
	// predefined names of every test): set copies them before it adds a
	// name.
	shared bool
	// The storage of a child scope's first binding (most bind one name):
	// names and vals start in them.
	name1 [1]string
	val1  [1]value
}

// manyNames is the size from which a scope indexes its names.
const manyNames = 16

func (e *env) lookup(name string) (value, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.own(name); ok {
			return v, true
		}
	}
	return nil, false
}

// own returns the value name has in this scope itself.
func (e *env) own(name string) (value, bool) {
	if e.index != nil {
		if i, ok := e.index[name]; ok {
			return e.vals[i], true
		}
		return nil, false
	}
	for i, n := range e.names {
		if n == name {
			return e.vals[i], true
		}
	}
	return nil, false
}

// set binds name in this scope, replacing its value if it has one.
func (e *env) set(name string, v value) {
	if e.index != nil {
		if i, ok := e.index[name]; ok {
			e.vals[i] = v
			return
		}
	} else {
		for i, n := range e.names {
			if n == name {
				e.vals[i] = v
				return
			}
		}
	}
	if e.shared {
		e.names, e.index, e.shared = slices.Clone(e.names), maps.Clone(e.index), false
	}
	e.names = append(e.names, name)
	e.vals = append(e.vals, v)
	if e.index != nil {
		e.index[name] = len(e.names) - 1
	} else if len(e.names) >= manyNames {
		e.index = make(map[string]int, len(e.names))
		for i, n := range e.names {
			e.index[n] = i
		}
	}
}

func (e *env) child() *env {
	c := &env{parent: e}
	c.names, c.vals = c.name1[:0], c.val1[:0]
	return c
}

// Check is one axiom of the model, as a literal that holds when the
// execution passes it. A required acyclicity check keeps its relation
// instead (Acyclic != nil, Lit unset): the SAT engine enforces it lazily,
// by refuting the cycles the solver proposes, which avoids encoding the
// transitive closure.
type Check[L comparable] struct {
	Name    string
	Mode    ast.CheckMode
	Lit     L
	Acyclic Rel[L]
	Pos     source.Pos
	// Unnamed: the model gives the check no name (Name is its kind).
	Unnamed bool
	// Kind is what it tests: acyclic, irreflexive or empty, with ~ when
	// negated; "" for the check of a "with" choice.
	Kind string
	// WellFormed marks purr's rules of well-formed executions, which are
	// not the model's: no execution breaks them.
	WellFormed bool
	// Rel or Set is what the check tests, for the witness of its failure
	// (a cycle, a reflexive pair, a member).
	Rel Rel[L]
	Set Set[L]
}

// ID names the check as -skipchecks takes it: its name, or for a check
// the model leaves unnamed, its position (FILE:LINE:COL).
func (c *Check[L]) ID() string {
	if c.Unnamed {
		return c.Pos.String()
	}
	return c.Name
}

// Literal returns the check's literal, encoding a lazy check exactly.
func (c *Check[L]) Literal(al *Algebra[L]) L {
	if c.Acyclic != nil {
		c.Lit, c.Acyclic = al.acyclic(c.Acyclic), nil
	}
	return c.Lit
}

type evaluator[L comparable] struct {
	ctx      context.Context // nil: never done
	al       *Algebra[L]
	variants map[string]bool
	included map[string]bool
	checks   []Check[L]
	co       Rel[L] // the engine's co, which "with co from ..." binds
	loc      Rel[L] // the engine's loc, which classes-loc partitions by
	depth    int    // nested function applications and procedure calls
	// tagged are the engine's sets of events by tag: a bell's enum binds
	// the set of each tag it declares from them (empty when no event
	// carries the tag).
	tagged map[string]Set[L]

	// captured, when set, collects what the model binds and shows (see
	// RunCapturing); choices counts the "with x from S" over several
	// elements being evaluated, and beforeChoice is the scope before the
	// first: bindings after it differ from branch to branch.
	captured     *Captured[L]
	choices      int
	beforeChoice *env
	// guards are the selectors of the branches of "with x from S" being
	// evaluated, outermost first (see withChoice).
	guards []L
	// coValues holds, by identity, the values of the native co and of the
	// relations derived from it (fr, coe, ...), and the values the model
	// binds with let from any of them. tracking is set while the model's
	// own statements run; coTouched says that the expression being
	// evaluated read one of coValues. A check, a call, a with or forall
	// that reads one sets al.readsCo: a binding only passes it on.
	coValues  map[uintptr]bool
	tracking  bool
	coTouched bool

	// prefixpoints are the let rec statements (by their first binding)
	// encoded as prefixpoints, when the logic can (letrec.go).
	prefixpoints map[*ast.Binding]bool
}

// touching evaluates f, and tells whether it read a value of coValues.
func (ev *evaluator[L]) touching(f func() error) (bool, error) {
	saved := ev.coTouched
	ev.coTouched = false
	err := f()
	touched := ev.coTouched
	ev.coTouched = saved
	return touched, err
}

// decidingExpr evaluates x, which the model decides with (a check, the
// set of a with or forall): if it reads co, the model does.
func (ev *evaluator[L]) decidingExpr(x ast.Expr, sc *env) (value, error) {
	var v value
	touched, err := ev.touching(func() (err error) {
		v, err = ev.expr(x, sc)
		return err
	})
	ev.usesCo(touched)
	return v, err
}

// usesCo records that what the model decides with depends on co when
// touched.
func (ev *evaluator[L]) usesCo(touched bool) {
	if touched && ev.tracking {
		ev.al.readsCo = true
	}
}

// taint adds v, or the elements of the tuple v, to coValues.
func (ev *evaluator[L]) taint(v value) {
	if !ev.tracking {
		return
	}
	if t, ok := v.(tupleVal); ok {
		for _, x := range t {
			ev.taint(x)
		}
		return
	}
	if id := valueID[L](v); id != 0 {
		ev.coValues[id] = true
	}
}

// valueID identifies a set's or relation's storage, to recognise a value
// met again (0: not one).
func valueID[L comparable](v value) uintptr {
	// reflect.ValueOf(v), not of the switch's typed variable, which it
	// would box again.
	switch x := v.(type) {
	case Rel[L]:
		if x != nil {
			return reflect.ValueOf(v).Pointer()
		}
	case Set[L]:
		if len(x) > 0 {
			return reflect.ValueOf(v).Pointer()
		}
	}
	return 0
}

// maxCallDepth bounds the nesting of function applications and procedure
// calls, so that a model that recurses without end gets an error instead
// of overflowing Go's stack, which no recover can catch.
const maxCallDepth = 10000

// enter counts one more nested call at pos; the caller defers ev.leave.
func (ev *evaluator[L]) enter(pos source.Pos, name string) error {
	if ev.depth >= maxCallDepth {
		return errAt(pos, "calls of %s nest deeper than %d: unbounded recursion?", name, maxCallDepth)
	}
	ev.depth++
	return nil
}

func (ev *evaluator[L]) leave() { ev.depth-- }

// atCallSite moves an error raised inside a function of purr's prelude
// (map, fold, cross, ...) to the model's call of that function: the
// prelude is purr's file, not the model's, and its lines tell the model's
// author nothing.
func atCallSite(pos source.Pos, err error) error {
	var e *source.Error
	if !errors.As(err, &e) || e.Pos.File != preludeFile || pos.File == preludeFile {
		return err
	}
	moved := source.Errorf(pos, "%s (in purr's prelude, which defines the function called here)", e.Msg)
	var v *variesError
	if errors.As(err, &v) {
		return &variesError{moved}
	}
	return moved
}

// describe names a closure in messages.
func (f *closure) describe() string {
	if f.name == "" {
		return "an anonymous function"
	}
	return f.name
}

// done returns the context's error once it is done.
func (ev *evaluator[L]) done() error {
	if ev.ctx == nil {
		return nil
	}
	return ev.ctx.Err()
}

// variesError marks the refusals of an engine that keeps executions
// symbolic: the model needs a member-by-member walk of a set that differs
// between executions.
type variesError struct{ err *source.Error }

func (e *variesError) Error() string { return e.err.Error() }
func (e *variesError) Unwrap() error { return e.err }

// NeedsConcreteExecutions tells whether err is an engine's refusal to walk
// the members of a set or relation that differs between executions: the
// explicit engine, which has each execution concretely, can run the model.
func NeedsConcreteExecutions(err error) bool {
	var e *variesError
	return errors.As(err, &e)
}

func errVaries(pos source.Pos, format string, args ...any) error {
	return &variesError{source.Errorf(pos, format, args...)}
}

// callSite places an error met in the body of a procedure defined in
// another file (a library's, as msg-no-loss.cat's) at the call, which is
// what the user wrote: a pattern called with the wrong kind of argument
// fails inside the library. Errors of other types (limits, cancellation,
// values that vary between executions) pass unchanged.
func callSite(call *ast.Call, err error) error {
	e, ok := err.(*source.Error)
	if !ok || e.Pos.File == call.Pos.File {
		return err
	}
	return source.Errorf(call.Pos, "call %s fails in its body: %s: %s", call.Name, e.Pos, e.Msg)
}

func errAt(pos source.Pos, format string, args ...any) error {
	return source.Errorf(pos, format, args...)
}

// run evaluates a list of statements in scope sc and returns the scope
// that follows them.
func (ev *evaluator[L]) run(stmts []ast.Stmt, sc *env) (*env, error) {
	for i, st := range stmts {
		if err := ev.done(); err != nil {
			return nil, err
		}
		if w, ok := st.(*ast.With); ok && !isCoGeneration(w) {
			return ev.withChoice(w, stmts[i+1:], sc)
		}
		if inc, ok := st.(*ast.Include); ok && inc.Resolved != "" && !ev.included[inc.Resolved] {
			// The included file's statements run as if written here: a
			// "with x from S" in it chooses for the rest of the including
			// file too (lock.cat's choices reach linux-kernel.cat's checks).
			ev.included[inc.Resolved] = true
			spliced := append(append([]ast.Stmt(nil), inc.Stmts...), stmts[i+1:]...)
			return ev.run(spliced, sc)
		}
		var err error
		if sc, err = ev.stmt(st, sc); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// Chooser is what a Logic offers to make "with x from S" part of what an
// engine enumerates, as herd7 counts it: each choice that passes the rest
// of the model is an execution of its own. Choose returns n literals of
// which exactly one holds when guard holds, and none when it does not.
// The SAT engine answers with fresh variables, the explicit engine with
// the constants of the choice it is trying. A Logic that is no Chooser
// gets the disjunction: an execution passes when some choice does.
type Chooser[L comparable] interface {
	Choose(guard L, n int) []L
}

// withChoice runs "with x from S; rest". Sets and relations choose by a
// multiplexer: x is the element whose selector holds, and the rest of the
// model, wherever it is (after an include too), runs once on it. Other
// elements (tags, tuples, sets of relations) run the rest of this list of
// statements once per element, each branch's checks holding under its
// selector.
func (ev *evaluator[L]) withChoice(w *ast.With, rest []ast.Stmt, sc *env) (*env, error) {
	if o, ok := ev.al.lg.(Orderer[L]); ok && len(ev.guards) == 0 {
		if sx, rx, perLoc, isGen := orderGenerator(w); isGen && fromLibrary[L](sc, w.Set.(*ast.App).Fun.(*ast.Var).Name) {
			var x Rel[L]
			touched, err := ev.touching(func() (err error) {
				x, err = ev.chooseOrder(w, o, sx, rx, perLoc, sc)
				return err
			})
			if err != nil {
				return nil, err
			}
			ev.usesCo(touched)
			inner := sc.child()
			inner.set(w.Var, x)
			return ev.run(rest, inner)
		}
	}
	v, err := ev.decidingExpr(w.Set, sc)
	if err != nil {
		return nil, err
	}
	if choices, isFamily, err := ev.familyOptions(w.Pos, v); isFamily {
		if err != nil {
			return nil, err
		}
		return ev.withFamily(w, choices, rest, sc)
	}
	elems, err := ev.elements(w.Pos, v)
	if err != nil {
		return nil, err
	}
	elems = ev.distinctValues(elems)
	if len(elems) == 1 {
		inner := sc.child()
		inner.set(w.Var, elems[0])
		return ev.run(rest, inner)
	}
	ch, choosing := ev.al.lg.(Chooser[L])
	if !choosing {
		return ev.withSomeChoice(w, elems, rest, sc)
	}
	if len(elems) == 0 {
		// Nothing to choose from: no execution passes. The rest still
		// runs, on the empty value, for the names it binds.
		ev.checks = append(ev.checks, Check[L]{Name: w.Var, Mode: ast.Require, Lit: ev.al.lg.Not(ev.guard()), Pos: w.Pos})
		inner := sc.child()
		inner.set(w.Var, emptyVal{})
		return ev.run(rest, inner)
	}
	sels := ch.Choose(ev.guard(), len(elems))
	for _, l := range sels {
		if l != ev.al.t && l != ev.al.f {
			ev.al.choices = append(ev.al.choices, l)
		}
	}
	if x, ok := ev.mux(sels, elems); ok {
		inner := sc.child()
		inner.set(w.Var, x)
		return ev.run(rest, inner)
	}
	if ev.captured != nil {
		if ev.choices == 0 && ev.beforeChoice == nil {
			ev.beforeChoice = sc
		}
		ev.choices++
		defer func() { ev.choices-- }()
	}
	before, outer := ev.checks, ev.guards
	var kept []Check[L]
	var last *env
	for i, x := range elems {
		sel := sels[i]
		if sel == ev.al.f {
			continue
		}
		ev.checks = nil
		ev.guards = append(outer[:len(outer):len(outer)], sel)
		inner := sc.child()
		inner.set(w.Var, x)
		if last, err = ev.run(rest, inner); err != nil {
			return nil, err
		}
		for _, c := range ev.checks {
			switch c.Mode {
			case ast.Require, ast.Assert:
				c.Lit, c.Acyclic = ev.al.lg.Or(ev.al.lg.Not(sel), c.Literal(ev.al)), nil
			case ast.Flag:
				c.Lit = ev.al.lg.And(sel, c.Lit)
			case ast.UndefinedUnless:
				c.Lit = ev.al.lg.Or(ev.al.lg.Not(sel), c.Lit)
			}
			kept = append(kept, c)
		}
	}
	ev.checks, ev.guards = append(before, kept...), outer
	if last == nil {
		last = sc
	}
	return last, nil
}

// guard is when the choice being evaluated is reached: the conjunction of
// the selectors of the branches around it.
func (ev *evaluator[L]) guard() L { return ev.al.lg.All(ev.guards) }

// mux is the element whose selector holds, when the elements are all
// event sets or all relations.
func (ev *evaluator[L]) mux(sels []L, elems []value) (value, bool) {
	lg := ev.al.lg
	sets, rels := 0, 0
	for _, x := range elems {
		switch x.(type) {
		case Set[L]:
			sets++
		case Rel[L]:
			rels++
		case emptyVal:
		default:
			return nil, false
		}
	}
	for i, l := range sels {
		if l == ev.al.t {
			return elems[i], true
		}
	}
	switch {
	case rels == 0 && sets > 0:
		out := ev.al.EmptySet()
		for i, x := range elems {
			if s, ok := x.(Set[L]); ok {
				for e, l := range s {
					out[e] = lg.Or(out[e], lg.And(sels[i], l))
				}
			}
		}
		return out, true
	case sets == 0:
		out := Rel[L]{}
		for i, x := range elems {
			if r, ok := x.(Rel[L]); ok {
				for _, k := range SortedPairs(r) {
					o, in := out[k]
					if !in {
						o = ev.al.f
					}
					out[k] = lg.Or(o, lg.And(sels[i], r[k]))
				}
			}
		}
		return out, true
	}
	return nil, false
}

// distinctValues drops the elements equal to an earlier one in every
// execution (herd's sets have each value once).
func (ev *evaluator[L]) distinctValues(elems []value) []value {
	var out []value
next:
	for _, x := range elems {
		for _, y := range out {
			if lits, ok := ev.al.differences(x, y); ok && ev.al.lg.Any(lits) == ev.al.f {
				continue next
			}
		}
		out = append(out, x)
	}
	return out
}

// withSomeChoice runs the rest of the model once per element, for a Logic
// that cannot choose: an execution is consistent when it passes the rest
// for some element: each branch's checks are joined into one check per
// branch, and the branches into their disjunction.
func (ev *evaluator[L]) withSomeChoice(w *ast.With, elems []value, rest []ast.Stmt, sc *env) (*env, error) {
	if ev.captured != nil {
		if ev.choices == 0 && ev.beforeChoice == nil {
			ev.beforeChoice = sc
		}
		ev.choices++
		defer func() { ev.choices-- }()
	}
	before := ev.checks
	var branches []L
	var flags []Check[L]
	var last *env
	var err error
	for _, x := range elems {
		ev.checks = nil
		inner := sc.child()
		inner.set(w.Var, x)
		if last, err = ev.run(rest, inner); err != nil {
			return nil, err
		}
		var ok []L
		for i := range ev.checks {
			if c := &ev.checks[i]; c.Mode == ast.Require || c.Mode == ast.Assert {
				ok = append(ok, c.Literal(ev.al))
			}
		}
		branch := ev.al.lg.All(ok)
		branches = append(branches, branch)
		// Only a branch that passes raises its flags: a flag's literal
		// says when it is raised, an undefined_unless's when it holds.
		for _, c := range ev.checks {
			switch c.Mode {
			case ast.Flag:
				c.Lit = ev.al.lg.And(branch, c.Lit)
				flags = append(flags, c)
			case ast.UndefinedUnless:
				c.Lit = ev.al.lg.Or(ev.al.lg.Not(branch), c.Lit)
				flags = append(flags, c)
			}
		}
	}
	ev.checks = append(before, flags...)
	ev.checks = append(ev.checks, Check[L]{Name: w.Var, Mode: ast.Require, Lit: ev.al.lg.Any(branches), Pos: w.Pos})
	if last == nil {
		last = sc
	}
	return last, nil
}

// isCoGeneration recognises herd's "with co from generate_cos(...)" (and
// linearisations): purr's co is already a free total order.
func isCoGeneration(w *ast.With) bool {
	app, ok := w.Set.(*ast.App)
	if !ok || w.Var != "co" {
		return false
	}
	f, ok := app.Fun.(*ast.Var)
	return ok && (f.Name == "generate_cos" || f.Name == "linearisations")
}

func (ev *evaluator[L]) stmt(st ast.Stmt, sc *env) (*env, error) {
	switch st := st.(type) {
	case *ast.Let:
		var next *env
		touched, err := ev.touching(func() (err error) {
			next, err = ev.bind(st.Bindings, st.Rec, sc)
			return err
		})
		if err != nil {
			return nil, err
		}
		if touched && st.Rec { // bind taints the values of a let without rec
			for e := next; e != nil && e != sc; e = e.parent {
				for _, v := range e.vals {
					ev.taint(v)
				}
			}
		}
		if st.When != nil {
			if _, err := ev.stmt(st.When, next); err != nil {
				return nil, err
			}
		}
		return next, nil
	case *ast.Check:
		v, err := ev.decidingExpr(st.X, sc)
		if err != nil {
			return nil, err
		}
		name := st.Name
		if name == "" {
			name = st.Kind.String()
		}
		c := Check[L]{Name: name, Mode: st.Mode, Pos: st.Pos, Unnamed: st.Name == "", Kind: st.Kind.String()}
		if st.Negated {
			c.Kind = "~" + c.Kind
		}
		switch v := v.(type) {
		case Rel[L]:
			c.Rel = v
		case Set[L]:
			c.Set = v
		}
		if st.Kind == ast.Acyclic && !st.Negated && st.Mode == ast.Require {
			r, err := ev.rel(st.Pos, v)
			if err != nil {
				return nil, err
			}
			c.Acyclic, c.Rel = r, r
			ev.checks = append(ev.checks, c)
			return sc, nil
		}
		lit, err := ev.test(st, v)
		if err != nil {
			return nil, err
		}
		if st.Negated {
			lit = ev.al.lg.Not(lit)
		}
		c.Lit = lit
		ev.checks = append(ev.checks, c)
		return sc, nil
	case *ast.Show, *ast.ShowAs, *ast.Unshow:
		return sc, ev.show(st, sc)
	case *ast.Debug, *ast.Instructions:
		return sc, nil
	case *ast.Include:
		if st.Resolved == "" || ev.included[st.Resolved] {
			return sc, nil
		}
		ev.included[st.Resolved] = true
		return ev.run(st.Stmts, sc)
	case *ast.Procedure:
		next := sc.child()
		p := &procedure{def: st, env: next}
		next.set(st.Name, p)
		if !st.Rec {
			p.env = sc
		}
		return next, nil
	case *ast.Call:
		v, ok := sc.lookup(st.Name)
		p, isProc := v.(*procedure)
		if !ok || !isProc {
			return nil, errAt(st.Pos, "%s is not a procedure", st.Name)
		}
		var arg value
		touched, err := ev.touching(func() (err error) {
			arg, err = ev.expr(st.Arg, sc)
			return err
		})
		if err != nil {
			return nil, err
		}
		if touched {
			ev.taint(arg)
		}
		body := p.env.child()
		if err := ev.bindParams(st.Pos, p.def.Params, arg, body); err != nil {
			return nil, err
		}
		before := len(ev.checks)
		if err := ev.enter(st.Pos, st.Name); err != nil {
			return nil, err
		}
		_, err = ev.run(p.def.Body, body)
		ev.leave()
		if err != nil {
			return nil, callSite(st, err)
		}
		if st.As != "" {
			for i := before; i < len(ev.checks); i++ {
				ev.checks[i].Name = st.As
			}
		}
		return sc, nil
	case *ast.Forall:
		v, err := ev.decidingExpr(st.Set, sc)
		if err != nil {
			return nil, err
		}
		elems, err := ev.elements(st.Pos, v)
		if err != nil {
			return nil, err
		}
		for _, x := range elems {
			body := sc.child()
			body.set(st.Var, x)
			if _, err := ev.run(st.Body, body); err != nil {
				return nil, err
			}
		}
		return sc, nil
	case *ast.IfVariant:
		c, err := ev.cond(st.Cond, sc)
		if err != nil {
			return nil, err
		}
		if c {
			return ev.run(st.Then, sc)
		}
		return ev.run(st.Else, sc)
	case *ast.MatchStmt:
		v, err := ev.expr(st.X, sc)
		if err != nil {
			return nil, err
		}
		t, ok := v.(tagVal)
		if !ok {
			return nil, errAt(st.Pos, "match expects a tag")
		}
		for _, c := range st.Clauses {
			if c.Tag == string(t) {
				return ev.run(c.Body, sc)
			}
		}
		if st.HasDefault {
			return ev.run(st.Default, sc)
		}
		return nil, errAt(st.Pos, "no arm of the match matches '%s", t)
	case *ast.With:
		return ev.with(st, sc)
	case *ast.Enum:
		next := sc.child()
		var tags setVal
		for _, t := range st.Tags {
			tags = append(tags, tagVal(t))
		}
		next.set(st.Name, tags)
		for _, t := range st.Tags {
			name := ast.TagSet(t)
			if set, ok := ev.tagged[name]; ok {
				next.set(name, set)
			} else {
				next.set(name, ev.al.EmptySet())
			}
		}
		return next, nil
	}
	return nil, errAt(st.Position(), "unsupported instruction %T", st)
}

// with handles "with co from S": purr's co is already a free strict total
// order per location with initial writes first, so choosing co among the
// linearisations of a relation means requiring that co extends it.
func (ev *evaluator[L]) with(st *ast.With, sc *env) (*env, error) {
	if !isCoGeneration(st) {
		return nil, errAt(st.Pos, "with %s from ... cannot be evaluated here", st.Var)
	}
	app := st.Set.(*ast.App)
	fname := app.Fun.(*ast.Var).Name
	if !fromLibrary[L](sc, fname) {
		return nil, errAt(st.Pos, "with co from %s(...): this %s is the model's own, not herd's library function, and purr chooses co only as herd's library does", fname, fname)
	}
	arg, err := ev.expr(app.Arg, sc)
	if err != nil {
		return nil, err
	}
	// The orders range over a set of events: herd's generate_cos orders
	// the events of W (as the model binds it there), linearisations those
	// of its first argument; the base's pairs outside it do not count.
	var over value
	if fname == "linearisations" {
		t, ok := arg.(tupleVal)
		if !ok || len(t) != 2 {
			return nil, errAt(st.Pos, "linearisations expects (set, relation)")
		}
		over, arg = t[0], t[1]
	} else if w, ok := sc.lookup("W"); ok {
		over = w
	}
	base, err := ev.rel(app.Pos, arg)
	if err != nil {
		return nil, err
	}
	if over != nil {
		s, err := ev.set(app.Pos, over)
		if err != nil {
			return nil, err
		}
		base = ev.al.inter(base, ev.al.cross(s, s))
	}
	co := ev.co
	ev.al.readsCo = true
	ev.checks = append(ev.checks, Check[L]{Name: "co-extends", Mode: ast.Require, Lit: ev.al.isEmpty(ev.al.Diff(base, co)), Pos: st.Pos})
	next := sc.child()
	next.set("co", co)
	return next, nil
}

// test evaluates a check's test on a value.
func (ev *evaluator[L]) test(st *ast.Check, v value) (L, error) {
	if st.Kind == ast.IsEmpty {
		switch v := v.(type) {
		case emptyVal:
			return ev.al.t, nil
		case Set[L]:
			return ev.al.isEmptySet(v), nil
		case Rel[L]:
			return ev.al.isEmpty(v), nil
		case setVal:
			if len(v) == 0 {
				return ev.al.t, nil
			}
			return ev.al.f, nil
		}
		return ev.al.f, errAt(st.Pos, "empty expects a set or a relation, not %s", kindOf(v))
	}
	r, err := ev.rel(st.Pos, v)
	if err != nil {
		return ev.al.f, err
	}
	if st.Kind == ast.Acyclic {
		return ev.al.acyclic(r), nil
	}
	return ev.al.irreflexive(r), nil
}

// bind evaluates let bindings. Recursive bindings of functions tie the knot
// through the scope; recursive bindings of sets and relations are least
// fixpoints, computed by iteration from the empty relation.
func (ev *evaluator[L]) bind(bs []*ast.Binding, rec bool, sc *env) (*env, error) {
	next := sc.child()
	if !rec {
		for _, b := range bs {
			var v value
			touched, err := ev.touching(func() (err error) {
				v, err = ev.expr(b.Value, sc)
				return err
			})
			if err != nil {
				return nil, err
			}
			if touched {
				ev.taint(v) // a value computed from co stands for it
			}
			if err := ev.bindParams(b.Pos, b.Names, v, next); err != nil {
				return nil, err
			}
		}
		return next, nil
	}
	allFuns := true
	for _, b := range bs {
		if _, ok := b.Value.(*ast.Fun); !ok {
			allFuns = false
		}
	}
	if allFuns {
		for _, b := range bs {
			v, err := ev.expr(b.Value, next)
			if err != nil {
				return nil, err
			}
			if err := ev.bindParams(b.Pos, b.Names, v, next); err != nil {
				return nil, err
			}
		}
		return next, nil
	}
	return ev.fixpoint(bs, next)
}

// fixpoint computes the least fixpoint of mutually recursive definitions
// by iteration from the empty value, as herd7 does. Over the SAT algebra a
// round rarely rebuilds the same literals (r;r makes new gates each time),
// so when the values differ syntactically the solver decides whether they
// may differ in any execution; once they cannot, the iteration has
// converged in every execution. An iteration that still changes after
// more rounds than there are pairs of events never converges (only a
// definition that is not monotone, using \ or ~ on itself, can do that).
func (ev *evaluator[L]) fixpoint(bs []*ast.Binding, sc *env) (*env, error) {
	for _, b := range bs {
		if len(b.Names) != 1 {
			return nil, errAt(b.Pos, "let rec of a tuple is not supported")
		}
		sc.set(b.Names[0], emptyVal{})
	}
	if pf, ok := ev.al.lg.(Prefixpoints[L]); ok && ev.prefixpoints[bs[0]] {
		if done, err := ev.prefixpoint(bs, sc, pf); err != nil || done {
			return sc, err
		}
	}
	bound := len(ev.al.Exec)*len(ev.al.Exec) + 1
	for round := 0; ; round++ {
		if err := ev.done(); err != nil {
			return nil, err
		}
		if round > bound {
			return nil, errAt(bs[0].Pos, "the fixpoint of %s does not converge", bs[0].Names[0])
		}
		// Each binding of a round sees the values the earlier bindings got
		// in the same round, as in herd7: the bell's rcu-rscs, which is
		// not monotone, matches the locks and unlocks it does only so.
		vals := make([]value, len(bs))
		olds := make([]value, len(bs))
		for i, b := range bs {
			v, err := ev.expr(b.Value, sc)
			if err != nil {
				return nil, err
			}
			vals[i] = v
			olds[i], _ = sc.own(b.Names[0])
			sc.set(b.Names[0], v)
		}
		if ev.converged(vals, olds) {
			return sc, nil
		}
	}
}

// converged reports whether the new values of a fixpoint round equal the
// previous ones (olds) in every execution.
func (ev *evaluator[L]) converged(vals, olds []value) bool {
	var differ []L
	for i, old := range olds {
		if ev.al.sameValue(vals[i], old) {
			continue
		}
		d, ok := ev.al.differences(vals[i], old)
		if !ok {
			return false
		}
		differ = append(differ, d...)
	}
	if len(differ) == 0 {
		return true
	}
	return !ev.al.lg.Satisfiable(ev.al.lg.Any(differ))
}

// sameValue compares two sets or relations literal by literal.
func (al *Algebra[L]) sameValue(a, b value) bool {
	switch a := a.(type) {
	case emptyVal:
		switch b := b.(type) {
		case emptyVal:
			return true
		case Rel[L]:
			return len(b) == 0
		case Set[L]:
			for _, l := range b {
				if l != al.f {
					return false
				}
			}
			return true
		}
	case Rel[L]:
		switch b := b.(type) {
		case emptyVal:
			return len(a) == 0
		case Rel[L]:
			if len(a) != len(b) {
				return false
			}
			for k, l := range a {
				if b[k] != l {
					return false
				}
			}
			return true
		}
	case Set[L]:
		switch b := b.(type) {
		case emptyVal:
			return al.sameValue(b, a)
		case Set[L]:
			for i := range a {
				if a[i] != b[i] {
					return false
				}
			}
			return true
		}
	}
	return false
}

// bindParams binds a pattern (one name, or a tuple of names) to a value.
func (ev *evaluator[L]) bindParams(pos source.Pos, names []string, v value, sc *env) error {
	if len(names) == 1 {
		if names[0] != "_" {
			sc.set(names[0], v)
		}
		return nil
	}
	t, ok := v.(tupleVal)
	if !ok || len(t) != len(names) {
		return errAt(pos, "expected a tuple of %d values, got %s", len(names), kindOf(v))
	}
	for i, n := range names {
		if n != "_" {
			sc.set(n, t[i])
		}
	}
	return nil
}

func (ev *evaluator[L]) cond(c ast.Cond, sc *env) (bool, error) {
	switch c := c.(type) {
	case *ast.Variant:
		return ev.variants[c.Name], nil
	case *ast.Not:
		x, err := ev.cond(c.X, sc)
		return !x, err
	case *ast.And:
		x, err := ev.cond(c.X, sc)
		if err != nil || !x {
			return false, err
		}
		return ev.cond(c.Y, sc)
	case *ast.Or:
		x, err := ev.cond(c.X, sc)
		if err != nil || x {
			return x, err
		}
		return ev.cond(c.Y, sc)
	case *ast.Compare:
		x, err := ev.expr(c.X, sc)
		if err != nil {
			return false, err
		}
		y, err := ev.expr(c.Y, sc)
		if err != nil {
			return false, err
		}
		switch c.Op {
		case ast.Equal:
			if tx, ok := x.(tagVal); ok {
				ty, ok := y.(tagVal)
				return ok && tx == ty, nil
			}
		case ast.MemberOf:
			if tx, ok := x.(tagVal); ok {
				elems, err := ev.elements(c.Pos, y)
				if err != nil {
					return false, err
				}
				for _, e := range elems {
					if e == value(tx) {
						return true, nil
					}
				}
				return false, nil
			}
		}
		return false, errAt(c.Pos, "unsupported comparison %s on %s", c.Op, kindOf(x))
	}
	return false, errAt(c.Position(), "unsupported condition %T", c)
}

func kindOf(v value) string {
	switch v := v.(type) {
	case interface{ kind() string }:
		return v.kind()
	case emptyVal:
		return "the empty set"
	case tagVal:
		return "a tag"
	case tupleVal:
		return "a tuple"
	case setVal:
		return "a set of values"
	case *closure:
		return "a function"
	case *procedure:
		return "a procedure"
	}
	return fmt.Sprintf("%T", v)
}

// elements lists the members of a set of values. A set of events or a
// relation is a set of values only when it is empty in every execution:
// purr does not enumerate the members of sets that vary.
func (ev *evaluator[L]) elements(pos source.Pos, v value) ([]value, error) {
	switch v := v.(type) {
	case emptyVal:
		return nil, nil
	case setVal:
		return v, nil
	case Rel[L]:
		if pairs, ok := ev.staticPairs(v); ok {
			return pairs, nil
		}
		return nil, errVaries(pos, "unsupported: enumerating the pairs of a relation that depends on the execution")
	case Set[L]:
		if members, ok := ev.staticEvents(v); ok {
			return members, nil
		}
		return nil, errVaries(pos, "unsupported: enumerating the events of a set that depends on the execution")
	case *varyingSet[L], *crossOf[L]:
		return nil, errVaries(pos, "unsupported: walking %s (purr only chooses from it, with)", kindOf(v))
	}
	return nil, errAt(pos, "expected a set of values, got %s", kindOf(v))
}

// rel coerces a value to a relation.
func (ev *evaluator[L]) rel(pos source.Pos, v value) (Rel[L], error) {
	switch v := v.(type) {
	case emptyVal:
		return Rel[L]{}, nil
	case Rel[L]:
		return v, nil
	}
	return nil, errAt(pos, "expected a relation, got %s", kindOf(v))
}

// set coerces a value to an event set.
func (ev *evaluator[L]) set(pos source.Pos, v value) (Set[L], error) {
	switch v := v.(type) {
	case emptyVal:
		return ev.al.EmptySet(), nil
	case Set[L]:
		return v, nil
	}
	return nil, errAt(pos, "expected an event set, got %s", kindOf(v))
}

func (ev *evaluator[L]) expr(x ast.Expr, sc *env) (value, error) {
	switch x := x.(type) {
	case *ast.Var:
		if v, ok := sc.lookup(x.Name); ok {
			if ev.tracking && ev.coValues[valueID[L](v)] {
				ev.coTouched = true
			}
			return v, nil
		}
		return nil, errAt(x.Pos, "unbound name %s", x.Name)
	case *ast.Empty:
		return emptyVal{}, nil
	case *ast.Universe:
		return ev.al.universe(), nil
	case *ast.Tag:
		return tagVal(x.Name), nil
	case *ast.SetLit:
		var out setVal
		for _, e := range x.Elems {
			v, err := ev.expr(e, sc)
			if err != nil {
				return nil, err
			}
			out = ev.addElem(out, v)
		}
		if len(out) == 0 {
			return emptyVal{}, nil
		}
		if m, ok := ev.membersLiteral(x.Pos, out); ok {
			return m, nil // {e}: an event set; {p}: a relation
		}
		return out, nil
	case *ast.Tuple:
		out := make(tupleVal, len(x.Elems))
		for i, e := range x.Elems {
			v, err := ev.expr(e, sc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *ast.Binary:
		if v, ok, err := ev.interOfSeq(x, sc); ok || err != nil {
			return v, err
		}
		a, err := ev.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		b, err := ev.expr(x.Y, sc)
		if err != nil {
			return nil, err
		}
		return ev.binary(x, a, b)
	case *ast.Unary:
		a, err := ev.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		return ev.unary(x, a)
	case *ast.App:
		f, err := ev.expr(x.Fun, sc)
		if err != nil {
			return nil, err
		}
		arg, err := ev.expr(x.Arg, sc)
		if err != nil {
			return nil, err
		}
		return ev.apply(x.Pos, f, arg)
	case *ast.Fun:
		return &closure{name: x.Name, params: x.Params, body: x.Body, env: sc}, nil
	case *ast.LetIn:
		inner, err := ev.bind(x.Bindings, x.Rec, sc)
		if err != nil {
			return nil, err
		}
		return ev.expr(x.Body, inner)
	case *ast.Match:
		v, err := ev.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		t, ok := v.(tagVal)
		if !ok {
			return nil, errAt(x.Pos, "match expects a tag, got %s", kindOf(v))
		}
		for _, c := range x.Clauses {
			if c.Tag == string(t) {
				return ev.expr(c.Body, sc)
			}
		}
		if x.Default != nil {
			return ev.expr(x.Default, sc)
		}
		return nil, errAt(x.Pos, "no arm of the match matches '%s", t)
	case *ast.MatchSet:
		v, err := ev.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		elems, err := ev.elements(x.Pos, v)
		if err != nil {
			return nil, err
		}
		if len(elems) == 0 {
			return ev.expr(x.Empty, sc)
		}
		inner := sc.child()
		if x.Elem != "_" {
			inner.set(x.Elem, elems[0])
		}
		if x.Rest != "_" {
			inner.set(x.Rest, ev.restOf(v, elems[1:]))
		}
		return ev.expr(x.NonEmpty, inner)
	case *ast.IfExpr:
		c, err := ev.cond(x.Cond, sc)
		if err != nil {
			return nil, err
		}
		if c {
			return ev.expr(x.Then, sc)
		}
		return ev.expr(x.Else, sc)
	case *ast.Try:
		v, err := ev.expr(x.X, sc)
		if err != nil {
			return ev.expr(x.Fallback, sc)
		}
		return v, nil
	}
	return nil, errAt(x.Position(), "unsupported expression %T", x)
}

// addElem adds v to a set of values, keeping it free of duplicates.
func (ev *evaluator[L]) addElem(s setVal, v value) setVal {
	for _, x := range s {
		if ev.sameElem(x, v) {
			return s
		}
	}
	return append(s, v)
}

func (ev *evaluator[L]) sameElem(a, b value) bool {
	if same, ok := sameMember(a, b); ok {
		return same
	}
	if ta, ok := a.(tagVal); ok {
		tb, ok := b.(tagVal)
		return ok && ta == tb
	}
	return ev.al.sameValue(a, b)
}

func (ev *evaluator[L]) apply(pos source.Pos, f, arg value) (value, error) {
	if err := ev.done(); err != nil {
		return nil, err
	}
	switch f := f.(type) {
	case *closure:
		if v, ok, err := ev.libraryFamily(pos, f, arg); ok {
			return v, atCallSite(pos, err)
		}
		inner := f.env.child()
		if err := ev.bindParams(pos, f.params, arg, inner); err != nil {
			return nil, err
		}
		if err := ev.enter(pos, f.describe()); err != nil {
			return nil, err
		}
		defer ev.leave()
		v, err := ev.expr(f.body, inner)
		return v, atCallSite(pos, err)
	case *builtin[L]:
		return f.fn(ev, pos, arg)
	}
	return nil, errAt(pos, "%s is not a function", kindOf(f))
}

// interOfSeq evaluates r & (p; q) (or (p; q) & r) over the pairs of r
// only, when r, p and q are relations: an atomicity check such as
// "empty rmw & (fr; co)" then needs a gate per pair of rmw, not one per
// pair of fr; co. It evaluates the operands in the order expr would, and
// reports false when the expression is not of that form (nothing is
// evaluated then).
func (ev *evaluator[L]) interOfSeq(x *ast.Binary, sc *env) (value, bool, error) {
	if x.Op != ast.Inter {
		return nil, false, nil
	}
	seq, seqFirst := x.X.(*ast.Binary)
	other := x.Y
	if !seqFirst || seq.Op != ast.Seq {
		seq, _ = x.Y.(*ast.Binary)
		other = x.X
		if seq == nil || seq.Op != ast.Seq {
			return nil, false, nil
		}
	}
	evalSeq := func() (p, q value, err error) {
		if p, err = ev.expr(seq.X, sc); err != nil {
			return nil, nil, err
		}
		q, err = ev.expr(seq.Y, sc)
		return p, q, err
	}
	var p, q, r value
	var err error
	if seqFirst {
		if p, q, err = evalSeq(); err == nil {
			r, err = ev.expr(other, sc)
		}
	} else if r, err = ev.expr(other, sc); err == nil {
		p, q, err = evalSeq()
	}
	if err != nil {
		return nil, true, err
	}
	rp, okP := p.(Rel[L])
	rq, okQ := q.(Rel[L])
	rr, okR := r.(Rel[L])
	if okP && okQ && okR {
		return ev.al.seqWithin(rp, rq, rr), true, nil
	}
	composed, err := ev.binary(seq, p, q)
	if err != nil {
		return nil, true, err
	}
	if seqFirst {
		v, err := ev.binary(x, composed, r)
		return v, true, err
	}
	v, err := ev.binary(x, r, composed)
	return v, true, err
}

func (ev *evaluator[L]) binary(x *ast.Binary, a, b value) (value, error) {
	al := ev.al
	if x.Op == ast.Add {
		if m, ok := ev.addMember(a, b); ok {
			return m, nil
		}
		elems, err := ev.elements(x.Pos, b)
		if err != nil {
			return nil, err
		}
		return ev.addElem(append(setVal(nil), elems...), a), nil
	}
	if x.Op == ast.Cartesian {
		sa, err := ev.set(x.Pos, a)
		if err != nil {
			return nil, err
		}
		sb, err := ev.set(x.Pos, b)
		if err != nil {
			return nil, err
		}
		return al.cross(sa, sb), nil
	}
	// Sets of values: union, intersection, difference.
	if va, ok := a.(setVal); ok {
		return ev.valueSetOp(x, va, b)
	}
	if vb, ok := b.(setVal); ok {
		if _, ok := a.(emptyVal); ok {
			return ev.valueSetOp(x, nil, vb)
		}
	}
	_, aEmpty := a.(emptyVal)
	_, bEmpty := b.(emptyVal)
	if aEmpty && bEmpty {
		return emptyVal{}, nil
	}
	// A set beside 0 stays a set; anything else is a relation.
	if sa, ok := a.(Set[L]); ok || aEmpty {
		if sb, ok := b.(Set[L]); ok || bEmpty {
			if aEmpty {
				sa = al.EmptySet()
			}
			if bEmpty {
				sb = al.EmptySet()
			}
			switch x.Op {
			case ast.Union:
				return al.setUnion(sa, sb), nil
			case ast.Inter:
				return al.setInter(sa, sb), nil
			case ast.Diff:
				return al.setDiff(sa, sb), nil
			}
			return nil, errAt(x.Pos, "%s expects relations, not sets (use [S] for a set's identity)", x.Op)
		}
	}
	ra, err := ev.rel(x.Pos, a)
	if err != nil {
		return nil, errAt(x.Pos, "%s of %s and %s", x.Op, kindOf(a), kindOf(b))
	}
	rb, err := ev.rel(x.Pos, b)
	if err != nil {
		return nil, errAt(x.Pos, "%s of %s and %s", x.Op, kindOf(a), kindOf(b))
	}
	switch x.Op {
	case ast.Union:
		return al.union(ra, rb), nil
	case ast.Inter:
		return al.inter(ra, rb), nil
	case ast.Diff:
		return al.Diff(ra, rb), nil
	case ast.Seq:
		return al.seq(ra, rb), nil
	}
	return nil, errAt(x.Pos, "unsupported operator %s", x.Op)
}

func (ev *evaluator[L]) valueSetOp(x *ast.Binary, a setVal, b value) (value, error) {
	bs, err := ev.elements(x.Pos, b)
	if err != nil {
		return nil, err
	}
	var out setVal
	switch x.Op {
	case ast.Union:
		out = append(out, a...)
		for _, v := range bs {
			out = ev.addElem(out, v)
		}
	case ast.Inter, ast.Diff:
		for _, v := range a {
			in := false
			for _, w := range bs {
				if ev.sameElem(v, w) {
					in = true
				}
			}
			if in == (x.Op == ast.Inter) {
				out = append(out, v)
			}
		}
	default:
		return nil, errAt(x.Pos, "%s is not defined on sets of values", x.Op)
	}
	if len(out) == 0 {
		return emptyVal{}, nil
	}
	return out, nil
}

func (ev *evaluator[L]) unary(x *ast.Unary, a value) (value, error) {
	al := ev.al
	if x.Op == ast.ToID {
		s, err := ev.set(x.Pos, a)
		if err != nil {
			return nil, err
		}
		return al.Identity(s), nil
	}
	if x.Op == ast.Compl {
		switch a := a.(type) {
		case Set[L]:
			return al.setComplement(a), nil
		case Rel[L]:
			return al.Complement(a), nil
		case emptyVal:
			// ~0 is ambiguous in herd as well; the relations are the common use.
			return al.cross(al.Exec, al.Exec), nil
		}
		return nil, errAt(x.Pos, "~ expects a set or a relation, not %s", kindOf(a))
	}
	r, err := ev.rel(x.Pos, a)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case ast.Inverse:
		return al.inverse(r), nil
	case ast.Plus:
		return al.closure(r), nil
	case ast.Star:
		return al.reflexiveClosure(r), nil
	case ast.Opt:
		return al.union(r, al.Identity(al.Exec)), nil
	}
	return nil, errAt(x.Pos, "unsupported operator %s", x.Op)
}

// builtins are the functions herd7 predefines.
func builtins[L comparable]() map[string]func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
	fns := herdSetBuiltins[L]()
	for name, fn := range map[string]func(ev *evaluator[L], pos source.Pos, arg value) (value, error){
		"domain": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			r, err := ev.rel(pos, arg)
			if err != nil {
				return nil, err
			}
			return ev.al.domain(r), nil
		},
		"range": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			r, err := ev.rel(pos, arg)
			if err != nil {
				return nil, err
			}
			return ev.al.rng(r), nil
		},
		// different-values r: the pairs of r whose events carry different
		// values (the bell of the Linux kernel matches SRCU locks and
		// unlocks by the value the lock returned).
		"different-values": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			r, err := ev.rel(pos, arg)
			if err != nil {
				return nil, err
			}
			if ev.al.DifferentValues == nil {
				return nil, errAt(pos, "different-values: this engine has no event values")
			}
			out := make(Rel[L], len(r))
			for _, k := range SortedPairs(r) {
				ev.al.Put(out, int(k.A), int(k.B), ev.al.lg.And(r[k], ev.al.DifferentValues(int(k.A), int(k.B))))
			}
			return out, nil
		},
		"fail": func(ev *evaluator[L], pos source.Pos, arg value) (value, error) {
			return nil, errAt(pos, "fail")
		},
		// Page-table functions of herd's virtual-memory models: purr's tests
		// have no page-table entries, so they select nothing.
		"oa-changes":            noPageTables[L],
		"at-least-one-writable": noPageTables[L],
		"same-oa":               noPageTables[L],
	} {
		fns[name] = fn
	}
	return fns
}

func noPageTables[L comparable](ev *evaluator[L], pos source.Pos, arg value) (value, error) {
	return emptyVal{}, nil
}

func (Set[L]) kind() string      { return "an event set" }
func (Rel[L]) kind() string      { return "a relation" }
func (*builtin[L]) kind() string { return "a function" }
