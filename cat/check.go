package cat

import "fmt"

// Kind is what a predefined name denotes, as far as the resolver cares.
type Kind int

// Kinds of predefined names.
const (
	KindSet      Kind = iota + 1 // an event set
	KindRelation                 // a relation over events
	KindFunction                 // a function (domain, range, ...)
)

var kindText = [...]string{KindSet: "a set", KindRelation: "a relation", KindFunction: "a function"}

func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindText) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindText[k]
}

// symbol is what a name is bound to in a checker scope.
type symbol struct {
	proc *Procedure // nil for a value
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

func (s *scope) defineValue(name string) {
	if name != "_" {
		s.names[name] = symbol{}
	}
}

// checker binds procedures to their calls and, with predefined set, names
// to their definitions. Scoping is lexical, as herd's: a procedure or a
// function sees the names bound before its definition (and itself, when
// rec), whenever it is called; so checking each body once where it is
// defined finds every unbound name any call would meet.
type checker struct {
	predefined map[string]Kind
	errs       ErrorList
	inTry      int
}

func checkModel(m *Model, prelude []Stmt, predefined map[string]Kind) ErrorList {
	c := &checker{predefined: predefined}
	sc := newScope(nil)
	c.stmts(prelude, sc)
	c.stmts(m.Stmts, sc)
	const maxErrors = 20
	if len(c.errs) > maxErrors {
		c.errs.Sort()
		c.errs = c.errs[:maxErrors]
	}
	return c.errs
}

// stmts checks a list of statements, defining names in sc as it goes.
func (c *checker) stmts(list []Stmt, sc *scope) {
	for _, s := range list {
		c.stmt(s, sc)
	}
}

func (c *checker) stmt(s Stmt, sc *scope) {
	switch s := s.(type) {
	case *Let:
		if s.Rec {
			for _, b := range s.Bindings {
				for _, n := range b.Names {
					sc.defineValue(n)
				}
			}
			for _, b := range s.Bindings {
				c.expr(b.Value, sc)
			}
		} else {
			for _, b := range s.Bindings {
				c.expr(b.Value, sc)
			}
			for _, b := range s.Bindings {
				for _, n := range b.Names {
					sc.defineValue(n)
				}
			}
		}
		if s.When != nil {
			c.expr(s.When.X, sc)
		}
	case *Check:
		c.expr(s.X, sc)
	case *ShowAs:
		c.expr(s.X, sc)
	case *Show, *Unshow:
		// Names shown need not be defined: herd ignores unknown ones.
	case *Include:
		c.stmts(s.Stmts, sc)
	case *Procedure:
		if s.Rec {
			sc.names[s.Name] = symbol{proc: s}
		}
		body := newScope(sc)
		for _, p := range s.Params {
			body.defineValue(p)
		}
		c.stmts(s.Body, body)
		sc.names[s.Name] = symbol{proc: s}
	case *Call:
		c.call(s, sc)
	case *Forall:
		c.expr(s.Set, sc)
		body := newScope(sc)
		body.defineValue(s.Var)
		// Names bound in the body are gone after it, as in herd.
		c.stmts(s.Body, body)
	case *IfVariant:
		t, e := newScope(sc), newScope(sc)
		c.stmts(s.Then, t)
		c.stmts(s.Else, e)
		// A name defined in either branch may be used after the if.
		mergeInto(sc, t, e)
	case *MatchStmt:
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
	case *With:
		c.expr(s.Set, sc)
		sc.defineValue(s.Var)
	case *Enum:
		sc.defineValue(s.Name)
	case *Instructions:
		for _, a := range s.Args {
			c.expr(a, sc)
		}
	case *Debug:
		c.expr(s.X, sc)
	}
}

func mergeInto(dst *scope, branches ...*scope) {
	for _, b := range branches {
		for n, sym := range b.names {
			dst.names[n] = sym
		}
	}
}

func (c *checker) call(s *Call, sc *scope) {
	c.expr(s.Arg, sc)
	sym, ok := sc.lookup(s.Name)
	switch {
	case !ok && c.isPredefined(s.Name):
		c.errs.add(s.Pos, "'%s' is not a procedure (it is %s predefined)", s.Name, c.predefined[s.Name])
		return
	case !ok:
		c.errs.add(s.Pos, "call of undefined procedure '%s'", s.Name)
		return
	case sym.proc == nil:
		c.errs.add(s.Pos, "'%s' is not a procedure", s.Name)
		return
	}
	want := len(sym.proc.Params)
	if want == 1 {
		return // a single parameter takes any value, a tuple included
	}
	got := -1
	if t, ok := s.Arg.(*Tuple); ok {
		got = len(t.Elems)
	} else if _, isVar := s.Arg.(*Var); !isVar {
		got = 1 // not a tuple, and not a name that could hold one
	}
	if got >= 0 && got != want {
		c.errs.add(s.Pos, "procedure '%s' (defined at %s) takes %s, got %s",
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
func (c *checker) name(v *Var, sc *scope, applied bool) {
	if c.predefined == nil || c.inTry > 0 {
		return
	}
	if _, ok := sc.lookup(v.Name); ok {
		return
	}
	kind, ok := c.predefined[v.Name]
	switch {
	case !ok && applied:
		c.errs.add(v.Pos, "undefined function '%s'", v.Name)
	case !ok:
		c.errs.add(v.Pos, "undefined name '%s'", v.Name)
	case applied && kind != KindFunction:
		c.errs.add(v.Pos, "'%s' is %s predefined, not a function", v.Name, kind)
	}
}

// cond checks the expressions of an expression-level if's condition.
func (c *checker) cond(k Cond, sc *scope) {
	switch k := k.(type) {
	case *Compare:
		c.expr(k.X, sc)
		c.expr(k.Y, sc)
	case *Not:
		c.cond(k.X, sc)
	case *And:
		c.cond(k.X, sc)
		c.cond(k.Y, sc)
	case *Or:
		c.cond(k.X, sc)
		c.cond(k.Y, sc)
	}
}

func (c *checker) expr(e Expr, sc *scope) {
	switch e := e.(type) {
	case *Var:
		c.name(e, sc, false)
	case *SetLit:
		for _, x := range e.Elems {
			c.expr(x, sc)
		}
	case *Tuple:
		for _, x := range e.Elems {
			c.expr(x, sc)
		}
	case *Binary:
		c.expr(e.X, sc)
		c.expr(e.Y, sc)
	case *Unary:
		c.expr(e.X, sc)
	case *App:
		if v, ok := e.Fun.(*Var); ok {
			c.name(v, sc, true)
		} else {
			c.expr(e.Fun, sc)
		}
		c.expr(e.Arg, sc)
	case *Fun:
		body := newScope(sc)
		for _, p := range e.Params {
			body.defineValue(p)
		}
		c.expr(e.Body, body)
	case *LetIn:
		inner := newScope(sc)
		if e.Rec {
			for _, b := range e.Bindings {
				for _, n := range b.Names {
					inner.defineValue(n)
				}
			}
			for _, b := range e.Bindings {
				c.expr(b.Value, inner)
			}
		} else {
			for _, b := range e.Bindings {
				c.expr(b.Value, sc)
				for _, n := range b.Names {
					inner.defineValue(n)
				}
			}
		}
		c.expr(e.Body, inner)
	case *Match:
		c.expr(e.X, sc)
		for _, k := range e.Clauses {
			c.expr(k.Body, sc)
		}
		if e.Default != nil {
			c.expr(e.Default, sc)
		}
	case *MatchSet:
		c.expr(e.X, sc)
		c.expr(e.Empty, sc)
		inner := newScope(sc)
		for _, n := range []string{e.Pre, e.Elem, e.Rest} {
			if n != "" {
				inner.defineValue(n)
			}
		}
		c.expr(e.NonEmpty, inner)
	case *IfExpr:
		c.cond(e.Cond, sc)
		c.expr(e.Then, sc)
		c.expr(e.Else, sc)
	case *Try:
		c.inTry++
		c.expr(e.X, sc)
		c.inTry--
		c.expr(e.Fallback, sc)
	}
}
