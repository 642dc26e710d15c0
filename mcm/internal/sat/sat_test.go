package sat

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// cnf is a formula over variables 2..n+1 (variable 1 is True), checked by
// exhaustive search.
type cnf struct {
	n       int
	clauses [][]Lit
}

// holds evaluates l under the assignment bits (bit i is variable i+2).
func holds(l Lit, bits uint) bool {
	v := l.variable()
	val := v == 1 || bits>>(v-2)&1 == 1
	return val == (l > 0)
}

func (f *cnf) satisfiedBy(bits uint, extra []Lit) bool {
	for _, a := range extra {
		if !holds(a, bits) {
			return false
		}
	}
	for _, c := range f.clauses {
		ok := false
		for _, l := range c {
			if holds(l, bits) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// models returns the assignments satisfying f and the assumptions.
func (f *cnf) models(assumptions []Lit) []uint {
	var out []uint
	for bits := uint(0); bits < 1<<f.n; bits++ {
		if f.satisfiedBy(bits, assumptions) {
			out = append(out, bits)
		}
	}
	return out
}

// randomLit returns a literal over variables 2..n+1, now and then a
// constant.
func randomLit(r *rand.Rand, n int) Lit {
	if r.IntN(20) == 0 {
		return []Lit{True, False}[r.IntN(2)]
	}
	l := Lit(2 + r.IntN(n))
	if r.IntN(2) == 0 {
		l = -l
	}
	return l
}

func randomClause(r *rand.Rand, n int) []Lit {
	size := 1 + r.IntN(4)
	if r.IntN(300) == 0 {
		size = 0
	}
	c := make([]Lit, size)
	for i := range c {
		c[i] = randomLit(r, n)
	}
	if size > 1 && r.IntN(8) == 0 {
		c = append(c, c[0]) // duplicate
	}
	return c
}

func newVars(s *Solver, n int) {
	for range n {
		s.NewVar()
	}
}

// randomFormula makes k random clauses over n variables, both as a cnf
// for exhaustive search and in a new solver.
func randomFormula(r *rand.Rand, n, k int) (*cnf, *Solver) {
	f := &cnf{n: n}
	s := New()
	newVars(s, n)
	for range k {
		c := randomClause(r, n)
		f.clauses = append(f.clauses, c)
		s.AddClause(c...)
	}
	return f, s
}

// randomProjection is up to n+1 random literals over n variables.
func randomProjection(r *rand.Rand, n int) []Lit {
	var projection []Lit
	for range r.IntN(n + 2) {
		projection = append(projection, randomLit(r, n))
	}
	return projection
}

// checkModel verifies that the solver's model satisfies f and assumptions.
func checkModel(t *testing.T, s *Solver, f *cnf, assumptions []Lit) {
	t.Helper()
	var bits uint
	for v := 2; v < 2+f.n; v++ {
		if s.Value(Lit(v)) {
			bits |= 1 << (v - 2)
		}
	}
	if !f.satisfiedBy(bits, assumptions) {
		t.Fatalf("model %b violates the formula or assumptions %v", bits, assumptions)
	}
	if !s.Value(True) || s.Value(False) {
		t.Fatal("constants have wrong values")
	}
}

// TestSolveIncrementalAgainstExhaustive adds random clauses in rounds and,
// after each round, solves under random assumptions and then without, as
// an exhaustive search does.
func TestSolveIncrementalAgainstExhaustive(t *testing.T) {
	sats, unsats := 0, 0
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 1))
		n := 1 + r.IntN(12)
		f := &cnf{n: n}
		s := New()
		newVars(s, n)
		for round := range 8 {
			for range r.IntN(n + 1) {
				c := randomClause(r, n)
				f.clauses = append(f.clauses, c)
				s.AddClause(c...)
			}
			var assumptions []Lit
			for range r.IntN(4) {
				assumptions = append(assumptions, randomLit(r, n))
			}
			for _, as := range [][]Lit{assumptions, nil} {
				want := len(f.models(as)) > 0
				got := s.Solve(as...)
				if got != want {
					t.Fatalf("seed %d round %d: Solve(%v) = %v, exhaustive search says %v\n%v", seed, round, as, got, want, f.clauses)
				}
				if got {
					sats++
					checkModel(t, s, f, as)
				} else {
					unsats++
				}
			}
		}
	}
	if sats == 0 || unsats == 0 {
		t.Fatalf("degenerate test: %d sat, %d unsat", sats, unsats)
	}
	t.Logf("%d sat, %d unsat answers checked", sats, unsats)
}

// project maps a full assignment to the projection's values, as a key.
func project(bits uint, projection []Lit) string {
	var b strings.Builder
	for _, p := range projection {
		if holds(p, bits) {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

func key(model []bool) string {
	var b strings.Builder
	for _, v := range model {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

func TestEnumerateProjectionAgainstExhaustive(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 2))
		n := 1 + r.IntN(12)
		f, s := randomFormula(r, n, r.IntN(3*n))
		projection := randomProjection(r, n)
		var assumptions []Lit
		if seed%3 == 0 {
			assumptions = append(assumptions, randomLit(r, n))
		}
		want := map[string]bool{}
		for _, bits := range f.models(assumptions) {
			want[project(bits, projection)] = true
		}
		for pass := range 2 { // twice: the first must leave the formula unchanged
			got := map[string]bool{}
			count, complete := enumerateUnder(s, assumptions, projection, 0, func(model []bool) bool {
				k := key(model)
				if got[k] {
					t.Fatalf("seed %d: model %s enumerated twice", seed, k)
				}
				got[k] = true
				return true
			})
			if !complete || count != len(want) || len(got) != len(want) {
				t.Fatalf("seed %d pass %d: %d projected models (complete %v), want %d", seed, pass, count, complete, len(want))
			}
			for k := range want {
				if !got[k] {
					t.Fatalf("seed %d pass %d: missing projected model %s", seed, pass, k)
				}
			}
		}
		if limit := 2; len(want) > 0 {
			count, complete := enumerateUnder(s, assumptions, projection, limit, func([]bool) bool { return true })
			if count != min(limit, len(want)) || complete != (len(want) <= limit) {
				t.Fatalf("seed %d: limit %d gave %d (complete %v) of %d", seed, limit, count, complete, len(want))
			}
			count, complete = enumerateUnder(s, assumptions, projection, 0, func([]bool) bool { return false })
			if count != 1 || complete {
				t.Fatalf("seed %d: stopping at once gave %d (complete %v)", seed, count, complete)
			}
		}
		if got, want := s.Solve(), len(f.models(nil)) > 0; got != want {
			t.Fatalf("seed %d: Solve after enumeration = %v, want %v", seed, got, want)
		}
	}
}

// expr is a random formula over variables and constants, built with the
// solver's gates and evaluated directly.
type expr struct {
	op   string
	args []*expr
	lit  Lit
}

func (e *expr) eval(bits uint) bool {
	a := func(i int) bool { return e.args[i].eval(bits) }
	switch e.op {
	case "lit":
		return holds(e.lit, bits)
	case "not":
		return !a(0)
	case "and", "or":
		and := e.op == "and"
		for i := range e.args {
			if a(i) != and {
				return !and
			}
		}
		return and
	case "xor":
		return a(0) != a(1)
	case "iff":
		return a(0) == a(1)
	case "implies":
		return !a(0) || a(1)
	case "ite":
		if a(0) {
			return a(1)
		}
		return a(2)
	}
	panic(e.op)
}

func (e *expr) build(s *Solver) Lit {
	in := make([]Lit, len(e.args))
	for i, x := range e.args {
		in[i] = x.build(s)
	}
	switch e.op {
	case "lit":
		return e.lit
	case "not":
		return s.Not(in[0])
	case "and":
		return s.And(in...)
	case "or":
		return s.Or(in...)
	case "xor":
		return s.Xor(in[0], in[1])
	case "iff":
		return s.iff(in[0], in[1])
	case "implies":
		return s.Implies(in[0], in[1])
	case "ite":
		return s.ite(in[0], in[1], in[2])
	}
	panic(e.op)
}

func randomExpr(r *rand.Rand, n, depth int) *expr {
	if depth == 0 || r.IntN(4) == 0 {
		return &expr{op: "lit", lit: randomLit(r, n)}
	}
	ops := []string{"not", "and", "or", "xor", "iff", "implies", "ite"}
	op := ops[r.IntN(len(ops))]
	arity := map[string]int{"not": 1, "xor": 2, "iff": 2, "implies": 2, "ite": 3}[op]
	if op == "and" || op == "or" {
		arity = r.IntN(5)
	}
	e := &expr{op: op}
	for range arity {
		// Reuse a sibling now and then so that x∧x, x⊕x, ite(c,c,e)... occur.
		if len(e.args) > 0 && r.IntN(5) == 0 {
			prev := e.args[r.IntN(len(e.args))]
			if r.IntN(2) == 0 {
				prev = &expr{op: "not", args: []*expr{prev}}
			}
			e.args = append(e.args, prev)
			continue
		}
		e.args = append(e.args, randomExpr(r, n, depth-1))
	}
	return e
}

// TestGatesTruthTables checks every gate, composed at random, against its
// truth table: under each assignment of the inputs, the output is forced to
// the expected value.
func TestGatesTruthTables(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 3))
		n := 1 + r.IntN(4)
		s := New()
		newVars(s, n)
		var exprs []*expr
		var outs []Lit
		for range 3 {
			e := randomExpr(r, n, 3)
			exprs = append(exprs, e)
			outs = append(outs, e.build(s))
		}
		// Building the same expression again must reuse the gates.
		before := s.numVars
		for i, e := range exprs {
			if again := e.build(s); again != outs[i] {
				t.Fatalf("seed %d: rebuilt gate %d is %d, was %d", seed, i, again, outs[i])
			}
		}
		if s.numVars != before {
			t.Fatalf("seed %d: rebuilding allocated %d variables", seed, s.numVars-before)
		}
		for bits := uint(0); bits < 1<<n; bits++ {
			var inputs []Lit
			for v := 2; v < 2+n; v++ {
				if bits>>(v-2)&1 == 1 {
					inputs = append(inputs, Lit(v))
				} else {
					inputs = append(inputs, Lit(-v))
				}
			}
			for i, e := range exprs {
				want := e.eval(bits)
				out := outs[i]
				if !s.Solve(inputs...) {
					t.Fatalf("seed %d: gates unsatisfiable under %v", seed, inputs)
				}
				if s.Value(out) != want {
					t.Fatalf("seed %d: expression %d under %b is %v, want %v", seed, i, bits, s.Value(out), want)
				}
				wrong := out
				if want {
					wrong = -out
				}
				if s.Solve(append(inputs, wrong)...) {
					t.Fatalf("seed %d: expression %d under %b can be %v", seed, i, bits, !want)
				}
			}
		}
	}
}

func TestGateFolding(t *testing.T) {
	s := New()
	a, b, c := s.NewVar(), s.NewVar(), s.NewVar()
	cases := []struct {
		name      string
		got, want Lit
	}{
		{"And()", s.And(), True},
		{"Or()", s.Or(), False},
		{"And(a,False)", s.And(a, False), False},
		{"And(a,True)", s.And(a, True), a},
		{"Or(a,True)", s.Or(a, True), True},
		{"Or(a,False)", s.Or(a, False), a},
		{"And(a,¬a)", s.And(a, -a, b), False},
		{"Or(a,¬a)", s.Or(a, -a), True},
		{"And(a,a)", s.And(a, a), a},
		{"And order", s.And(b, a), s.And(a, b)},
		{"Or is ¬And¬", s.Or(a, b), -s.And(-a, -b)},
		{"Xor(a,a)", s.Xor(a, a), False},
		{"Xor(a,¬a)", s.Xor(a, -a), True},
		{"Xor(a,True)", s.Xor(a, True), -a},
		{"Xor(False,a)", s.Xor(False, a), a},
		{"Xor sign", s.Xor(-a, b), -s.Xor(a, b)},
		{"Xor order", s.Xor(b, a), s.Xor(a, b)},
		{"Iff", s.iff(a, b), -s.Xor(a, b)},
		{"iff(a,a)", s.iff(a, a), True},
		{"Implies(False,a)", s.Implies(False, a), True},
		{"Implies(a,b)", s.Implies(a, b), s.Or(-a, b)},
		{"Ite(True,a,b)", s.ite(True, a, b), a},
		{"Ite(False,a,b)", s.ite(False, a, b), b},
		{"Ite(c,a,a)", s.ite(c, a, a), a},
		{"Ite(c,True,False)", s.ite(c, True, False), c},
		{"Ite(c,False,True)", s.ite(c, False, True), -c},
		{"Ite(¬c,a,b)", s.ite(-c, a, b), s.ite(c, b, a)},
		{"Ite(c,¬a,¬b)", s.ite(c, -a, -b), -s.ite(c, a, b)},
		{"Not", s.Not(a), -a},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	// A unit fact folds like a constant.
	s.AddClause(c)
	if got := s.And(a, c); got != a {
		t.Errorf("And(a, c) with c fixed true = %d, want a", got)
	}
}

func TestCardinalityAgainstExhaustive(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 4))
		n := 1 + r.IntN(10)
		var lits []Lit
		for range r.IntN(12) {
			lits = append(lits, randomLit(r, n))
		}
		for _, exactly := range []bool{false, true} {
			s := New()
			newVars(s, n)
			if exactly {
				s.ExactlyOne(lits...)
			} else {
				s.atMostOne(lits...)
			}
			var base []Lit
			for v := 2; v < 2+n; v++ {
				base = append(base, Lit(v))
			}
			want := map[string]bool{}
			for bits := uint(0); bits < 1<<n; bits++ {
				trues := 0
				for _, l := range lits {
					if holds(l, bits) {
						trues++
					}
				}
				if trues <= 1 && (!exactly || trues == 1) {
					want[project(bits, base)] = true
				}
			}
			got := map[string]bool{}
			enumerate(s, base, 0, func(m []bool) bool { got[key(m)] = true; return true })
			if len(got) != len(want) {
				t.Fatalf("seed %d exactly=%v %v: %d models, want %d", seed, exactly, lits, len(got), len(want))
			}
			for k := range want {
				if !got[k] {
					t.Fatalf("seed %d exactly=%v %v: missing %s", seed, exactly, lits, k)
				}
			}
		}
	}
}

func TestTriviallyUnsat(t *testing.T) {
	s := New()
	a := s.NewVar()
	s.AddClause(a)
	s.AddClause(a, a) // same unit again
	if !s.Solve() || !s.Value(a) {
		t.Fatal("unit a: want SAT with a true")
	}
	if s.Solve(-a) {
		t.Fatal("assuming ¬a against the unit a: want UNSAT")
	}
	if s.Solve(False) {
		t.Fatal("assuming False: want UNSAT")
	}
	if !s.Solve(True, a) {
		t.Fatal("assuming True: want SAT")
	}
	b := s.NewVar()
	if s.Solve(b, -b) {
		t.Fatal("assuming b and ¬b: want UNSAT")
	}
	if !s.Solve() || s.unsat {
		t.Fatal("failed assumptions must not make the formula UNSAT")
	}
	s.AddClause(-a)
	if !s.unsat || s.Solve() || s.Solve(b) {
		t.Fatal("units a and ¬a: want permanently UNSAT")
	}
	s.AddClause(b) // adding after UNSAT is harmless
	if s.Solve() {
		t.Fatal("still UNSAT")
	}

	s = New()
	s.AddClause()
	if s.Solve() || s.Solve(True) || !s.unsat {
		t.Fatal("empty clause: want UNSAT")
	}
	s = New()
	s.AddClause(False)
	if s.Solve() {
		t.Fatal("clause (False): want UNSAT")
	}
	s = New()
	if !s.Solve() {
		t.Fatal("empty formula: want SAT")
	}
	s.AddClause(True)
	s.AddClause(s.NewVar(), True)
	if !s.Solve() || s.numClauses() != 0 {
		t.Fatalf("clauses with True: want SAT and none kept, have %d", s.numClauses())
	}
}

// TestUnitsSurviveAssumptions guards against gophersat forgetting unit
// clauses when Assume rebinds everything.
func TestUnitsSurviveAssumptions(t *testing.T) {
	s := New()
	a, b, c := s.NewVar(), s.NewVar(), s.NewVar()
	s.AddClause(-a, b, c)
	s.Solve()
	s.AddClause(a) // after the first solve: goes through AppendClause
	s.AddClause(-b, c)
	for i := range 3 { // a ∧ (¬a ∨ b ∨ c) ∧ (¬b ∨ c) ∧ ¬c is UNSAT
		if s.Solve(-c) {
			t.Fatalf("round %d: SAT under ¬c, but a is a unit fact", i)
		}
	}
	if !s.Solve() || !s.Value(a) || !s.Value(c) {
		t.Fatal("want SAT with a and c")
	}
}

func TestValueWithoutModelPanics(t *testing.T) {
	s := New()
	a := s.NewVar()
	s.AddClause(a)
	s.AddClause(-a)
	s.Solve()
	defer func() {
		if recover() == nil {
			t.Fatal("Value after UNSAT did not panic")
		}
	}()
	s.Value(a)
}

// TestSolversInParallel runs solvers in several goroutines; with -race it
// checks that gophersat's shared buffer is protected.
func TestSolversInParallel(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 5))
			for range 20 {
				n := 8 + r.IntN(5)
				f := &cnf{n: n}
				s := New()
				newVars(s, n)
				for range 4 * n {
					c := []Lit{randomLit(r, n), randomLit(r, n), randomLit(r, n)}
					f.clauses = append(f.clauses, c)
					s.AddClause(c...)
				}
				if got, want := s.Solve(), len(f.models(nil)) > 0; got != want {
					errs <- fmt.Errorf("goroutine %d: Solve = %v, want %v", g, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestOutOfRangeLiteralPanics(t *testing.T) {
	for _, l := range []Lit{0, 5, -5} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddClause(%d) with 2 variables did not panic", l)
				}
			}()
			s := New()
			s.NewVar()
			s.AddClause(l)
		}()
	}
}
