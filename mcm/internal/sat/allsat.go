package sat

import "slices"

// AllSolutions enumerates the models of the formula projected onto the
// variables of projection, without blocking clauses: a DPLL search of its
// own (two watched literals, chronological backtracking, no learning)
// decides the projection's variables first, in the order given, and then
// completes each projection with one model of the rest. Blocking clauses
// make every solve of an enumeration visit all the clauses added before
// it, so that the time of gophersat's loop grows with the square of the
// number of models; this search spends on each model only the
// propagation of the decisions it changes.
//
// At each complete model, refute may return a clause that the model
// violates (a consequence of the formula that the clauses do not state,
// such as a lazy acyclicity constraint): the clause is added for good
// (to the Solver as well) and the search goes on. Once refutations
// outnumber the models visited, refute is also asked after each decision
// on the projection, with Value true only for what is assigned true so
// far: a cycle among those edges cuts the subtree at once instead of at
// each of its leaves. Otherwise visit is
// called, once per projection; it returns false to stop. Both read the
// model with Value.
//
// Without learning, DPLL can take exponential time where a CDCL solver
// would not: after budget conflicts (plus 64 for each model visited), or
// 1000 × budget assignments (plus eight per variable for each model), the
// search gives up and returns the part of the space it has not searched,
// as cubes (conjunctions of literals over projected variables, pairwise
// disjoint, disjoint from every projection visited): the caller can go on
// with Solve under each. AllSolutions returns whether it stopped because
// visit said so; rest is nil when every projection was visited (or
// stopped).
func (s *Solver) AllSolutions(projection []Lit, budget int, refute func() []Lit, visit func() bool) (stopped bool, rest [][]Lit) {
	s.pollNow()
	s.hasModel = false
	if s.unsat {
		return false, nil
	}
	d := newDPLL(s)
	defer func() { s.search, s.hasModel = nil, false }()
	if !d.start() {
		return false, nil
	}
	isProjected := make([]bool, s.numVars+1)
	for _, p := range projection {
		isProjected[p.variable()] = true
	}
	order := make([]int32, 0, s.numVars)
	for _, p := range projection {
		order = append(order, int32(p.variable()))
	}
	for v := 2; v <= s.numVars; v++ {
		if !isProjected[v] {
			order = append(order, int32(v))
		}
	}
	nProjected := len(projection)
	conflicts := 0
	visited := 0
	refuted := 0 // models refuted, complete or partial
	next := 0    // index into order: every variable before it is assigned
	for {
		s.poll()
		if conflicts > budget+64*visited || d.work > 1000*budget+8*s.numVars*(visited+1) {
			return false, d.unsearched()
		}
		if len(d.trail) == s.numVars {
			next = len(order) // every variable is assigned (is on the trail)
		}
		for next < len(order) && d.value(Lit(order[next])) != 0 {
			next++
		}
		if next < len(order) {
			v := Lit(order[next])
			if s.falseFirst[int32(v)] && next >= nProjected {
				v = -v
			}
			d.decide(v, next, next < nProjected)
			if !d.propagate() {
				conflicts++
				if !d.backtrack() {
					return false, nil
				}
				next = d.resume()
				continue
			}
			if refuted <= visited || next >= nProjected {
				continue
			}
			// Most complete models were refuted: refute partial ones too,
			// by what is true so far, which cuts the dead ends earlier.
			s.search, s.hasModel, s.partial = d, true, true
			clause := refute()
			s.hasModel, s.partial = false, false
			if !d.falsified(clause) {
				continue // nil, or not yet false: the complete model will tell
			}
			conflicts++
			refuted++
			s.AddClause(clause...)
			if !d.learn(clause) {
				return false, nil
			}
			next = d.resume()
			continue
		}
		// A complete model, which Value reads from the search's own
		// assignment.
		s.search = d
		s.hasModel = true
		if clause := refute(); clause != nil {
			s.hasModel = false
			conflicts++
			refuted++
			s.AddClause(clause...)
			if !d.learn(clause) {
				return false, nil
			}
			next = d.resume()
			continue
		}
		visited++
		if !visit() {
			return true, nil
		}
		s.hasModel = false
		// One completion per projection: leave the rest's decisions.
		d.popUnprojected()
		if !d.backtrack() {
			return false, nil
		}
		next = d.resume()
	}
}

// unsearched returns the cubes of the space the search has not covered:
// the subtree of the current projected decisions, and the second branch
// of each projected decision that has one left. Decisions on unprojected
// variables only choose a completion: they are left out.
func (d *dpll) unsearched() [][]Lit {
	var prefix []Lit
	var rest [][]Lit
	for _, dec := range d.decisions {
		if !dec.projected {
			break
		}
		if !dec.flipped {
			rest = append(rest, append(slices.Clip(prefix), -dec.lit))
		}
		prefix = append(prefix, dec.lit)
	}
	return append(rest, prefix)
}

// dpll is the state of AllSolutions' search.
type dpll struct {
	s *Solver
	// litVals[l+numVars] is the value of literal l: +1, -1, or 0 when
	// unassigned (one entry per literal, read without a branch on its sign).
	litVals []int8
	numVars int
	level   []int32   // per variable: the decision level that assigned it
	clauses [][]Lit   // the first two literals of each are watched
	watches [][]watch // per literal index: clauses watching that literal
	trail   []Lit
	head    int // trail[:head] has been propagated
	work    int // assignments made, the measure of the search's cost
	// decisions, one per level above 0: where its trail starts, its
	// literal, whether it is the second branch (no alternative left) and
	// whether it decides a projected variable.
	decisions []decision
}

// watch is a clause watching a literal, with another literal of the
// clause (the blocker): while the blocker is true the clause is satisfied
// and propagate skips it without reading the clause. A binary clause's
// blocker is its other literal, and its clause is binaryClause:
// propagate never reads it. Eight bytes, so that a literal's watches
// share few cache lines.
type watch struct {
	clause  int32
	blocker int32 // a Lit
}

const binaryClause = -1

type decision struct {
	start     int // where its assignments start on the trail
	pos       int // the index of its variable in the order of decisions
	lit       Lit
	flipped   bool
	projected bool
}

func litIndex(l Lit) int {
	if l > 0 {
		return 2 * int(l)
	}
	return 2*int(-l) + 1
}

func newDPLL(s *Solver) *dpll {
	n := s.numVars
	d := &dpll{
		s:       s,
		litVals: make([]int8, 2*n+1),
		numVars: n,
		level:   make([]int32, n+1),
		watches: make([][]watch, 2*n+2),
		clauses: make([][]Lit, len(s.ends)),
	}
	// The search reorders each clause's literals: it takes copies, cut
	// from one allocation.
	lits := slices.Clone(s.lits)
	start := 0
	for i, end := range s.ends {
		d.clauses[i] = lits[start:end:end]
		start = end
	}
	return d
}

func (d *dpll) value(l Lit) int8 {
	return d.litVals[int(l)+d.numVars]
}

func (d *dpll) assign(l Lit) {
	v := l.variable()
	d.litVals[int(l)+d.numVars] = 1
	d.litVals[d.numVars-int(l)] = -1
	d.level[v] = int32(len(d.decisions))
	d.trail = append(d.trail, l)
	d.work++
}

// start assigns the unit facts and watches every clause; it returns false
// when they conflict at level 0.
func (d *dpll) start() bool {
	for _, u := range d.s.units {
		switch d.value(u) {
		case -1:
			return false
		case 0:
			d.assign(u)
		}
	}
	for i := range d.clauses {
		if !d.attach(int32(i)) {
			d.watchFirst(i + 1)
			return false
		}
	}
	d.watchFirst(len(d.clauses))
	return d.propagate()
}

// watchFirst watches the first n clauses, as attach ordered them, each
// literal's watches cut from one allocation: there are several per
// clause, and a formula has thousands of clauses.
func (d *dpll) watchFirst(n int) {
	counts := make([]int32, len(d.watches))
	total := 0
	for _, c := range d.clauses[:n] {
		counts[litIndex(c[0])]++
		counts[litIndex(c[1])]++
		total += 2
	}
	slab := make([]watch, total)
	for l, k := range counts {
		d.watches[l], slab = slab[:0:k], slab[k:]
	}
	for i := range n {
		d.watch(int32(i), d.clauses[i])
	}
}

// attach orders clause i to be watched (by watchFirst) on two literals
// that are not false, if it has them; a clause unit or false under the
// level-0 assignment is handled at once (only at level 0, by start).
func (d *dpll) attach(i int32) bool {
	c := d.clauses[i]
	k := 0
	for j := range c {
		if d.value(c[j]) >= 0 {
			c[k], c[j] = c[j], c[k]
			k++
			if k == 2 {
				break
			}
		}
	}
	switch {
	case k == 0:
		return false
	case k == 1 && d.value(c[0]) == 0:
		d.assign(c[0])
	}
	return true
}

// watch makes clause i, c, watch its first two literals, each with the
// other as its blocker.
func (d *dpll) watch(i int32, c []Lit) {
	if len(c) == 2 {
		i = binaryClause
	}
	d.watches[litIndex(c[0])] = append(d.watches[litIndex(c[0])], watch{i, int32(c[1])})
	d.watches[litIndex(c[1])] = append(d.watches[litIndex(c[1])], watch{i, int32(c[0])})
}

func (d *dpll) decide(l Lit, pos int, projected bool) {
	d.decisions = append(d.decisions, decision{start: len(d.trail), pos: pos, lit: l, projected: projected})
	d.assign(l)
}

// propagate runs unit propagation over the trail; it returns false on a
// conflict.
func (d *dpll) propagate() bool {
	for d.head < len(d.trail) {
		falsified := -d.trail[d.head]
		d.head++
		ws := d.watches[litIndex(falsified)]
		j := 0
		for i := 0; i < len(ws); i++ {
			w := ws[i]
			b := d.value(Lit(w.blocker))
			if b > 0 {
				ws[j] = w
				j++
				continue
			}
			if w.clause == binaryClause {
				ws[j] = w
				j++
				if b < 0 {
					j += copy(ws[j:], ws[i+1:])
					d.watches[litIndex(falsified)] = ws[:j]
					return false
				}
				d.assign(Lit(w.blocker))
				continue
			}
			c := d.clauses[w.clause]
			if c[0] == falsified {
				c[0], c[1] = c[1], c[0]
			}
			if c[0] != Lit(w.blocker) && d.value(c[0]) > 0 {
				ws[j] = watch{w.clause, int32(c[0])}
				j++
				continue
			}
			moved := false
			for k := 2; k < len(c); k++ {
				if d.value(c[k]) >= 0 {
					c[1], c[k] = c[k], c[1]
					d.watches[litIndex(c[1])] = append(d.watches[litIndex(c[1])], watch{w.clause, int32(c[0])})
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = watch{w.clause, int32(c[0])}
			j++
			if d.value(c[0]) < 0 {
				j += copy(ws[j:], ws[i+1:])
				d.watches[litIndex(falsified)] = ws[:j]
				return false
			}
			d.assign(c[0])
		}
		d.watches[litIndex(falsified)] = ws[:j]
	}
	return true
}

// undo pops the decision levels above level.
func (d *dpll) undo(level int) {
	if level >= len(d.decisions) {
		return
	}
	start := d.decisions[level].start
	for _, l := range d.trail[start:] {
		d.litVals[int(l)+d.numVars] = 0
		d.litVals[d.numVars-int(l)] = 0
	}
	d.trail = d.trail[:start]
	d.head = start
	d.decisions = d.decisions[:level]
}

// resume returns where the search for the next decision starts after a
// backtrack: every variable before the latest decision's was assigned at
// a lower level.
func (d *dpll) resume() int {
	if len(d.decisions) == 0 {
		return 0
	}
	return d.decisions[len(d.decisions)-1].pos
}

// popUnprojected pops the levels of the decisions on unprojected variables
// (all above those on projected ones).
func (d *dpll) popUnprojected() {
	level := len(d.decisions)
	for level > 0 && !d.decisions[level-1].projected {
		level--
	}
	d.undo(level)
}

// backtrack takes the second branch of the latest decision that has one,
// propagating it, and goes on backtracking while that conflicts; it
// returns false when no decision has a second branch left.
func (d *dpll) backtrack() bool {
	for {
		level := len(d.decisions)
		for level > 0 && d.decisions[level-1].flipped {
			level--
		}
		if level == 0 {
			return false
		}
		dec := d.decisions[level-1]
		d.undo(level - 1)
		dec.start, dec.lit, dec.flipped = len(d.trail), -dec.lit, true
		d.decisions = append(d.decisions, dec)
		d.assign(dec.lit)
		if d.propagate() {
			return true
		}
	}
}

// falsified tells whether a clause has every literal assigned false.
func (d *dpll) falsified(c []Lit) bool {
	for _, l := range c {
		if d.value(l) >= 0 {
			return false
		}
	}
	return c != nil
}

// learn adds a clause that the current (complete) assignment falsifies:
// no extension of the levels up to the highest level among its literals
// satisfies it, so the search pops the levels above, then backtracks. It
// returns false when the search is over.
func (d *dpll) learn(clause []Lit) bool {
	c := append([]Lit(nil), clause...)
	c, taut := normalise(c)
	if taut {
		panic("sat: a refutation is a tautology")
	}
	if len(c) == 1 {
		// Watched like the others: False never becomes true.
		c = append(c, False)
	}
	for _, l := range c {
		if d.value(l) >= 0 {
			panic("sat: a refutation that the model satisfies")
		}
	}
	// Watch the two literals assigned last: they are the first to become
	// unassigned when the search backtracks.
	for k := 0; k < 2 && k < len(c); k++ {
		for j := k + 1; j < len(c); j++ {
			if d.level[c[j].variable()] > d.level[c[k].variable()] {
				c[k], c[j] = c[j], c[k]
			}
		}
	}
	top := 0
	if len(c) > 0 {
		top = int(d.level[c[0].variable()])
	}
	if len(c) >= 2 {
		d.clauses = append(d.clauses, c)
		i := int32(len(d.clauses) - 1)
		d.watch(i, c)
	}
	if top == 0 {
		// False at level 0 (the solver's AddClause made it unsatisfiable,
		// or a unit that level 0 falsifies): nothing is left.
		return false
	}
	d.undo(top)
	if !d.backtrack() {
		return false
	}
	// The clause may now be unit (its second literal's level was popped
	// too, but not its first's): propagation watches only new falsifications.
	return d.settle(c)
}

// settle makes the assignment agree with a clause just learnt after a
// backtrack: propagate its unit literal, or backtrack again while it is
// false.
func (d *dpll) settle(c []Lit) bool {
	for {
		unassigned, satisfied := 0, false
		var unit Lit
		for _, l := range c {
			switch d.value(l) {
			case 1:
				satisfied = true
			case 0:
				unassigned++
				unit = l
			}
		}
		switch {
		case satisfied || unassigned >= 2:
			return true
		case unassigned == 1:
			d.assign(unit)
			if d.propagate() {
				return true
			}
		}
		if !d.backtrack() {
			return false
		}
	}
}
