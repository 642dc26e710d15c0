package sat

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/crillab/gophersat/solver"
)

// Lit is a literal in DIMACS style: variable v is Lit(v), its negation
// Lit(-v). Zero is not a literal. Variable 1 is reserved for the constant
// True, so True and False are ordinary literals that need no clauses.
type Lit int

// The two constants.
const (
	True  Lit = 1
	False Lit = -1
)

// Not returns the negation of l.
func (l Lit) Not() Lit { return -l }

// variable returns the variable of l (always positive).
func (l Lit) variable() int {
	if l < 0 {
		return int(-l)
	}
	return int(l)
}

// IsConst reports whether l is True or False.
func (l Lit) IsConst() bool { return l == True || l == False }

// gophersatMu serialises every call into gophersat: its conflict analysis
// writes a package-level buffer (bufLits) shared by all solver instances.
var gophersatMu sync.Mutex

// Solver builds a CNF formula incrementally and solves it with gophersat.
// Use one Solver per goroutine.
//
// gophersat is only ever given clauses of two or more distinct literals,
// and only between a call to Assume(nil), which unbinds everything, and the
// next Assume: its AppendClause would otherwise simplify the new clause
// with the current top-level bindings (including assumptions) and forget
// unit clauses at the next Assume. Unit facts therefore live here and are
// passed as assumptions on every solve.
type Solver struct {
	numVars   int    // variables allocated; variable 1 is True
	unitValue []int8 // per variable: +1 or -1 when fixed by a unit fact
	units     []Lit  // the unit facts, True first
	// Every clause of two or more literals, for AllSolutions: clause i is
	// lits[ends[i-1]:ends[i]] (from 0 for the first). One slice of
	// literals, not one slice per clause: a formula has thousands.
	lits     []Lit
	ends     []int
	handed   int   // clauses before it are gophersat's; the rest are pending
	scratch  []Lit // AddClause's clause before it is kept
	nClauses int   // clauses kept (pending or handed over)
	unsat    bool  // the formula itself is unsatisfiable

	gates map[string]Lit // hash-consed Tseitin gates
	key   []byte         // scratch for gate keys

	gs     *solver.Solver
	gsVars int // variables gophersat knows

	model    []bool // model of the last successful Solve, indexed by variable-1
	search   *dpll  // during AllSolutions: the search, whose assignment Value reads
	hasModel bool
	partial  bool   // the model is AllSolutions' partial assignment: Value is false where unassigned
	mark     []int8 // scratch per variable for Solve's assumptions

	limits Limits
	polls  int // calls since the context was last checked

	falseFirst map[int32]bool // unprojected variables AllSolutions tries false first
}

// Limits bound the formula a Solver builds and the time spent on it; zero
// fields impose nothing. A Solver that exceeds them abandons its work by
// panicking: whoever sets Limits must defer Catch, and must not use the
// Solver afterwards.
type Limits struct {
	MaxVars    int // variables, the constant included
	MaxClauses int // clauses kept, as NumClauses counts them
	// Context is checked every few thousand variables and clauses and
	// before each solve. gophersat cannot be interrupted inside a solve.
	Context context.Context
}

// LimitError says that a formula outgrew one of its Limits.
type LimitError struct {
	What  string // "variables" or "clauses"
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the formula needs more than %d SAT %s", e.Limit, e.What)
}

// abort is the panic value with which a Solver under Limits abandons the
// formula being built.
type abort struct{ err error }

// Catch, deferred by a function that builds or solves a formula under
// Limits, turns the Solver's abort into *err (a *LimitError or the
// context's error); any other panic goes on.
func Catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if a, ok := r.(abort); ok {
		*err = a.err
		return
	}
	panic(r)
}

// SetLimits bounds the rest of the formula's construction and its solves.
func (s *Solver) SetLimits(l Limits) { s.limits = l }

// poll aborts when the context is done; it looks only every 4096 calls,
// which keeps it off the profiles.
func (s *Solver) poll() {
	s.polls++
	if s.polls&4095 == 0 {
		s.pollNow()
	}
}

func (s *Solver) pollNow() {
	if ctx := s.limits.Context; ctx != nil {
		if err := ctx.Err(); err != nil {
			panic(abort{err})
		}
	}
}

// New returns an empty (satisfiable) formula.
func New() *Solver {
	return &Solver{
		numVars:   1,
		unitValue: []int8{0, 1},
		units:     []Lit{True},
		gates:     make(map[string]Lit),
	}
}

// NewVar allocates a fresh variable and returns its positive literal.
func (s *Solver) NewVar() Lit {
	if s.limits.MaxVars > 0 && s.numVars >= s.limits.MaxVars {
		panic(abort{&LimitError{What: "variables", Limit: s.limits.MaxVars}})
	}
	s.poll()
	s.numVars++
	s.unitValue = append(s.unitValue, 0)
	return Lit(s.numVars)
}

// PreferFalse makes AllSolutions try l's variable with l false first when
// it completes a projection (variables of the projection keep their
// order): for a variable that the clauses only force true, the completion
// is then the least one, without search.
func (s *Solver) PreferFalse(l Lit) {
	s.check(l)
	if s.falseFirst == nil {
		s.falseFirst = map[int32]bool{}
	}
	s.falseFirst[int32(l.variable())] = l > 0
}

// numClauses returns the number of clauses kept (units included; clauses
// satisfied at addition and tautologies are not counted).
func (s *Solver) numClauses() int { return s.nClauses + len(s.units) - 1 }

func (s *Solver) check(l Lit) {
	if l == 0 || l.variable() > s.numVars {
		panic(fmt.Sprintf("sat: literal %d is not allocated (have %d variables)", l, s.numVars))
	}
}

// fixed returns the value of l when a unit fact (or the constant) decides it.
func (s *Solver) fixed(l Lit) (value, known bool) {
	s.check(l)
	u := s.unitValue[l.variable()]
	if u == 0 {
		return false, false
	}
	return (u > 0) == (l > 0), true
}

// normalise sorts lits by variable and removes duplicates; it reports
// whether lits contains a literal and its negation.
func normalise(lits []Lit) ([]Lit, bool) {
	slices.SortFunc(lits, func(a, b Lit) int {
		if d := a.variable() - b.variable(); d != 0 {
			return d
		}
		return int(a - b)
	})
	out := lits[:0]
	for _, l := range lits {
		if n := len(out); n > 0 && out[n-1].variable() == l.variable() {
			if out[n-1] != l {
				return out, true
			}
			continue
		}
		out = append(out, l)
	}
	return out, false
}

// AddClause adds the disjunction of lits. Literals fixed by the constants or
// by unit facts are folded, duplicates removed, tautologies dropped; an
// empty clause makes the formula permanently unsatisfiable.
func (s *Solver) AddClause(lits ...Lit) {
	if s.unsat {
		for _, l := range lits {
			s.check(l)
		}
		return
	}
	c := s.scratch[:0]
	for _, l := range lits {
		v, known := s.fixed(l)
		if !known {
			c = append(c, l)
		} else if v {
			return
		}
	}
	s.scratch = c
	c, taut := normalise(c)
	switch {
	case taut:
	case len(c) == 0:
		s.unsat = true
	case len(c) == 1:
		s.addUnit(c[0])
	default:
		if s.limits.MaxClauses > 0 && s.numClauses() >= s.limits.MaxClauses {
			panic(abort{&LimitError{What: "clauses", Limit: s.limits.MaxClauses}})
		}
		s.poll()
		s.lits = append(s.lits, c...)
		s.ends = append(s.ends, len(s.lits))
		s.nClauses++
	}
}

// clause returns clause i of two or more literals.
func (s *Solver) clause(i int) []Lit {
	start := 0
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.lits[start:s.ends[i]:s.ends[i]]
}

func (s *Solver) addUnit(l Lit) {
	want := int8(1)
	if l < 0 {
		want = -1
	}
	switch s.unitValue[l.variable()] {
	case want:
	case -want:
		s.unsat = true
	default:
		s.unitValue[l.variable()] = want
		s.units = append(s.units, l)
	}
}

// Solve decides the formula under the given assumptions (which hold for
// this call only) and reports whether it is satisfiable. After a true
// result, Value reads the model. Clauses may be added between calls.
func (s *Solver) Solve(assumptions ...Lit) bool {
	s.pollNow()
	s.hasModel = false
	if s.unsat {
		return false
	}
	for len(s.mark) <= s.numVars {
		s.mark = append(s.mark, 0)
	}
	assume := make([]solver.Lit, 0, len(s.units)+len(assumptions))
	for _, u := range s.units {
		assume = append(assume, toGophersat(u))
	}
	user := 0
	conflict := false
	for _, a := range assumptions {
		v, known := s.fixed(a)
		if known {
			if !v {
				conflict = true
			}
			continue
		}
		want := int8(1)
		if a < 0 {
			want = -1
		}
		switch s.mark[a.variable()] {
		case want:
			continue
		case -want:
			conflict = true
		}
		s.mark[a.variable()] = want
		assume = append(assume, toGophersat(a))
		user++
	}
	for _, a := range assumptions {
		s.mark[a.variable()] = 0
	}
	if conflict {
		return false
	}

	gophersatMu.Lock()
	defer gophersatMu.Unlock()
	s.flush()
	status := s.gs.Assume(assume)
	if status != solver.Unsat {
		status = s.gs.Solve()
	}
	if status != solver.Sat {
		if user == 0 {
			s.unsat = true
		}
		return false
	}
	s.model = s.gs.Model()
	s.hasModel = true
	return true
}

// flush hands the pending clauses to gophersat, creating it on first use.
// gophersatMu must be held.
func (s *Solver) flush() {
	var pending [][]Lit
	for i := s.handed; i < len(s.ends); i++ {
		pending = append(pending, s.clause(i))
	}
	s.handed = len(s.ends)
	if s.gs == nil {
		cnf := make([][]int, len(pending))
		for i, c := range pending {
			cnf[i] = make([]int, len(c))
			for j, l := range c {
				cnf[i][j] = int(l)
			}
		}
		s.gs = solver.New(solver.ParseSliceNb(cnf, s.numVars))
		s.gsVars = s.numVars
		return
	}
	if len(pending) == 0 && s.gsVars == s.numVars {
		return
	}
	// Unbind everything, assumptions of the previous solve included, so
	// that AppendClause stores each clause as it is.
	s.gs.Assume(nil)
	if s.gsVars < s.numVars {
		// Grow gophersat's tables once, with a clause that True satisfies.
		s.gs.AppendClause(solver.NewClause([]solver.Lit{toGophersat(True), toGophersat(Lit(s.numVars))}))
		s.gsVars = s.numVars
	}
	for _, c := range pending {
		lits := make([]solver.Lit, len(c))
		for i, l := range c {
			lits[i] = toGophersat(l)
		}
		s.gs.AppendClause(solver.NewClause(lits))
	}
}

func toGophersat(l Lit) solver.Lit { return solver.IntToLit(int32(l)) }

// AppendTrue appends to dst the index in lits of each literal that is true
// in the last model, as Value would tell, and returns it: one call for a
// whole relation, without Value's checks on each literal.
func (s *Solver) AppendTrue(dst []int32, lits []Lit) []int32 {
	d := s.search
	if !s.hasModel || d == nil {
		for i, l := range lits {
			if s.Value(l) {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	for i, l := range lits {
		if l == 0 || l.variable() > d.numVars {
			panic(fmt.Sprintf("sat: literal %d has no value in the last model", l))
		}
		if d.value(l) > 0 {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// Value returns the value of l in the model found by the last Solve, which
// must have returned true; variables created since then have no value.
func (s *Solver) Value(l Lit) bool {
	if !s.hasModel {
		panic("sat: Value without a model (the last Solve did not return true)")
	}
	v := l.variable()
	if d := s.search; d != nil {
		if l == 0 || v > d.numVars {
			panic(fmt.Sprintf("sat: literal %d has no value in the last model", l))
		}
		// Unassigned (0) only in a partial model: false there.
		return d.value(l) > 0
	}
	if l == 0 || v > len(s.model) {
		panic(fmt.Sprintf("sat: literal %d has no value in the last model", l))
	}
	return s.model[v-1] == (l > 0)
}
