package explicit

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/predef"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
)

// Set and Rel are the algebra's sets and relations of one execution.
type (
	Set = eval.Set[bool]
	Rel = eval.Rel[bool]
)

// boolLogic is the logic of one execution: a literal is true or false.
type boolLogic struct{}

func (boolLogic) True() bool              { return true }
func (boolLogic) False() bool             { return false }
func (boolLogic) Not(a bool) bool         { return !a }
func (boolLogic) Xor(a, b bool) bool      { return a != b }
func (boolLogic) Satisfiable(a bool) bool { return a }

func (boolLogic) And(a, b bool) bool { return a && b }
func (boolLogic) Or(a, b bool) bool  { return a || b }

func (boolLogic) All(lits []bool) bool {
	for _, l := range lits {
		if !l {
			return false
		}
	}
	return true
}

func (boolLogic) Any(lits []bool) bool {
	for _, l := range lits {
		if l {
			return true
		}
	}
	return false
}

// Candidates estimates, from the value analysis, how many candidate
// executions the explicit engine would enumerate: paths × rf choices ×
// coherence orders. It over-approximates (every read of every path, every
// write that may touch a location).
func Candidates(u *events.Unfolding) float64 {
	n := 1.0
	for _, leaves := range livePaths(u) {
		n *= math.Max(1, float64(len(leaves)))
	}
	writes := u.Writes()
	for _, r := range u.Events {
		if !r.IsRead() {
			continue
		}
		k := 0
		if r.IsReceive() {
			k++ // no message
		}
		for _, w := range writes {
			if events.MayAlias(w.Addr, r.Addr) && events.MayCoexist(w, r) {
				k++
			}
		}
		n *= math.Max(1, float64(k))
	}
	perLoc := map[outcome.Value]int{}
	for _, w := range writes {
		if w.Kind == events.KindInit {
			continue
		}
		for _, a := range w.Addr.Dom {
			perLoc[a]++
		}
	}
	for _, k := range perLoc {
		for i := 2; i <= k; i++ {
			n *= float64(i)
		}
	}
	return n
}

// livePaths lists, per thread, the leaves of the paths that can execute:
// not cut by the unrolling bound, through no dead segment.
func livePaths(u *events.Unfolding) [][]*events.Segment {
	out := make([][]*events.Segment, len(u.Roots))
	for th := range u.Roots {
		for _, leaf := range u.Leaves[th] {
			live := true
			for s := leaf; s != nil; s = s.Parent {
				if s.Cut || s.Dead {
					live = false
				}
			}
			if live {
				out[th] = append(out[th], leaf)
			}
		}
	}
	return out
}

// execution is one candidate execution of an unfolding.
type execution struct {
	u        *events.Unfolding
	leaves   []*events.Segment                 // per thread, where its path ends
	executed []bool                            // per event
	order    []int                             // per executed thread event: its position along its path
	reads    []*events.Event                   // the executed reads, thread by thread in program order
	writes   []*events.Event                   // the executed writes, initial writes first
	marks    []*events.Event                   // the executed marks (lock and SRCU events)
	rf       []*events.Event                   // per event: the write a read reads from
	nothing  []bool                            // per event: a receive that got no message
	co       map[outcome.Value][]*events.Event // per address, its writes in coherence order
	locs     []outcome.Value                   // the addresses of co, in a fixed order

	val   []outcome.Value // per term, memoised
	state []uint8         // per term: one of the term states below
}

const (
	termUnknown   = iota // not evaluated yet
	termBusy             // being evaluated: met again, it depends on itself
	termKnown            // val holds its value
	termPending          // it depends on a read whose write is not chosen yet
	termUndefined        // undefined: arithmetic without value, or values that justify themselves
)

// newExecution starts a candidate on the given paths (one leaf per
// thread), with no rf or co yet.
func newExecution(u *events.Unfolding, leaves []*events.Segment) *execution {
	x := &execution{u: u, leaves: leaves, executed: make([]bool, len(u.Events)), order: make([]int, len(u.Events)),
		rf: make([]*events.Event, len(u.Events)), nothing: make([]bool, len(u.Events)), val: make([]outcome.Value, len(u.Terms)), state: make([]uint8, len(u.Terms))}
	for _, e := range u.Events {
		if e.Kind == events.KindInit {
			x.executed[e.ID] = true
			x.writes = append(x.writes, e)
		}
	}
	for _, leaf := range leaves {
		var segs []*events.Segment
		for s := leaf; s != nil; s = s.Parent {
			segs = append(segs, s)
		}
		pos := 0
		for i := len(segs) - 1; i >= 0; i-- {
			for _, e := range segs[i].Events {
				x.executed[e.ID] = true
				x.order[e.ID] = pos
				pos++
				switch {
				case e.IsRead():
					x.reads = append(x.reads, e)
				case e.IsWrite():
					x.writes = append(x.writes, e)
				case e.Kind == events.KindMark:
					x.marks = append(x.marks, e)
				}
			}
		}
	}
	return x
}

// segments calls f with every segment of the execution's paths.
func (x *execution) segments(f func(*events.Segment)) {
	for _, leaf := range x.leaves {
		for s := leaf; s != nil; s = s.Parent {
			f(s)
		}
	}
}

// sameInstr tells whether two executed events come from one instruction
// instance of one thread.
func (x *execution) sameInstr(a, b *events.Event) bool {
	return a.Thread >= 0 && a.Thread == b.Thread && a.Instr == b.Instr
}

// before is program order between two executed events: one thread, a
// earlier on the path, not parallel parts of one instruction.
func (x *execution) before(a, b *events.Event) bool {
	return a.Thread >= 0 && a.Thread == b.Thread && x.order[a.ID] < x.order[b.ID] && !events.InParallel(a, b)
}

func (x *execution) forget() {
	for i := range x.state {
		x.state[i] = termUnknown
	}
}

// value computes a term's value under the reads-from chosen so far.
func (x *execution) value(t *events.Term) (outcome.Value, uint8) {
	switch x.state[t.ID] {
	case termKnown:
		return x.val[t.ID], termKnown
	case termBusy:
		return outcome.Value{}, termUndefined
	case termPending, termUndefined:
		return outcome.Value{}, x.state[t.ID]
	}
	x.state[t.ID] = termBusy
	v, st := x.compute(t)
	x.val[t.ID], x.state[t.ID] = v, st
	return v, st
}

func (x *execution) compute(t *events.Term) (outcome.Value, uint8) {
	switch t.Op {
	case events.TermConst:
		return t.Val, termKnown
	case events.TermRead:
		w := x.rf[t.Read.ID]
		if x.nothing[t.Read.ID] {
			return events.Nothing, termKnown
		}
		if w == nil {
			return outcome.Value{}, termPending
		}
		return x.value(w.Val)
	case events.TermPick:
		return x.value(t.Args[1])
	case events.TermIte:
		c, st := x.value(t.Args[0])
		if st != termKnown {
			return outcome.Value{}, st
		}
		if events.Truth(c) {
			return x.value(t.Args[1])
		}
		return x.value(t.Args[2])
	case events.TermUnary:
		a, st := x.value(t.Args[0])
		if st != termKnown {
			return outcome.Value{}, st
		}
		v, err := events.ApplyUnary(t.Un, a)
		if err != nil {
			return outcome.Value{}, termUndefined
		}
		return v, termKnown
	case events.TermBinary:
		if t.Cancels() {
			return outcome.Int(0), termKnown
		}
		a, sa := x.value(t.Args[0])
		b, sb := x.value(t.Args[1])
		switch {
		case sa == termUndefined || sb == termUndefined:
			return outcome.Value{}, termUndefined
		case sa != termKnown || sb != termKnown:
			return outcome.Value{}, termPending
		}
		v, err := events.ApplyBinary(t.Bin, a, b)
		if err != nil {
			return outcome.Value{}, termUndefined
		}
		return v, termKnown
	}
	return outcome.Value{}, termUndefined
}

// refuted tells whether the reads-from chosen so far (for reads[:n])
// already contradicts itself: a read of a write to another address, an
// assumption that fails, or values that cannot be determined.
func (x *execution) refuted(n int) bool {
	x.forget()
	for _, r := range x.reads[:n] {
		if x.nothing[r.ID] {
			continue
		}
		ra, s1 := x.value(r.Addr)
		wa, s2 := x.value(x.rf[r.ID].Addr)
		if s1 == termUndefined || s2 == termUndefined || (s1 == termKnown && s2 == termKnown && ra != wa) {
			return true
		}
	}
	failed := false
	x.segments(func(s *events.Segment) {
		for _, a := range s.Assumes {
			v, st := x.value(a)
			if st == termUndefined || (st == termKnown && !events.Truth(v)) {
				failed = true
			}
		}
	})
	return failed
}

// determined checks a complete reads-from: every address and value of
// the execution is known, reads read writes to their address, and every
// assumption holds. It then groups the writes by address for co.
func (x *execution) determined() bool {
	if x.refuted(len(x.reads)) {
		return false
	}
	for _, e := range x.u.Events {
		if !x.executed[e.ID] || !e.HasLoc() {
			continue
		}
		if _, st := x.value(e.Addr); st != termKnown {
			return false
		}
		if e.Val == nil {
			continue // a mark without value
		}
		if _, st := x.value(e.Val); st != termKnown {
			return false
		}
	}
	ok := true
	x.segments(func(s *events.Segment) {
		for _, a := range s.Assumes {
			if v, st := x.value(a); st != termKnown || !events.Truth(v) {
				ok = false
			}
		}
	})
	if !ok {
		return false
	}
	x.co, x.locs = map[outcome.Value][]*events.Event{}, nil
	ordered := x.writes // initial writes come first
	for _, m := range x.marks {
		if m.InCoherence() {
			ordered = append(ordered[:len(ordered):len(ordered)], m)
		}
	}
	for _, w := range ordered {
		a := x.val[w.Addr.ID]
		if _, seen := x.co[a]; !seen {
			x.locs = append(x.locs, a)
		}
		x.co[a] = append(x.co[a], w)
	}
	return true
}

// candidates calls visit with every candidate execution whose values are
// determined; visit returns false to stop. candidates returns false when
// stopped.
func candidates(u *events.Unfolding, visit func(x *execution) bool) bool {
	return walk(u, func(x *execution) bool { return x.chooseCO(0, visit) })
}

// walk calls visit with every choice of paths and rf whose values are
// determined, before co is chosen; visit returns false to stop.
func walk(u *events.Unfolding, visit func(x *execution) bool) bool {
	live := livePaths(u)
	leaves := make([]*events.Segment, len(u.Roots))
	var paths func(th int) bool
	paths = func(th int) bool {
		if th == len(u.Roots) {
			return newExecution(u, append([]*events.Segment(nil), leaves...)).chooseRF(0, visit)
		}
		for _, leaf := range live[th] {
			leaves[th] = leaf
			if !paths(th + 1) {
				return false
			}
		}
		return true
	}
	return paths(0)
}

// chooseRF picks a write for reads[i:] and visits the choices whose
// values are determined.
func (x *execution) chooseRF(i int, visit func(*execution) bool) bool {
	if i == len(x.reads) {
		if !x.determined() {
			return true
		}
		return visit(x)
	}
	r := x.reads[i]
	defer func() { x.rf[r.ID] = nil }()
	for _, w := range x.writes {
		if x.sameInstr(w, r) {
			continue // an instruction never reads its own write
		}
		x.rf[r.ID] = w
		if x.refuted(i + 1) {
			continue
		}
		if !x.chooseRF(i+1, visit) {
			return false
		}
	}
	x.rf[r.ID] = nil
	if r.IsReceive() {
		// A receive may also get no message (stdlib/msg.cat decides
		// whether the model lets it).
		x.nothing[r.ID] = true
		defer func() { x.nothing[r.ID] = false }()
		if !x.refuted(i+1) && !x.chooseRF(i+1, visit) {
			return false
		}
	}
	return true
}

// chooseCO orders the writes of locs[i:], initial write first, in every
// way.
func (x *execution) chooseCO(i int, visit func(*execution) bool) bool {
	if i == len(x.locs) {
		return visit(x)
	}
	ws := x.co[x.locs[i]]
	first := 0
	if ws[0].Kind == events.KindInit {
		first = 1
	}
	return permute(ws, first, func() bool { return x.chooseCO(i+1, visit) })
}

// permute calls f with every ordering of ws[k:], restoring ws after.
func permute(ws []*events.Event, k int, f func() bool) bool {
	if k >= len(ws)-1 {
		return f()
	}
	for i := k; i < len(ws); i++ {
		ws[k], ws[i] = ws[i], ws[k]
		ok := permute(ws, k+1, f)
		ws[k], ws[i] = ws[i], ws[k]
		if !ok {
			return false
		}
	}
	return true
}

// judgement is one candidate's fate under the model.
type judgement struct {
	consistent bool // every required check holds, and the filter
	holds      bool // the condition
	state      outcome.State
	flags      []string // the flags the execution raises, sorted
	hasFlags   bool     // the model has flags (raised or not)
	// fails are the model's checks it fails, when let through.
	fails []engine.Failure
	// choices counts the choices of the model's "with x from S" with which
	// the execution passes (1 for a model that chooses nothing): herd7
	// counts each as an execution. flags are those of any of them.
	choices int
	// readsCo tells whether the model read co (eval.Algebra.ReadsCo).
	readsCo bool
	// flagSets are the flags each passing choice raises, each sorted and
	// joined with commas.
	flagSets map[string]bool
	// perChoice are the judgements of the passing choices, when the
	// checker captures them: an execution is drawn once per choice.
	perChoice []judgement

	// What the model binds and shows, and the predefined relations, when
	// the checker captures them (see Checker.capture).
	captured *eval.Captured[bool]
	sets     map[string]Set
	rels     map[string]Rel
}

// Checker evaluates a model on single executions of one test.
type Checker struct {
	ctx      context.Context
	model    eval.Model
	test     *litmus.Test
	u        *events.Unfolding
	lay      events.Layout
	procs    map[int]int // process number → thread
	observed []litmus.Loc
	// observedAddrs are the addresses of the observed locations, whose
	// final writes herd7 tells executions apart by (FW).
	observedAddrs []outcome.Value
	capture       bool // keep what the model binds and shows in judgements
	through       bool // let executions the model's checks forbid through (engine.Options.Through)
	// empty are the captured names executions leave out, as no candidate
	// fills them (engine.Options.StaticallyEmpty).
	empty []string
	// chooses says that the model made a choice (with x from S) on an
	// execution judged: Verify then keeps what it found right in verified.
	chooses  bool
	verified map[string]bool
}

// NewChecker is the checker of the model m on the executions of the
// unfolding u of test t.
func NewChecker(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout) *Checker {
	c := &Checker{ctx: ctx, model: m, test: t, u: u, lay: lay, procs: map[int]int{},
		observed: events.ObservedLocations(t), observedAddrs: events.ObservedAddrs(t, lay)}
	for i, p := range t.Program.Procs {
		c.procs[p.ID] = i
	}
	return c
}

// LetThrough makes the checker let through the executions the model's
// checks forbid, when through (engine.Options.Through).
func (c *Checker) LetThrough(through bool) { c.through = through }

// judge evaluates the model, the filter and the condition on an execution
// whose values are determined, once per sequence of the choices the
// model's "with x from S" make, and sums them up.
func (c *Checker) judge(x *execution) (judgement, error) {
	return c.judgeUntil(x, nil)
}

// judgeUntil is judge that stops at the first passing choice whose flags
// (sorted, joined with commas) satisfy enough, when enough is not nil.
func (c *Checker) judgeUntil(x *execution, enough func(flags string) bool) (judgement, error) {
	ch := &chooser{}
	var out judgement
	raised := map[string]bool{}
	for first := true; first || ch.next(); first = false {
		j, err := c.judgeOnce(x, choosingLogic{c: ch})
		if err != nil {
			return j, err
		}
		c.chooses = c.chooses || ch.pos > 0
		if first {
			out = j
			out.choices, out.flags, out.consistent = 0, nil, false
		}
		out.hasFlags = out.hasFlags || j.hasFlags
		if !j.consistent {
			continue
		}
		if !out.consistent {
			out.consistent, out.captured = true, j.captured
		}
		if c.capture {
			out.perChoice = append(out.perChoice, j)
		}
		out.choices++
		if out.flagSets == nil {
			out.flagSets = map[string]bool{}
		}
		out.flagSets[strings.Join(j.flags, ",")] = true
		for _, f := range j.flags {
			if !raised[f] {
				raised[f] = true
				out.flags = append(out.flags, f)
			}
		}
		if enough != nil && enough(strings.Join(j.flags, ",")) {
			break
		}
	}
	sort.Strings(out.flags)
	return out, nil
}

// chooser tries every sequence of choices a model makes, depth first: a
// run makes the choices of picks, and the first of each choice met past
// them; next moves to the following sequence.
type chooser struct {
	picks, arity []int
	pos          int // the choices the current run made
}

// next prepares the run of the next sequence; false when none is left.
func (ch *chooser) next() bool {
	ch.picks, ch.arity = ch.picks[:ch.pos], ch.arity[:ch.pos]
	ch.pos = 0
	for i := len(ch.picks) - 1; i >= 0; i-- {
		if ch.picks[i]+1 < ch.arity[i] {
			ch.picks[i]++
			ch.picks, ch.arity = ch.picks[:i+1], ch.arity[:i+1]
			return true
		}
	}
	return false
}

// choosingLogic is boolLogic that makes a model's choices as its chooser
// says (an eval.Chooser).
type choosingLogic struct {
	boolLogic
	c *chooser
}

func (l choosingLogic) Choose(guard bool, n int) []bool {
	out := make([]bool, n)
	if !guard {
		return out
	}
	ch := l.c
	if ch.pos == len(ch.picks) {
		ch.picks, ch.arity = append(ch.picks, 0), append(ch.arity, n)
	}
	out[ch.picks[ch.pos]] = true
	ch.pos++
	return out
}

// judgeOnce evaluates the model, the filter and the condition on an
// execution whose values are determined, making the model's choices as lg
// says.
func (c *Checker) judgeOnce(x *execution, lg eval.Logic[bool]) (judgement, error) {
	var j judgement
	al := eval.NewAlgebra[bool](lg, x.executed)
	al.DifferentValues = x.differentValues
	sets, rels := x.predefined(al, c.observedAddrs)
	if pairs := x.u.OneEventPairs(); pairs != nil {
		al, sets, rels = al.Fuse(pairs, sets, rels, predef.Reflexive)
	}
	var checks []eval.Check[bool]
	var err error
	if c.capture {
		checks, j.captured, err = eval.RunCapturing(c.ctx, c.model, al, sets, rels)
		j.sets, j.rels = sets, rels
	} else {
		checks, err = eval.Run(c.ctx, c.model, al, sets, rels)
	}
	if err != nil {
		return j, err
	}
	j.readsCo = al.ReadsCo()
	j.consistent = true
	raised := map[string]bool{}
	for i := range checks {
		ch := &checks[i]
		switch ch.Mode {
		case ast.Require, ast.Assert:
			if ch.Literal(al) {
				break
			}
			if !c.through || ch.WellFormed {
				j.consistent = false
				break
			}
			nodes, _ := engine.Witness(ch, func(in bool) bool { return in })
			j.fails = append(j.fails, engine.Failure{Check: ch.ID(), Kind: ch.Kind, Nodes: nodes})
		case ast.Flag:
			j.hasFlags = true
			if ch.Lit {
				raised[ch.Name] = true
			}
		case ast.UndefinedUnless:
			j.hasFlags = true
			if !ch.Lit {
				raised[herdout.UndefFlag] = true
			}
		}
	}
	if c.test.Filter != nil {
		ok, err := c.prop(x, c.test.Filter)
		if err != nil {
			return j, err
		}
		j.consistent = j.consistent && ok
	}
	if j.holds, err = c.prop(x, c.test.Cond); err != nil {
		return j, err
	}
	for name := range raised {
		j.flags = append(j.flags, name)
	}
	sort.Strings(j.flags)
	j.state = c.state(x)
	return j, nil
}

// predefined computes herd's predefined sets and relations of one
// execution, as constant sets and relations.
func (x *execution) predefined(al *eval.Algebra[bool], observed []outcome.Value) (map[string]Set, map[string]Rel) {
	u := x.u
	sets := map[string]Set{}
	set := func(name string, member func(e *events.Event) bool) {
		s := al.EmptySet()
		for _, e := range u.Events {
			if x.executed[e.ID] && member(e) {
				s[e.ID] = true
			}
		}
		sets[name] = s
	}
	set("_", func(*events.Event) bool { return true })
	set("W", (*events.Event).IsWrite)
	set("R", (*events.Event).IsRead)
	set("M", (*events.Event).IsMem)
	set("Exp", (*events.Event).IsMem)
	set("F", func(e *events.Event) bool { return e.Kind == events.KindFence })
	set("IW", func(e *events.Event) bool { return e.Kind == events.KindInit })
	set("I", func(e *events.Event) bool { return e.Kind == events.KindInit }) // herd7's other name of IW
	set("B", func(e *events.Event) bool { return e.Kind == events.KindBranch })
	set("RMW", func(e *events.Event) bool { return e.RMW != nil })
	// Every tag is the set of the events carrying it (a tag named like a
	// base set replaces it).
	tagged := map[string]bool{}
	for _, e := range u.Events {
		for _, tag := range e.Tags {
			if !tagged[tag] {
				tagged[tag] = true
				set(tag, func(e *events.Event) bool { return e.HasTag(tag) })
			}
		}
	}

	add := func(r Rel, a, b *events.Event) { r[eval.PairOf(a.ID, b.ID)] = true }
	names := []string{"id", "po", "int", "ext", "loc", "addr", "data", "ctrl", "pick-addr-dep", "pick-data-dep",
		"pick-ctrl-dep", "rmw", "amo", "rf", "co", "fr", "sm", "iico_data", "iico_ctrl", "rf-reg",
		"same-low-order-bits", "same-tag-loc", "iico_order"}
	rels := map[string]Rel{}
	for _, n := range names {
		rels[n] = Rel{}
	}
	var executed []*events.Event
	for _, e := range u.Events {
		if x.executed[e.ID] {
			executed = append(executed, e)
		}
	}
	pickCtrl := Rel{} // iico_ctrl before the plain dependencies are taken out
	for _, a := range executed {
		for _, b := range executed {
			if a == b {
				add(rels["id"], a, b)
			}
			if x.before(a, b) {
				add(rels["po"], a, b)
			}
			if a == b || (a.Thread >= 0 && a.Thread == b.Thread) {
				add(rels["int"], a, b)
			} else {
				add(rels["ext"], a, b)
			}
			if a.HasLoc() && b.HasLoc() && x.val[a.Addr.ID] == x.val[b.Addr.ID] {
				add(rels["loc"], a, b)
			}
			if a != b && a.IsMem() && b.IsMem() && x.sameInstr(a, b) && a.Depth < b.Depth {
				add(rels["iico_order"], a, b) // the accesses of one instruction, in order
			}
		}
		// A dependency inside one instruction is herd's iico, not a
		// dependency between instructions.
		dep := func(name, intra string, reads []*events.Event) {
			for _, d := range reads {
				if x.sameInstr(d, a) {
					if intra == "iico_data" {
						add(rels[intra], d, a)
					} else {
						add(pickCtrl, d, a)
					}
				} else {
					add(rels[name], d, a)
				}
			}
		}
		dep("addr", "iico_data", a.AddrDeps)
		if a.Kind != events.KindBranch {
			dep("data", "iico_data", a.DataDeps)
		}
		dep("ctrl", "iico_data", a.CtrlDeps)
		dep("pick-addr-dep", "iico_ctrl", a.AddrDeps)
		dep("pick-addr-dep", "iico_ctrl", a.AddrPicks)
		if a.Kind != events.KindBranch {
			dep("pick-data-dep", "iico_ctrl", a.DataDeps)
			dep("pick-data-dep", "iico_ctrl", a.DataPicks)
		}
		dep("pick-ctrl-dep", "iico_ctrl", a.CtrlDeps)
		dep("pick-ctrl-dep", "iico_ctrl", a.CtrlPicks)
		if a.IsRead() && a.RMW != nil && x.executed[a.RMW.ID] {
			add(rels["rmw"], a, a.RMW)
			if events.InAmo(a, a.RMW) {
				add(rels["amo"], a, a.RMW)
			}
		}
		if a.IsMem() {
			add(rels["sm"], a, a)
		}
	}
	for k := range pickCtrl {
		if _, data := rels["iico_data"][k]; !data {
			rels["iico_ctrl"][k] = true
		}
	}
	for _, r := range x.reads {
		if !x.nothing[r.ID] {
			add(rels["rf"], x.rf[r.ID], r)
		}
	}
	fw := al.EmptySet()
	for _, a := range x.locs {
		ws := x.co[a]
		for i, w := range ws {
			for _, v := range ws[i+1:] {
				add(rels["co"], w, v)
			}
		}
		if slices.Contains(observed, a) {
			// The co-last real write: marks co orders (lock events) are
			// no writes, and herd7's own co never orders them.
			for i := len(ws) - 1; i >= 0; i-- {
				if ws[i].IsWrite() {
					fw[ws[i].ID] = true
					break
				}
			}
		}
	}
	sets["FW"] = fw
	for _, r := range x.reads {
		w := x.rf[r.ID]
		if x.nothing[r.ID] {
			continue
		}
		ws := x.co[x.val[w.Addr.ID]]
		after := false
		for _, v := range ws {
			if after {
				add(rels["fr"], r, v)
			}
			after = after || v == w
		}
	}
	rels["si"], rels["same-instance"] = rels["id"], rels["id"]
	sameInstr := Rel{}
	for _, a := range executed {
		for _, b := range executed {
			if a == b || x.sameInstr(a, b) {
				add(sameInstr, a, b)
			}
		}
	}
	rels["same-instr"] = sameInstr
	if u.RegisterEvents {
		// herd's event structure, as the unfolding recorded it.
		iicoData, iicoCtrl, rfReg := Rel{}, Rel{}, Rel{}
		for _, a := range executed {
			for _, d := range a.IicoData {
				add(iicoData, d, a)
			}
			for _, d := range a.IicoCtrl {
				add(iicoCtrl, d, a)
			}
			if a.RegFrom != nil {
				add(rfReg, a.RegFrom, a)
			}
		}
		rels["iico_data"], rels["iico_ctrl"], rels["rf-reg"] = iicoData, iicoCtrl, rfReg
		rels["si"], rels["same-instance"] = sameInstr, sameInstr
	}
	return sets, rels
}

// final is a location's final value: a register's at the end of its
// thread's path, a memory cell's as its co-last write wrote it.
func (c *Checker) final(x *execution, loc litmus.Loc) (outcome.Value, bool) {
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := c.procs[loc.Proc]
		if !ok {
			return outcome.Value{}, false
		}
		t, ok := x.leaves[th].Regs[loc.Name]
		if !ok {
			return outcome.Int(0), true
		}
		v, st := x.value(t)
		return v, st == termKnown
	case litmus.GlobalLoc, litmus.IndexLoc:
		a := outcome.Addr(loc.Name)
		if loc.Kind == litmus.IndexLoc {
			a = c.lay.Cell(loc.Name, loc.Index)
		}
		ws := x.co[a]
		for i := len(ws) - 1; i >= 0; i-- {
			if ws[i].IsWrite() { // marks ordered by co carry no value
				return x.val[ws[i].Val.ID], true
			}
		}
		return outcome.Value{}, false
	}
	return outcome.Value{}, false
}

// state reads the observed locations' final values.
func (c *Checker) state(x *execution) outcome.State {
	st := make(outcome.State, 0, len(c.observed))
	for i := range c.observed {
		loc := &c.observed[i]
		if n, isArray := c.lay.Length[loc.Name]; isArray && loc.Kind == litmus.GlobalLoc {
			b := outcome.Binding{Loc: loc, Type: c.lay.TypeOf(*loc), Array: make([]outcome.Value, n)}
			for i := range b.Array {
				b.Array[i], _ = c.final(x, litmus.Loc{Kind: litmus.IndexLoc, Name: loc.Name, Index: i})
			}
			st = append(st, b)
			continue
		}
		v, _ := c.final(x, *loc)
		st = append(st, outcome.Binding{Loc: loc, Type: c.lay.TypeOf(*loc), Value: v})
	}
	return st
}

// prop evaluates a condition on an execution.
func (c *Checker) prop(x *execution, p litmus.Prop) (bool, error) {
	switch p := p.(type) {
	case litmus.Bool:
		return p.Value, nil
	case litmus.Not:
		v, err := c.prop(x, p.X)
		return !v, err
	case litmus.And:
		a, err := c.prop(x, p.X)
		if err != nil {
			return false, err
		}
		b, err := c.prop(x, p.Y)
		return a && b, err
	case litmus.Or:
		a, err := c.prop(x, p.X)
		if err != nil {
			return false, err
		}
		b, err := c.prop(x, p.Y)
		return a || b, err
	case litmus.Implies:
		a, err := c.prop(x, p.X)
		if err != nil {
			return false, err
		}
		b, err := c.prop(x, p.Y)
		return !a || b, err
	case litmus.Eq:
		typ := c.lay.TypeOf(p.Loc)
		if p.Value.Kind == litmus.ArrayValue && p.Loc.Kind == litmus.GlobalLoc {
			for i, e := range p.Value.Elems {
				want, err := c.lay.ValueOf(e)
				if err != nil {
					return false, err
				}
				got, ok := c.final(x, litmus.Loc{Kind: litmus.IndexLoc, Name: p.Loc.Name, Index: i})
				if !ok || outcome.Cast(typ, got) != outcome.Cast(typ, want) {
					return false, nil
				}
			}
			return true, nil
		}
		want, err := c.lay.ValueOf(p.Value)
		if err != nil {
			return false, err
		}
		if p.Loc.Kind == litmus.RegLoc {
			if _, ok := c.procs[p.Loc.Proc]; !ok {
				return false, source.Errorf(p.Loc.Pos, "there is no thread P%d", p.Loc.Proc)
			}
		}
		got, ok := c.final(x, p.Loc)
		return ok && outcome.Cast(typ, got) == outcome.Cast(typ, want), nil
	case litmus.LocEq:
		// herd compares the two final values (0:r1=0:r4), each read as
		// its own type.
		if err := c.validate(p); err != nil {
			return false, err
		}
		vx, okX := c.final(x, p.X)
		vy, okY := c.final(x, p.Y)
		return okX && okY && outcome.Cast(c.lay.TypeOf(p.X), vx) == outcome.Cast(c.lay.TypeOf(p.Y), vy), nil
	}
	return false, fmt.Errorf("unsupported condition %s", litmus.FormatProp(p))
}

// validate reports the errors prop would report on some execution.
func (c *Checker) validate(p litmus.Prop) error {
	switch p := p.(type) {
	case nil, litmus.Bool:
		return nil
	case litmus.Not:
		return c.validate(p.X)
	case litmus.And:
		return c.validateBoth(p.X, p.Y)
	case litmus.Or:
		return c.validateBoth(p.X, p.Y)
	case litmus.Implies:
		return c.validateBoth(p.X, p.Y)
	case litmus.Eq:
		vals := []litmus.Value{p.Value}
		if p.Value.Kind == litmus.ArrayValue && p.Loc.Kind == litmus.GlobalLoc {
			vals = p.Value.Elems
		}
		for _, v := range vals {
			if _, err := c.lay.ValueOf(v); err != nil {
				return err
			}
		}
		if _, ok := c.procs[p.Loc.Proc]; p.Loc.Kind == litmus.RegLoc && !ok {
			return source.Errorf(p.Loc.Pos, "there is no thread P%d", p.Loc.Proc)
		}
		return nil
	case litmus.LocEq:
		for _, l := range []litmus.Loc{p.X, p.Y} {
			if _, ok := c.procs[l.Proc]; l.Kind == litmus.RegLoc && !ok {
				return source.Errorf(l.Pos, "there is no thread P%d", l.Proc)
			}
		}
		return nil
	}
	return fmt.Errorf("unsupported condition %s", litmus.FormatProp(p))
}

func (c *Checker) validateBoth(x, y litmus.Prop) error {
	if err := c.validate(x); err != nil {
		return err
	}
	return c.validate(y)
}

// Check decides test t, unfolded into u (after its value analysis), under
// the model m.
func Check(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout, opt engine.Options) (*outcome.Outcome, error) {
	c := NewChecker(ctx, m, t, u, lay)
	c.capture, c.through, c.empty = opt.Showing(), opt.Through, opt.StaticallyEmpty
	// Refuse a condition purr cannot evaluate even when no execution
	// would evaluate it.
	for _, p := range []litmus.Prop{t.Filter, t.Cond} {
		if err := c.validate(p); err != nil {
			return nil, err
		}
	}
	if err := refuseHazards(t, u); err != nil {
		return nil, err
	}
	tally := engine.NewTally(t, opt, u.Cut)
	var failure error
	classes := map[string]bool{}
	// With marks among the events co orders, the final writes do not
	// determine the final values: co tells executions apart.
	marksInCo := slices.ContainsFunc(u.Events, func(e *events.Event) bool { return e.InCoherence() && !e.IsWrite() })
	complete := candidates(u, func(x *execution) bool {
		if err := ctx.Err(); err != nil {
			failure = err
			return false
		}
		j, err := c.judge(x)
		if err != nil {
			failure = err
			return false
		}
		if failure = tally.RefuseFlags(j.hasFlags); failure != nil {
			return false
		}
		if !j.consistent {
			return true
		}
		tally.CountsCo(engine.CountsCo(opt.Distinct, j.readsCo || marksInCo))
		// herd7 tells executions apart by paths, rf and co, or, for a
		// model that builds no co of its own from the engine's, by the
		// final writes of the observed locations instead of co.
		var key string
		switch {
		case opt.Distinct != nil:
			key = x.classKey(opt.Distinct)
		case !j.readsCo && !marksInCo:
			key = x.classKey([]string{"rf"}) + c.finalWrites(x)
		}
		if key != "" {
			if classes[key] {
				return true
			}
			classes[key] = true
		}
		if tally.Full() {
			return false
		}
		if opt.Distinct != nil {
			// --distinct counts classes of executions, whatever the choices.
			j.choices, j.perChoice = 1, j.perChoice[:min(len(j.perChoice), 1)]
		}
		state := func() outcome.State { return j.state }
		first := tally.Count(j.choices, j.holds, []byte(outcome.StateKey(j.state)), state, j.flags)
		if c.capture {
			tally.Shown(j.captured.Shown)
			if tally.Selects(j.holds) {
				for i, one := range j.perChoice {
					build := func(brief bool) outcome.Execution { return c.execution(x, one, first+i, opt.Capture, brief) }
					if !tally.Keep(outcome.Visited{Index: first + i, Holds: one.holds, State: one.state, Flags: one.flags, Build: build}) {
						return false
					}
				}
			}
		}
		return !tally.Decided(j.holds)
	})
	if failure != nil {
		return nil, failure
	}
	return tally.Outcome(complete), nil
}

// refuseHazards refuses the test when a candidate execution, whatever
// the model, does what herd7 stops on: a write takes a number for its
// address (events.NumericAddressWrites), or an instruction computes an
// operation that has no value on the addresses it gets
// (events.IllegalOps). Candidates are herd7's: any pairing of reads with
// writes, but an instruction's own (herd7's -optace iico).
func refuseHazards(t *litmus.Test, u *events.Unfolding) error {
	ws, ops := u.NumericAddressWrites(), u.IllegalOps()
	if len(ws) == 0 && len(ops) == 0 {
		return nil
	}
	var refusal error
	walk(u, func(x *execution) bool {
		for _, w := range ws {
			if !x.executed[w.ID] {
				continue
			}
			if v, _ := x.value(w.Addr); !v.IsAddr() {
				refusal = events.NonSymbolicWrite(t, w, v)
				return false
			}
		}
		executed := map[*events.Segment]bool{}
		x.segments(func(s *events.Segment) { executed[s] = true })
		for _, op := range ops {
			if !executed[op.Seg] {
				continue
			}
			args := make([]outcome.Value, len(op.Term.Args))
			for a, arg := range op.Term.Args {
				args[a], _ = x.value(arg)
			}
			var err error
			if len(args) == 1 {
				_, err = events.ApplyUnary(op.Term.Un, args[0])
			} else {
				_, err = events.ApplyBinary(op.Term.Bin, args[0], args[1])
			}
			if events.OnAddress(err) {
				refusal = events.IllegalOp(t, op, args)
				return false
			}
		}
		return true
	})
	return refusal
}

// classKey identifies the class of executions that agree with x on its
// paths and the relations named (rf, co).
func (x *execution) classKey(rels []string) string {
	var b strings.Builder
	for _, leaf := range x.leaves {
		fmt.Fprintf(&b, "%d,", leaf.ID)
	}
	for _, rel := range rels {
		b.WriteString(rel + ":")
		switch rel {
		case "rf":
			for _, r := range x.reads {
				if x.nothing[r.ID] {
					fmt.Fprintf(&b, "%d<-,", r.ID)
				} else {
					fmt.Fprintf(&b, "%d<%d,", r.ID, x.rf[r.ID].ID)
				}
			}
		case "co":
			for _, a := range x.locs {
				for _, w := range x.co[a] {
					fmt.Fprintf(&b, "%d,", w.ID)
				}
				b.WriteString(";")
			}
		}
	}
	return b.String()
}

// finalWrites identifies the co-last writes of the observed addresses.
func (c *Checker) finalWrites(x *execution) string {
	var b strings.Builder
	b.WriteString("final:")
	for _, a := range c.observedAddrs {
		if ws := x.co[a]; len(ws) > 0 {
			fmt.Fprintf(&b, "%d,", ws[len(ws)-1].ID)
		} else {
			b.WriteString("-,")
		}
	}
	return b.String()
}

// differentValues tells whether events a and b carry different values
// (an event without a value differs from all).
func (x *execution) differentValues(a, b int) bool {
	ea, eb := x.u.Events[a], x.u.Events[b]
	if ea.Val == nil || eb.Val == nil {
		return true
	}
	return x.val[ea.Val.ID] != x.val[eb.Val.ID]
}

// PredefinedNames are the names of the sets and relations the explicit
// engine computes on u's first candidate execution (ok is false when it
// has none), for the test that holds every engine to predef's table.
func PredefinedNames(u *events.Unfolding) (sets, rels []string, ok bool) {
	candidates(u, func(x *execution) bool {
		s, r := x.predefined(eval.NewAlgebra[bool](boolLogic{}, x.executed), nil)
		sets, rels, ok = slices.Sorted(maps.Keys(s)), slices.Sorted(maps.Keys(r)), true
		return false
	})
	return sets, rels, ok
}

// execution describes a consistent candidate for people to read.
func (c *Checker) execution(x *execution, j judgement, index int, capture []string, brief bool) outcome.Execution {
	var occ []engine.Occurrence
	for _, e := range c.u.Events {
		if x.executed[e.ID] {
			occ = append(occ, engine.Occur(e, func(t *events.Term) outcome.Value { return x.val[t.ID] }))
		}
	}
	b := engine.NewBuilder(c.test, c.lay, occ)
	captured := j.captured
	if brief {
		captured, capture = nil, nil
	}
	engine.LeaveOut(captured, c.empty)
	engine.AddRelations(b, j.rels, j.sets, captured, capture, func(in bool) bool { return in })
	for _, f := range j.fails {
		b.Fail(f)
	}
	return b.Finish(index, j.state, j.holds, j.flags)
}
