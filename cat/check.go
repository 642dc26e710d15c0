package cat

import (
	"fmt"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// Kind is what a predefined name denotes, as far as the resolver cares.
type Kind int

// Kinds of predefined names.
const (
	KindSet      Kind = iota + 1 // an event set
	KindRelation                 // a relation over events
	KindFunction                 // a function (domain, range, ...)
)

var kindText = [...]string{KindSet: "set", KindRelation: "relation", KindFunction: "function"}

func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindText) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindText[k]
}

// body is the body of a procedure or of a function bound by let. herd
// meets the errors of a body only when it calls it, so the checker keeps
// them until the body is reachable: used from the model's top level,
// directly or through other reachable bodies.
type body struct {
	reachable bool
	errs      source.ErrorList // found in it, waiting for it to be reachable
	uses      []*body          // the bodies it uses
}

// symbol is what a name is bound to in a checker scope.
type symbol struct {
	proc *ast.Procedure // nil for a value
	body *body          // a procedure's, or a function's bound by let; else nil
}

type scope struct {
	parent *scope
	names  map[string]symbol
}

func newScope(parent *scope) *scope { return &scope{parent: parent, names: map[string]symbol{}} }

func (s *scope) lookup(name string) (symbol, bool) {
	for ; s != nil; s = s.parent {
		if sym, ok := s.names[name]; ok {
			return sym, true
		}
	}
	return symbol{}, false
}

func (s *scope) define(name string, sym symbol) {
	if name != "_" {
		s.names[name] = sym
	}
}

func (s *scope) defineValue(name string) { s.define(name, symbol{}) }

// checker binds procedures to their calls and, with predefined set, names
// to their definitions. Scoping is lexical, as herd's: a procedure or a
// function sees the names bound before its definition (and itself, when
// rec), whenever it is called; so checking each body once where it is
// defined finds every error any call would meet. With predefined set,
// only the errors of reachable code are reported (see body).
type checker struct {
	predefined map[string]Kind
	variants   map[string]bool
	native     func(*ast.With) bool
	errs       source.ErrorList
	cur        *body // the body being checked; nil at the top level
	inTry      int
}

func checkModel(m *Model, l *Loader) source.ErrorList {
	c := &checker{predefined: l.Predefined, variants: map[string]bool{}, native: l.NativeWith}
	for _, v := range l.Variants {
		c.variants[v] = true
	}
	sc := newScope(nil)
	c.stmts(l.Prelude, sc)
	c.stmts(m.Stmts, sc)
	if c.predefined != nil && len(c.errs) == 0 {
		c.errs = checkKinds(c.predefined, l.Prelude, m.Stmts)
	}
	c.errs = c.errs.Unique()
	const maxErrors = 20
	if len(c.errs) > maxErrors {
		c.errs.Sort()
		c.errs = c.errs[:maxErrors]
	}
	return c.errs
}

// report records an error of the code being checked: at once, or when
// its body becomes reachable.
func (c *checker) report(pos source.Pos, format string, args ...any) {
	if c.predefined == nil || c.cur == nil || c.cur.reachable {
		c.errs.Add(pos, format, args...)
		return
	}
	c.cur.errs.Add(pos, format, args...)
}

// use records that the code being checked uses (calls, applies or passes
// on) a body. Under try, herd catches the failure of a call: no use.
func (c *checker) use(b *body) {
	if b == nil || c.inTry > 0 {
		return
	}
	if c.cur == nil || c.cur.reachable {
		c.reach(b)
		return
	}
	c.cur.uses = append(c.cur.uses, b)
}

func (c *checker) reach(b *body) {
	if b.reachable {
		return
	}
	b.reachable = true
	c.errs = append(c.errs, b.errs...)
	b.errs = nil
	for _, u := range b.uses {
		c.reach(u)
	}
}

// in runs check with b as the body being checked.
func (c *checker) in(b *body, check func()) {
	saved := c.cur
	c.cur = b
	check()
	c.cur = saved
}

// stmts checks a list of statements, defining names in sc as it goes.
func (c *checker) stmts(list []ast.Stmt, sc *scope) {
	for _, s := range list {
		c.stmt(s, sc)
	}
}

func (c *checker) stmt(s ast.Stmt, sc *scope) {
	switch s := s.(type) {
	case *ast.Let:
		c.bind(s.Bindings, s.Rec, sc, sc)
		if s.When != nil {
			c.expr(s.When.X, sc)
		}
	case *ast.Check:
		c.expr(s.X, sc)
	case *ast.ShowAs:
		c.expr(s.X, sc)
	case *ast.Show, *ast.Unshow:
		// Names shown need not be defined: herd ignores unknown ones.
	case *ast.Include:
		c.stmts(s.Stmts, sc)
	case *ast.Procedure:
		sym := symbol{proc: s, body: &body{}}
		if s.Rec {
			sc.define(s.Name, sym)
		}
		inner := newScope(sc)
		for _, p := range s.Params {
			inner.defineValue(p)
		}
		c.in(sym.body, func() { c.stmts(s.Body, inner) })
		sc.define(s.Name, sym)
	case *ast.Call:
		c.call(s, sc)
	case *ast.Forall:
		c.expr(s.Set, sc)
		inner := newScope(sc)
		inner.defineValue(s.Var)
		// Names bound in the body are gone after it, as in herd.
		c.stmts(s.Body, inner)
	case *ast.IfVariant:
		if c.predefined != nil {
			if v, known := c.variantCond(s.Cond); known {
				// Only this branch runs: its names are bound after the if.
				if v {
					c.stmts(s.Then, sc)
				} else {
					c.stmts(s.Else, sc)
				}
				return
			}
		}
		t, e := newScope(sc), newScope(sc)
		c.stmts(s.Then, t)
		c.stmts(s.Else, e)
		// A name defined in either branch may be used after the if.
		mergeInto(sc, t, e)
	case *ast.MatchStmt:
		c.expr(s.X, sc)
		var branches []*scope
		for _, k := range s.Clauses {
			b := newScope(sc)
			c.stmts(k.Body, b)
			branches = append(branches, b)
		}
		b := newScope(sc)
		c.stmts(s.Default, b)
		mergeInto(sc, append(branches, b)...)
	case *ast.With:
		app, isApp := s.Set.(*ast.App)
		if isApp && c.native != nil && c.native(s) {
			c.expr(app.Arg, sc) // the engine does not apply the function
		} else {
			c.expr(s.Set, sc)
		}
		sc.defineValue(s.Var)
	case *ast.Enum:
		sc.defineValue(s.Name)
		for _, t := range s.Tags {
			sc.defineValue(ast.TagSet(t))
		}
	case *ast.Instructions:
		for _, a := range s.Args {
			c.expr(a, sc)
		}
	case *ast.Debug:
		c.expr(s.X, sc)
	}
}

// bind checks let bindings whose values are in scope in (into itself when
// rec) and defines their names in into. A function bound to a single
// name gets a body: its errors count only once it is used.
func (c *checker) bind(bs []*ast.Binding, rec bool, in, into *scope) {
	syms := make([]symbol, len(bs))
	for i, b := range bs {
		if len(b.Names) == 1 && isFunction(b.Value) {
			syms[i].body = &body{}
		}
	}
	define := func() {
		for i, b := range bs {
			for _, n := range b.Names {
				into.define(n, syms[i])
			}
		}
	}
	if rec {
		define()
		in = into
	}
	for i, b := range bs {
		if syms[i].body != nil {
			c.in(syms[i].body, func() { c.expr(b.Value, in) })
		} else {
			c.expr(b.Value, in)
		}
	}
	if !rec {
		define()
	}
}

// isFunction tells whether an expression is a function by its syntax.
func isFunction(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Fun:
		return true
	case *ast.LetIn:
		return isFunction(e.Body)
	}
	return false
}

func mergeInto(dst *scope, branches ...*scope) {
	for _, b := range branches {
		for n, sym := range b.names {
			dst.names[n] = sym
		}
	}
}

func (c *checker) call(s *ast.Call, sc *scope) {
	c.expr(s.Arg, sc)
	sym, ok := sc.lookup(s.Name)
	switch {
	case !ok && c.isPredefined(s.Name):
		c.report(s.Pos, "'%s' is a predefined %s, not a procedure", s.Name, c.predefined[s.Name])
		return
	case !ok:
		c.report(s.Pos, "call of undefined procedure '%s'", s.Name)
		return
	case sym.proc == nil:
		c.report(s.Pos, "'%s' is not a procedure", s.Name)
		return
	}
	c.use(sym.body)
	want := len(sym.proc.Params)
	if want == 1 {
		return // a single parameter takes any value, a tuple included
	}
	got := -1
	if t, ok := s.Arg.(*ast.Tuple); ok {
		got = len(t.Elems)
	} else if _, isVar := s.Arg.(*ast.Var); !isVar {
		got = 1 // not a tuple, and not a name that could hold one
	}
	if got >= 0 && got != want {
		c.report(s.Pos, "procedure '%s' (defined at %s) takes %s, got %s",
			s.Name, sym.proc.Pos, plural(want, "argument"), plural(got, "argument"))
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (c *checker) isPredefined(name string) bool {
	_, ok := c.predefined[name]
	return ok
}

// name checks a use of a name; applied says it is applied as a function.
func (c *checker) name(v *ast.Var, sc *scope, applied bool) {
	if c.predefined == nil || c.inTry > 0 {
		return
	}
	if sym, ok := sc.lookup(v.Name); ok {
		c.use(sym.body)
		return
	}
	kind, ok := c.predefined[v.Name]
	switch {
	case !ok && applied:
		c.report(v.Pos, "undefined function '%s'", v.Name)
	case !ok:
		c.report(v.Pos, "undefined name '%s'", v.Name)
	case applied && kind != KindFunction:
		c.report(v.Pos, "'%s' is a predefined %s, not a function", v.Name, kind)
	}
}

// variantCond evaluates a condition on variants as herd does with the
// enabled ones; known is false when it compares values.
func (c *checker) variantCond(k ast.Cond) (value, known bool) {
	switch k := k.(type) {
	case *ast.Variant:
		return c.variants[k.Name], true
	case *ast.Not:
		v, known := c.variantCond(k.X)
		return !v, known
	case *ast.And:
		x, kx := c.variantCond(k.X)
		y, ky := c.variantCond(k.Y)
		if (kx && !x) || (ky && !y) {
			return false, true
		}
		return x && y, kx && ky
	case *ast.Or:
		x, kx := c.variantCond(k.X)
		y, ky := c.variantCond(k.Y)
		if (kx && x) || (ky && y) {
			return true, true
		}
		return x || y, kx && ky
	}
	return false, false
}

// cond checks the expressions of an expression-level if's condition.
func (c *checker) cond(k ast.Cond, sc *scope) {
	switch k := k.(type) {
	case *ast.Compare:
		c.expr(k.X, sc)
		c.expr(k.Y, sc)
	case *ast.Not:
		c.cond(k.X, sc)
	case *ast.And:
		c.cond(k.X, sc)
		c.cond(k.Y, sc)
	case *ast.Or:
		c.cond(k.X, sc)
		c.cond(k.Y, sc)
	}
}

func (c *checker) expr(e ast.Expr, sc *scope) {
	switch e := e.(type) {
	case *ast.Var:
		c.name(e, sc, false)
	case *ast.SetLit:
		for _, x := range e.Elems {
			c.expr(x, sc)
		}
	case *ast.Tuple:
		for _, x := range e.Elems {
			c.expr(x, sc)
		}
	case *ast.Binary:
		c.expr(e.X, sc)
		c.expr(e.Y, sc)
	case *ast.Unary:
		c.expr(e.X, sc)
	case *ast.App:
		if v, ok := e.Fun.(*ast.Var); ok {
			c.name(v, sc, true)
		} else {
			c.expr(e.Fun, sc)
		}
		c.expr(e.Arg, sc)
	case *ast.Fun:
		inner := newScope(sc)
		for _, p := range e.Params {
			inner.defineValue(p)
		}
		c.expr(e.Body, inner)
	case *ast.LetIn:
		inner := newScope(sc)
		c.bind(e.Bindings, e.Rec, sc, inner)
		c.expr(e.Body, inner)
	case *ast.Match:
		c.expr(e.X, sc)
		for _, k := range e.Clauses {
			c.expr(k.Body, sc)
		}
		if e.Default != nil {
			c.expr(e.Default, sc)
		}
	case *ast.MatchSet:
		c.expr(e.X, sc)
		c.expr(e.Empty, sc)
		inner := newScope(sc)
		for _, n := range []string{e.Pre, e.Elem, e.Rest} {
			if n != "" {
				inner.defineValue(n)
			}
		}
		c.expr(e.NonEmpty, inner)
	case *ast.IfExpr:
		if v, known := c.variantCond(e.Cond); known && c.predefined != nil {
			// herd evaluates the branch the variants select only.
			if v {
				c.expr(e.Then, sc)
			} else {
				c.expr(e.Else, sc)
			}
			return
		}
		c.cond(e.Cond, sc)
		c.expr(e.Then, sc)
		c.expr(e.Else, sc)
	case *ast.Try:
		c.inTry++
		c.expr(e.X, sc)
		c.inTry--
		c.expr(e.Fallback, sc)
	}
}
