package cat

import (
	"fmt"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// The kinds pass refuses, at the call, a procedure or function called
// with an event set where its body needs a relation, or the reverse
// (call no-loss(SEND)): herd meets the error only inside the body, in the
// library file that defines it, at run time. It infers the kind of each
// parameter from the operators its body applies to it (a ; b, a^-1,
// domain(a) and acyclic a need relations; A * B and [A] sets) and the
// kind of an argument from its own operators and the predefined names; it
// reports only when both are known and differ, so that a model herd runs
// is never refused by a guess.

// kindInfo is what the pass knows of a name.
type kindInfo struct {
	kind   Kind      // a value's, 0 when unknown
	slot   *kindSlot // a parameter whose kind is being inferred
	params []Kind    // a procedure's or a function's parameters
	isProc bool
	def    *ast.Procedure
}

// kindSlot gathers what a body says of one of its parameters.
type kindSlot struct {
	kind     Kind
	conflict bool // used both ways: the pass gives up on it
}

func (s *kindSlot) need(k Kind) {
	switch {
	case k == 0 || s.conflict:
	case s.kind == 0:
		s.kind = k
	case s.kind != k:
		s.conflict = true
	}
}

func (s *kindSlot) result() Kind {
	if s.conflict {
		return 0
	}
	return s.kind
}

type kindEnv struct {
	parent *kindEnv
	names  map[string]*kindInfo
}

func (e *kindEnv) child() *kindEnv { return &kindEnv{parent: e, names: map[string]*kindInfo{}} }

func (e *kindEnv) lookup(name string) (*kindInfo, bool) {
	for ; e != nil; e = e.parent {
		if i, ok := e.names[name]; ok {
			return i, true
		}
	}
	return nil, false
}

type kindPass struct {
	predefined map[string]Kind
	errs       source.ErrorList
}

// checkKinds runs the pass over a model's statements (the prelude's
// first); predefined gives the kinds of the engine's names.
func checkKinds(predefined map[string]Kind, prelude, stmts []ast.Stmt) source.ErrorList {
	p := &kindPass{predefined: predefined}
	env := (&kindEnv{}).child()
	p.stmts(prelude, env)
	p.stmts(stmts, env)
	return p.errs
}

func (p *kindPass) stmts(list []ast.Stmt, env *kindEnv) {
	for _, s := range list {
		p.stmt(s, env)
	}
}

func (p *kindPass) stmt(s ast.Stmt, env *kindEnv) {
	switch s := s.(type) {
	case *ast.Let:
		p.bind(s.Bindings, env)
	case *ast.Check:
		switch s.Kind {
		case ast.Acyclic, ast.Irreflexive:
			p.expect(s.X, KindRelation, env)
		default:
			p.expect(s.X, 0, env)
		}
	case *ast.ShowAs:
		p.expect(s.X, 0, env)
	case *ast.Include:
		p.stmts(s.Stmts, env)
	case *ast.Procedure:
		inner := env.child()
		slots := make([]*kindSlot, len(s.Params))
		for i, name := range s.Params {
			slots[i] = &kindSlot{}
			inner.names[name] = &kindInfo{slot: slots[i]}
		}
		info := &kindInfo{isProc: true, def: s}
		if s.Rec {
			env.names[s.Name] = info
		}
		p.stmts(s.Body, inner)
		for _, sl := range slots {
			info.params = append(info.params, sl.result())
		}
		env.names[s.Name] = info
	case *ast.Call:
		info, ok := env.lookup(s.Name)
		if !ok || !info.isProc {
			p.expect(s.Arg, 0, env)
			return
		}
		p.args(s.Name, info, s.Arg, env)
	case *ast.Forall:
		p.expect(s.Set, 0, env)
		inner := env.child()
		inner.names[s.Var] = &kindInfo{}
		p.stmts(s.Body, inner)
	case *ast.IfVariant:
		p.stmts(s.Then, env)
		p.stmts(s.Else, env)
	case *ast.MatchStmt:
		p.expect(s.X, 0, env)
		for _, k := range s.Clauses {
			p.stmts(k.Body, env)
		}
		p.stmts(s.Default, env)
	case *ast.With:
		p.expect(s.Set, 0, env)
		env.names[s.Var] = &kindInfo{}
	case *ast.Enum:
		env.names[s.Name] = &kindInfo{}
		for _, t := range s.Tags {
			env.names[ast.TagSet(t)] = &kindInfo{}
		}
	}
}

// bind records let bindings: a value's kind, a function's parameters'.
func (p *kindPass) bind(bs []*ast.Binding, env *kindEnv) {
	infos := make([]*kindInfo, len(bs))
	for i, b := range bs {
		infos[i] = &kindInfo{}
		if f, ok := b.Value.(*ast.Fun); ok && len(b.Names) == 1 {
			inner := env.child()
			slots := make([]*kindSlot, len(f.Params))
			for j, name := range f.Params {
				slots[j] = &kindSlot{}
				inner.names[name] = &kindInfo{slot: slots[j]}
			}
			p.expect(f.Body, 0, inner)
			for _, sl := range slots {
				infos[i].params = append(infos[i].params, sl.result())
			}
			continue
		}
		p.expect(b.Value, 0, env)
		if len(b.Names) == 1 {
			infos[i].kind = p.kindOf(b.Value, env)
		}
	}
	for i, b := range bs {
		for _, n := range b.Names {
			if len(b.Names) == 1 {
				env.names[n] = infos[i]
			} else {
				env.names[n] = &kindInfo{}
			}
		}
	}
}

// args checks the arguments of a call of a procedure or function whose
// parameters' kinds are known, and passes those kinds on to the
// arguments (a parameter of the caller passed on gets its kind).
func (p *kindPass) args(name string, info *kindInfo, arg ast.Expr, env *kindEnv) {
	var list []ast.Expr
	if t, ok := arg.(*ast.Tuple); ok && len(info.params) != 1 {
		list = t.Elems
	} else {
		list = []ast.Expr{arg}
	}
	if len(list) != len(info.params) {
		p.expect(arg, 0, env)
		return
	}
	for i, a := range list {
		want := info.params[i]
		if got := p.kindOf(a, env); want != 0 && got != 0 && got != want {
			what := "function"
			if info.isProc {
				what = "procedure"
			}
			p.errs.Add(a.Position(), "%s '%s' takes %s as its %s argument, got %s", what, name, article(want), ordinal(i+1, len(list)), article(got))
		}
		p.expect(a, want, env)
	}
}

func article(k Kind) string {
	if k == KindSet {
		return "an event set"
	}
	return "a " + k.String()
}

func ordinal(n, of int) string {
	if of == 1 {
		return "only"
	}
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// expect walks an expression that must be of kind k (0: unknown),
// recording what it says of the parameters being inferred.
func (p *kindPass) expect(e ast.Expr, k Kind, env *kindEnv) {
	switch e := e.(type) {
	case *ast.Var:
		if info, ok := env.lookup(e.Name); ok && info.slot != nil {
			info.slot.need(k)
		}
	case *ast.Binary:
		switch e.Op {
		case ast.Seq:
			p.expect(e.X, KindRelation, env)
			p.expect(e.Y, KindRelation, env)
		case ast.Cartesian:
			p.expect(e.X, KindSet, env)
			p.expect(e.Y, KindSet, env)
		case ast.Inter, ast.Diff, ast.Union:
			if k == 0 {
				k = p.kindOf(e.X, env)
			}
			if k == 0 {
				k = p.kindOf(e.Y, env)
			}
			p.expect(e.X, k, env)
			p.expect(e.Y, k, env)
		default:
			p.expect(e.X, 0, env)
			p.expect(e.Y, 0, env)
		}
	case *ast.Unary:
		switch e.Op {
		case ast.Compl:
			p.expect(e.X, k, env)
		case ast.ToID:
			p.expect(e.X, KindSet, env)
		default:
			p.expect(e.X, KindRelation, env)
		}
	case *ast.App:
		if v, ok := e.Fun.(*ast.Var); ok {
			info, bound := env.lookup(v.Name)
			switch {
			case !bound && (v.Name == "domain" || v.Name == "range") && p.predefined[v.Name] == KindFunction:
				p.expect(e.Arg, KindRelation, env)
				return
			case bound && info.params != nil && !info.isProc:
				p.args(v.Name, info, e.Arg, env)
				return
			}
		}
		p.expect(e.Fun, 0, env)
		p.expect(e.Arg, 0, env)
	case *ast.Tuple:
		for _, x := range e.Elems {
			p.expect(x, 0, env)
		}
	case *ast.SetLit:
		for _, x := range e.Elems {
			p.expect(x, 0, env)
		}
	case *ast.LetIn:
		inner := env.child()
		p.bind(e.Bindings, inner)
		p.expect(e.Body, k, inner)
	case *ast.Fun:
		inner := env.child()
		for _, name := range e.Params {
			inner.names[name] = &kindInfo{}
		}
		p.expect(e.Body, 0, inner)
	case *ast.IfExpr:
		p.expect(e.Then, k, env)
		p.expect(e.Else, k, env)
	case *ast.Try:
		p.expect(e.X, k, env)
		p.expect(e.Fallback, k, env)
	}
}

// kindOf is the kind of an expression when its syntax and the names it
// uses tell it; 0 otherwise.
func (p *kindPass) kindOf(e ast.Expr, env *kindEnv) Kind {
	switch e := e.(type) {
	case *ast.Var:
		if info, ok := env.lookup(e.Name); ok {
			return info.kind // a parameter's is unknown: its body is being read
		}
		if k := p.predefined[e.Name]; k == KindSet || k == KindRelation {
			return k
		}
	case *ast.Binary:
		switch e.Op {
		case ast.Seq, ast.Cartesian:
			return KindRelation
		case ast.Inter, ast.Diff, ast.Union:
			if k := p.kindOf(e.X, env); k != 0 {
				return k
			}
			return p.kindOf(e.Y, env)
		}
	case *ast.Unary:
		if e.Op == ast.Compl {
			return p.kindOf(e.X, env)
		}
		return KindRelation
	case *ast.App:
		if v, ok := e.Fun.(*ast.Var); ok {
			if _, bound := env.lookup(v.Name); !bound && (v.Name == "domain" || v.Name == "range") {
				return KindSet
			}
		}
	}
	return 0
}
