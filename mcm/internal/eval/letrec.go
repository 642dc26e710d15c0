package eval

// let rec as a prefixpoint. Iterating a recursive definition to its least
// fixpoint over literals needs one solver call per round to tell whether
// the rounds have converged in every execution, and those calls dominate
// models written as herd writes them (herd's sccat.cat orders its events
// in a let rec). Where the least fixpoint is only ever used in checks
// that a larger relation can only fail (require acyclic, irreflexive,
// empty) through monotone operators, and its definition is monotone,
// "some relation S with F(S) ⊆ S passes the checks" holds exactly when
// the least fixpoint passes them: the least fixpoint is such an S, and it
// is contained in every such S. So S becomes fresh variables constrained
// by F(S) ⊆ S, evaluated in one round; the solver completes them to the
// least fixpoint (it tries them false first). Everywhere else (flags,
// negated checks, complements and differences, shown relations, function
// bodies, anything the analysis below does not follow) the exact
// iteration runs.

import (
	"strings"

	"github.com/purr-mcm/purr/cat/ast"
)

// Prefixpoints is what a Logic offers when it can encode a let rec as a
// prefixpoint: fresh literals, and constraints between literals.
type Prefixpoints[L comparable] interface {
	Fresh() L       // a new literal, constrained only by what Implies adds
	Implies(a, b L) // require a → b in every execution
}

// polarity bits: how an expression uses a let rec's value.
const (
	positive = 1 << iota // monotone: grows with it
	negative             // antitone: shrinks as it grows
	opaque               // in a way the analysis does not follow
)

// recAnalysis finds the let rec statements of a model whose value is used
// only monotonically under checks that a larger value can only fail.
type recAnalysis struct {
	taint  map[string]map[*ast.Binding]bool // name → the candidates (by first binding) it grows with
	funcs  map[string]*ast.Fun              // top-level functions by name, for their arguments' polarity
	ok     map[*ast.Binding]bool            // candidates, and whether they still qualify
	choice bool                             // past a "with x from S": no more candidates
	depth  int                              // functions analysed within functions
}

// monotoneRecs returns the let rec statements (by their first binding)
// that may be encoded as prefixpoints, analysing the statements in order
// (includes followed).
func monotoneRecs(stmts ...[]ast.Stmt) map[*ast.Binding]bool {
	a := &recAnalysis{taint: map[string]map[*ast.Binding]bool{}, funcs: map[string]*ast.Fun{}, ok: map[*ast.Binding]bool{}}
	for _, list := range stmts {
		a.stmts(list)
	}
	// The well-formedness rules see this name of the model's.
	a.reject(a.taint[messageReceives])
	out := map[*ast.Binding]bool{}
	for b, ok := range a.ok {
		if ok {
			out[b] = true
		}
	}
	return out
}

func (a *recAnalysis) stmts(list []ast.Stmt) {
	for _, st := range list {
		a.stmt(st)
	}
}

func (a *recAnalysis) stmt(st ast.Stmt) {
	switch st := st.(type) {
	case *ast.Include:
		a.stmts(st.Stmts)
	case *ast.Let:
		if st.Rec {
			a.letRec(st)
		} else {
			a.let(st.Bindings)
		}
		if st.When != nil {
			a.check(st.When)
		}
	case *ast.Check:
		a.check(st)
	case *ast.Show, *ast.ShowAs, *ast.Unshow, *ast.Debug, *ast.Instructions:
		// Shown relations are read only when captured, and then no
		// let rec is a prefixpoint.
	default:
		// Procedures, calls, variants, matches, with, enum: their uses
		// are not followed, and their bindings not tracked.
		if w, isWith := st.(*ast.With); isWith && !isCoGeneration(w) {
			a.choice = true
		}
		a.reject(a.mentioned(st))
		clear(a.funcs)
	}
}

func (a *recAnalysis) let(bs []*ast.Binding) {
	for _, b := range bs {
		if f, isFun := b.Value.(*ast.Fun); isFun && len(b.Names) == 1 {
			a.reject(a.mentioned(f))
			a.funcs[b.Names[0]] = f
			delete(a.taint, b.Names[0])
			continue
		}
		uses := a.uses(b.Value)
		for _, n := range b.Names {
			delete(a.funcs, n)
			delete(a.taint, n)
		}
		grows := map[*ast.Binding]bool{}
		for c, p := range uses {
			if p != positive || len(b.Names) != 1 {
				a.ok[c] = false
			}
			grows[c] = true
		}
		if len(grows) > 0 && len(b.Names) == 1 {
			a.taint[b.Names[0]] = grows
		}
	}
}

func (a *recAnalysis) letRec(st *ast.Let) {
	c := st.Bindings[0]
	qualifies := !a.choice
	for _, b := range st.Bindings {
		if _, isFun := b.Value.(*ast.Fun); isFun || len(b.Names) != 1 {
			qualifies = false
		}
	}
	if !qualifies {
		for _, b := range st.Bindings {
			a.reject(a.mentioned(b.Value))
			for _, n := range b.Names {
				delete(a.funcs, n)
				delete(a.taint, n)
			}
		}
		return
	}
	a.ok[c] = true
	grows := map[*ast.Binding]bool{c: true}
	for _, b := range st.Bindings {
		delete(a.funcs, b.Names[0])
		a.taint[b.Names[0]] = grows
	}
	monotone := true
	for _, b := range st.Bindings {
		for d, p := range a.uses(b.Value) {
			monotone = monotone && p == positive
			grows[d] = true
		}
	}
	if !monotone {
		// The exact iteration over earlier prefixpoints would see their
		// other solutions.
		a.reject(grows)
	}
}

// check: a required check that a larger relation can only fail takes
// monotone uses; any other check takes none.
func (a *recAnalysis) check(c *ast.Check) {
	if c.Negated || (c.Mode != ast.Require && c.Mode != ast.Assert) {
		a.reject(a.mentioned(c.X))
		return
	}
	for d, p := range a.uses(c.X) {
		if p != positive {
			a.ok[d] = false
		}
	}
}

// uses returns how e uses each candidate (polarity bits).
func (a *recAnalysis) uses(e ast.Expr) map[*ast.Binding]int {
	u := map[*ast.Binding]int{}
	a.walk(e, positive, u)
	return u
}

func flip(pol int) int { return pol ^ (positive | negative) }

func (a *recAnalysis) walk(e ast.Expr, pol int, u map[*ast.Binding]int) {
	switch e := e.(type) {
	case *ast.Var:
		for c := range a.taint[e.Name] {
			u[c] |= pol
		}
	case *ast.Empty, *ast.Universe, *ast.Tag:
	case *ast.Binary:
		a.walk(e.X, pol, u)
		if e.Op == ast.Diff {
			a.walk(e.Y, flip(pol), u)
		} else {
			a.walk(e.Y, pol, u)
		}
	case *ast.Unary:
		if e.Op == ast.Compl {
			a.walk(e.X, flip(pol), u)
		} else {
			a.walk(e.X, pol, u)
		}
	case *ast.App:
		a.walk(e.Arg, a.argPolarity(e.Fun, pol), u)
	default:
		for c := range a.mentioned(e) {
			u[c] |= opaque
		}
	}
}

// argPolarity is the polarity of a function's argument when the
// application has polarity pol: that of its parameter in a one-parameter
// function bound at the top level, or of domain and range.
func (a *recAnalysis) argPolarity(fun ast.Expr, pol int) int {
	v, isVar := fun.(*ast.Var)
	if !isVar {
		return opaque
	}
	f, defined := a.funcs[v.Name]
	if !defined {
		if v.Name == "domain" || v.Name == "range" {
			return pol
		}
		return opaque
	}
	if len(f.Params) != 1 || a.depth > maxCallDepth/100 {
		return opaque
	}
	inner := &recAnalysis{taint: map[string]map[*ast.Binding]bool{f.Params[0]: {nil: true}}, funcs: a.funcs, depth: a.depth + 1}
	switch p := inner.uses(f.Body)[nil]; p {
	case 0:
		return 0
	case positive:
		return pol
	case negative:
		return flip(pol)
	}
	return opaque
}

// mentioned returns the candidates whose tainted names occur in a node,
// by the names in its printed form: an over-approximation, which only
// rejects more.
func (a *recAnalysis) mentioned(n any) map[*ast.Binding]bool {
	out := map[*ast.Binding]bool{}
	if len(a.taint) == 0 {
		return out
	}
	for _, word := range strings.FieldsFunc(ast.String(n), func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r == '\'' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
	}) {
		for c := range a.taint[word] {
			out[c] = true
		}
	}
	return out
}

func (a *recAnalysis) reject(cs map[*ast.Binding]bool) {
	for c := range cs {
		a.ok[c] = false
	}
}

// prefixpoint encodes the let rec bs (a candidate of monotoneRecs, its
// names bound to the empty value in sc) as a prefixpoint. Fresh literals
// go only to the pairs (or elements) that may belong to the least
// fixpoint: the pairs M with F(M) ⊆ M, where M is taken as a relation
// that holds in every execution, found by iterating from the empty one
// (F is monotone, so each round of the exact iteration stays within M).
// It returns false, with the names bound to the empty value again, when
// the rounds change a value's kind (the caller then iterates exactly).
func (ev *evaluator[L]) prefixpoint(bs []*ast.Binding, sc *env, pf Prefixpoints[L]) (bool, error) {
	reset := func() {
		for _, b := range bs {
			sc.set(b.Names[0], emptyVal{})
		}
	}
	may := make([]value, len(bs)) // per name: emptyVal, or a Set or Rel of ev.al.t where it may hold
	for i := range may {
		may[i] = emptyVal{}
	}
	for grew := true; grew; {
		if err := ev.done(); err != nil {
			return false, err
		}
		for i, b := range bs {
			sc.set(b.Names[0], may[i])
		}
		vals, err := ev.round(bs, sc)
		if err != nil {
			return false, err
		}
		grew = false
		for i := range bs {
			m, g, ok := ev.al.widen(may[i], vals[i])
			if !ok {
				reset()
				return false, nil
			}
			may[i], grew = m, grew || g
		}
	}
	fresh := make([]value, len(bs))
	for i, b := range bs {
		switch m := may[i].(type) {
		case emptyVal:
			fresh[i] = m // the least fixpoint is empty
		case Set[L]:
			x := ev.al.EmptySet()
			for e, l := range m {
				if l != ev.al.f {
					x[e] = pf.Fresh()
				}
			}
			fresh[i] = x
		case Rel[L]:
			r := make(Rel[L], len(m))
			for _, k := range SortedPairs(m) {
				r[k] = pf.Fresh()
			}
			fresh[i] = r
		}
		sc.set(b.Names[0], fresh[i])
	}
	vals, err := ev.round(bs, sc)
	if err != nil {
		return false, err
	}
	for i := range bs {
		if !ev.al.requireWithin(vals[i], fresh[i], pf) {
			// A round changed a value's kind: the fresh literals, left
			// unconstrained, are harmless.
			reset()
			return false, nil
		}
	}
	return true, nil
}

// widen adds to may (emptyVal, or a Set or Rel of al.t) the elements or
// pairs that v may hold; it tells whether may grew, and fails when v is
// not a set or relation of may's kind.
func (al *Algebra[L]) widen(may, v value) (value, bool, bool) {
	switch v := v.(type) {
	case emptyVal:
		return may, false, true
	case Set[L]:
		m, isSet := may.(Set[L])
		if _, empty := may.(emptyVal); empty {
			m, isSet = al.EmptySet(), true
		}
		if !isSet {
			return nil, false, false
		}
		grew := false
		for e, l := range v {
			if l != al.f && m[e] == al.f {
				m[e], grew = al.t, true
			}
		}
		return m, grew, true
	case Rel[L]:
		m, isRel := may.(Rel[L])
		if _, empty := may.(emptyVal); empty {
			m, isRel = Rel[L]{}, true
		}
		if !isRel {
			return nil, false, false
		}
		grew := false
		for k, l := range v {
			if _, in := m[k]; l != al.f && !in {
				m[k], grew = al.t, true
			}
		}
		return m, grew, true
	}
	return nil, false, false
}

// requireWithin requires v ⊆ x in every execution (x a Set or Rel with
// a literal for every element v may hold, or emptyVal when v may hold
// none); it fails when v is not a set or relation of x's kind.
func (al *Algebra[L]) requireWithin(v, x value, pf Prefixpoints[L]) bool {
	switch v := v.(type) {
	case emptyVal:
		return true
	case Set[L]:
		if _, empty := x.(emptyVal); empty {
			x = al.EmptySet()
		}
		xs, isSet := x.(Set[L])
		if !isSet {
			return false
		}
		for e := range v {
			if v[e] != al.f {
				pf.Implies(v[e], xs[e])
			}
		}
		return true
	case Rel[L]:
		if _, empty := x.(emptyVal); empty {
			x = Rel[L]{}
		}
		xr, isRel := x.(Rel[L])
		if !isRel {
			return false
		}
		for _, k := range SortedPairs(v) {
			l, in := xr[k]
			if !in {
				// Outside what may hold: false in every execution, as F
				// is monotone and x within what may hold, though the
				// literal does not show it.
				l = al.f
			}
			pf.Implies(v[k], l)
		}
		return true
	}
	return false
}

// round evaluates the definitions of a let rec once, in the scope of the
// previous round's values.
func (ev *evaluator[L]) round(bs []*ast.Binding, sc *env) ([]value, error) {
	vals := make([]value, len(bs))
	for i, b := range bs {
		if err := ev.done(); err != nil {
			return nil, err
		}
		v, err := ev.expr(b.Value, sc)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}
