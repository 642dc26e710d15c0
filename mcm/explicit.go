package mcm

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/sat"
)

// The explicit engine decides a test as herd7 does: it enumerates the
// candidate executions one by one (a path per thread, a write for every
// read, a coherence order per location), computes their values
// concretely, and evaluates the model on each over the algebra with
// constant literals. It shares the unfolding, the evaluator and the
// algebra with the SAT engine, and nothing of the encoding of paths,
// values, rf and co: it is the oracle the SAT engine is tested against.

// The engines Options.Engine names. There is no automatic choice:
// BenchmarkEngines (explicit_test.go) finds the explicit engine slower
// from two candidate executions on (CoWW under sc: 0.17 ms against
// 0.16 ms; SB's 4: 0.88/0.35; SB+swps's 36 under aarch64: 6.1/0.68), and
// ahead by at most 0.1 ms on tests of one candidate, which decide nothing.
const (
	EngineSAT      = "sat"
	EngineExplicit = "explicit"
)

// useExplicit tells whether the options choose the explicit engine.
func useExplicit(opt Options) (bool, error) {
	switch opt.Engine {
	case "", EngineSAT:
		return false, nil
	case EngineExplicit:
		return true, nil
	}
	return false, fmt.Errorf("unknown engine %q (sat or explicit)", opt.Engine)
}

// explicitCandidates estimates, from the value analysis, how many
// candidate executions the explicit engine would enumerate: paths × rf
// choices × coherence orders. It over-approximates (every read of every
// path, every write that may touch a location).
func explicitCandidates(u *Unfolding) float64 {
	n := 1.0
	for _, leaves := range livePaths(u) {
		n *= math.Max(1, float64(len(leaves)))
	}
	var writes []*Event
	for _, e := range u.Events {
		if e.IsWrite() {
			writes = append(writes, e)
		}
	}
	for _, r := range u.Events {
		if !r.IsRead() {
			continue
		}
		k := 0
		for _, w := range writes {
			if mayAlias(w.Addr, r.Addr) && mayCoexist(w, r) {
				k++
			}
		}
		n *= math.Max(1, float64(k))
	}
	perLoc := map[Value]int{}
	for _, w := range writes {
		if w.Kind == KindInit {
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
func livePaths(u *Unfolding) [][]*Segment {
	out := make([][]*Segment, len(u.Roots))
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
	u        *Unfolding
	leaves   []*Segment         // per thread, where its path ends
	executed []bool             // per event
	order    []int              // per executed thread event: its position along its path
	reads    []*Event           // the executed reads, thread by thread in program order
	writes   []*Event           // the executed writes, initial writes first
	rf       []*Event           // per event: the write a read reads from
	co       map[Value][]*Event // per address, its writes in coherence order
	locs     []Value            // the addresses of co, in a fixed order

	val   []Value // per term, memoised
	state []uint8 // per term: one of the term states below
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
func newExecution(u *Unfolding, leaves []*Segment) *execution {
	x := &execution{u: u, leaves: leaves, executed: make([]bool, len(u.Events)), order: make([]int, len(u.Events)),
		rf: make([]*Event, len(u.Events)), val: make([]Value, len(u.Terms)), state: make([]uint8, len(u.Terms))}
	for _, e := range u.Events {
		if e.Kind == KindInit {
			x.executed[e.ID] = true
			x.writes = append(x.writes, e)
		}
	}
	for _, leaf := range leaves {
		var segs []*Segment
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
				}
			}
		}
	}
	return x
}

// segments calls f with every segment of the execution's paths.
func (x *execution) segments(f func(*Segment)) {
	for _, leaf := range x.leaves {
		for s := leaf; s != nil; s = s.Parent {
			f(s)
		}
	}
}

// sameInstr tells whether two executed events come from one instruction
// instance of one thread.
func (x *execution) sameInstr(a, b *Event) bool {
	return a.Thread >= 0 && a.Thread == b.Thread && a.Instr == b.Instr
}

// before is program order between two executed events: one thread, a
// earlier on the path, another instruction.
func (x *execution) before(a, b *Event) bool {
	return a.Thread >= 0 && a.Thread == b.Thread && x.order[a.ID] < x.order[b.ID] && a.Instr != b.Instr
}

func (x *execution) forget() {
	for i := range x.state {
		x.state[i] = termUnknown
	}
}

// value computes a term's value under the reads-from chosen so far.
func (x *execution) value(t *Term) (Value, uint8) {
	switch x.state[t.ID] {
	case termKnown:
		return x.val[t.ID], termKnown
	case termBusy:
		return Value{}, termUndefined
	case termPending, termUndefined:
		return Value{}, x.state[t.ID]
	}
	x.state[t.ID] = termBusy
	v, st := x.compute(t)
	x.val[t.ID], x.state[t.ID] = v, st
	return v, st
}

func (x *execution) compute(t *Term) (Value, uint8) {
	switch t.op {
	case termConst:
		return t.val, termKnown
	case termRead:
		w := x.rf[t.read.ID]
		if w == nil {
			return Value{}, termPending
		}
		return x.value(w.Val)
	case termPick:
		return x.value(t.args[1])
	case termIte:
		c, st := x.value(t.args[0])
		if st != termKnown {
			return Value{}, st
		}
		if truth(c) {
			return x.value(t.args[1])
		}
		return x.value(t.args[2])
	case termUnary:
		a, st := x.value(t.args[0])
		if st != termKnown {
			return Value{}, st
		}
		v, err := applyUnary(t.un, a)
		if err != nil {
			return Value{}, termUndefined
		}
		return v, termKnown
	case termBinary:
		if t.cancels() {
			return Int(0), termKnown
		}
		a, sa := x.value(t.args[0])
		b, sb := x.value(t.args[1])
		switch {
		case sa == termUndefined || sb == termUndefined:
			return Value{}, termUndefined
		case sa != termKnown || sb != termKnown:
			return Value{}, termPending
		}
		v, err := applyBinary(t.bin, a, b)
		if err != nil {
			return Value{}, termUndefined
		}
		return v, termKnown
	}
	return Value{}, termUndefined
}

// refuted tells whether the reads-from chosen so far (for reads[:n])
// already contradicts itself: a read of a write to another address, an
// assumption that fails, or values that cannot be determined.
func (x *execution) refuted(n int) bool {
	x.forget()
	for _, r := range x.reads[:n] {
		ra, s1 := x.value(r.Addr)
		wa, s2 := x.value(x.rf[r.ID].Addr)
		if s1 == termUndefined || s2 == termUndefined || (s1 == termKnown && s2 == termKnown && ra != wa) {
			return true
		}
	}
	failed := false
	x.segments(func(s *Segment) {
		for _, a := range s.Assumes {
			v, st := x.value(a)
			if st == termUndefined || (st == termKnown && !truth(v)) {
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
		if !x.executed[e.ID] || !e.IsMem() {
			continue
		}
		if _, st := x.value(e.Addr); st != termKnown {
			return false
		}
		if _, st := x.value(e.Val); st != termKnown {
			return false
		}
	}
	ok := true
	x.segments(func(s *Segment) {
		for _, a := range s.Assumes {
			if v, st := x.value(a); st != termKnown || !truth(v) {
				ok = false
			}
		}
	})
	if !ok {
		return false
	}
	x.co, x.locs = map[Value][]*Event{}, nil
	for _, w := range x.writes { // initial writes come first
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
func candidates(u *Unfolding, visit func(x *execution) bool) bool {
	live := livePaths(u)
	leaves := make([]*Segment, len(u.Roots))
	var paths func(th int) bool
	paths = func(th int) bool {
		if th == len(u.Roots) {
			return newExecution(u, append([]*Segment(nil), leaves...)).chooseRF(0, visit)
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

// chooseRF picks a write for reads[i:], then the coherence orders.
func (x *execution) chooseRF(i int, visit func(*execution) bool) bool {
	if i == len(x.reads) {
		if !x.determined() {
			return true
		}
		return x.chooseCO(0, visit)
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
	if ws[0].Kind == KindInit {
		first = 1
	}
	return permute(ws, first, func() bool { return x.chooseCO(i+1, visit) })
}

// permute calls f with every ordering of ws[k:], restoring ws after.
func permute(ws []*Event, k int, f func() bool) bool {
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
	state      State
	flags      []string // the flags the execution raises, sorted
}

// concreteChecker evaluates a model on single executions of one test.
type concreteChecker struct {
	ctx      context.Context
	model    *cat.Model
	test     *litmus.Test
	opt      Options
	u        *Unfolding
	lay      layout
	procs    map[int]int // process number → thread
	observed []litmus.Loc
	s        *sat.Solver // only ever sees constants
}

func newConcreteChecker(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options, u *Unfolding, lay layout) *concreteChecker {
	c := &concreteChecker{ctx: ctx, model: m, test: t, opt: opt, u: u, lay: lay, procs: map[int]int{},
		observed: observedLocations(t), s: sat.New()}
	for i, p := range t.Program.Procs {
		c.procs[p.ID] = i
	}
	return c
}

// judge evaluates the model, the filter and the condition on an execution
// whose values are determined.
func (c *concreteChecker) judge(x *execution) (judgement, error) {
	var j judgement
	exec := make([]sat.Lit, len(x.u.Events))
	for i, ok := range x.executed {
		exec[i] = constLit(ok)
	}
	al := &algebra{s: c.s, exec: exec}
	sets, rels := x.predefined(al)
	top, err := predefinedEnv(al, sets, rels)
	if err != nil {
		return j, err
	}
	prelude, wf, err := library()
	if err != nil {
		return j, fmt.Errorf("purr's library: %v", err)
	}
	ev := &evaluator{ctx: c.ctx, al: al, variants: map[string]bool{}, included: map[string]bool{}, co: rels["co"]}
	for _, v := range c.opt.Variants {
		ev.variants[v] = true
	}
	sc, err := ev.run(prelude.Stmts, top)
	if err != nil {
		return j, err
	}
	if _, err := ev.run(c.model.Stmts, sc); err != nil {
		return j, err
	}
	if !c.opt.skipWellFormed {
		if _, err := ev.run(wf.Stmts, sc); err != nil {
			return j, err
		}
	}
	j.consistent = true
	raised := map[string]bool{}
	for i := range ev.checks {
		ch := &ev.checks[i]
		switch ch.mode {
		case cat.Require, cat.Assert:
			if ch.literal(al) != sat.True {
				j.consistent = false
			}
		case cat.Flag:
			if ch.lit == sat.True {
				raised[ch.name] = true
			}
		case cat.UndefinedUnless:
			if ch.lit != sat.True {
				raised[herdout.UndefFlag] = true
			}
		}
	}
	if c.s.NumVars() != 1 {
		return j, fmt.Errorf("internal error: the concrete algebra made a variable")
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

func constLit(b bool) sat.Lit {
	if b {
		return sat.True
	}
	return sat.False
}

// predefined computes herd's predefined sets and relations of one
// execution, as constant sets and relations.
func (x *execution) predefined(al *algebra) (map[string]Set, map[string]Rel) {
	u := x.u
	sets := map[string]Set{}
	set := func(name string, member func(e *Event) bool) {
		s := al.emptySet()
		for _, e := range u.Events {
			if x.executed[e.ID] && member(e) {
				s[e.ID] = sat.True
			}
		}
		sets[name] = s
	}
	set("_", func(*Event) bool { return true })
	set("W", (*Event).IsWrite)
	set("R", (*Event).IsRead)
	set("M", (*Event).IsMem)
	set("Exp", (*Event).IsMem)
	set("F", func(e *Event) bool { return e.Kind == KindFence })
	set("IW", func(e *Event) bool { return e.Kind == KindInit })
	set("B", func(e *Event) bool { return e.Kind == KindBranch })
	set("RMW", func(e *Event) bool { return e.RMW != nil })
	// Every tag is the set of the events carrying it (a tag named like a
	// base set replaces it).
	tagged := map[string]bool{}
	for _, e := range u.Events {
		for _, tag := range e.Tags {
			if !tagged[tag] {
				tagged[tag] = true
				set(tag, func(e *Event) bool { return e.HasTag(tag) })
			}
		}
	}

	add := func(r Rel, a, b *Event) { r[pair{int32(a.ID), int32(b.ID)}] = sat.True }
	names := []string{"id", "po", "int", "ext", "loc", "addr", "data", "ctrl", "pick-addr-dep", "pick-data-dep",
		"pick-ctrl-dep", "rmw", "amo", "rf", "co", "fr", "sm", "iico_data", "iico_ctrl", "rf-reg",
		"same-low-order-bits", "same-tag-loc", "iico_order"}
	rels := map[string]Rel{}
	for _, n := range names {
		rels[n] = Rel{}
	}
	var events []*Event
	for _, e := range u.Events {
		if x.executed[e.ID] {
			events = append(events, e)
		}
	}
	pickCtrl := Rel{} // iico_ctrl before the plain dependencies are taken out
	for _, a := range events {
		for _, b := range events {
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
			if a.IsMem() && b.IsMem() && x.val[a.Addr.ID] == x.val[b.Addr.ID] {
				add(rels["loc"], a, b)
			}
			if a != b && a.IsMem() && b.IsMem() && x.sameInstr(a, b) && a.Depth < b.Depth {
				add(rels["iico_order"], a, b) // the accesses of one instruction, in order
			}
		}
		// A dependency inside one instruction is herd's iico, not a
		// dependency between instructions.
		dep := func(name, intra string, reads []*Event) {
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
		if a.Kind != KindBranch {
			dep("data", "iico_data", a.DataDeps)
		}
		dep("ctrl", "iico_data", a.CtrlDeps)
		dep("pick-addr-dep", "iico_ctrl", a.AddrDeps)
		dep("pick-addr-dep", "iico_ctrl", a.AddrPicks)
		if a.Kind != KindBranch {
			dep("pick-data-dep", "iico_ctrl", a.DataDeps)
			dep("pick-data-dep", "iico_ctrl", a.DataPicks)
		}
		dep("pick-ctrl-dep", "iico_ctrl", a.CtrlDeps)
		dep("pick-ctrl-dep", "iico_ctrl", a.CtrlPicks)
		if a.IsRead() && a.RMW != nil && x.executed[a.RMW.ID] {
			add(rels["rmw"], a, a.RMW)
			if !a.RMW.HasTag("X") {
				add(rels["amo"], a, a.RMW)
			}
		}
		if a.IsMem() {
			add(rels["sm"], a, a)
		}
	}
	for k := range pickCtrl {
		if _, data := rels["iico_data"][k]; !data {
			rels["iico_ctrl"][k] = sat.True
		}
	}
	for _, r := range x.reads {
		add(rels["rf"], x.rf[r.ID], r)
	}
	fw := al.emptySet()
	for _, a := range x.locs {
		ws := x.co[a]
		for i, w := range ws {
			for _, v := range ws[i+1:] {
				add(rels["co"], w, v)
			}
		}
		fw[ws[len(ws)-1].ID] = sat.True
	}
	sets["FW"] = fw
	for _, r := range x.reads {
		w := x.rf[r.ID]
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
	return sets, rels
}

// final is a location's final value: a register's at the end of its
// thread's path, a memory cell's as its co-last write wrote it.
func (c *concreteChecker) final(x *execution, loc litmus.Loc) (Value, bool) {
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := c.procs[loc.Proc]
		if !ok {
			return Value{}, false
		}
		t, ok := x.leaves[th].Regs[loc.Name]
		if !ok {
			return Int(0), true
		}
		v, st := x.value(t)
		return v, st == termKnown
	case litmus.GlobalLoc, litmus.IndexLoc:
		a := Addr(loc.Name)
		if loc.Kind == litmus.IndexLoc {
			a = c.lay.cell(loc.Name, loc.Index)
		}
		ws := x.co[a]
		if len(ws) == 0 {
			return Value{}, false
		}
		return x.val[ws[len(ws)-1].Val.ID], true
	}
	return Value{}, false
}

// state reads the observed locations' final values.
func (c *concreteChecker) state(x *execution) State {
	st := make(State, 0, len(c.observed))
	for _, loc := range c.observed {
		if n, isArray := c.lay.length[loc.Name]; isArray && loc.Kind == litmus.GlobalLoc {
			b := Binding{Loc: loc, Type: c.lay.typeOf(loc), Array: make([]Value, n)}
			for i := range b.Array {
				b.Array[i], _ = c.final(x, litmus.Loc{Kind: litmus.IndexLoc, Name: loc.Name, Index: i})
			}
			st = append(st, b)
			continue
		}
		v, _ := c.final(x, loc)
		st = append(st, Binding{Loc: loc, Type: c.lay.typeOf(loc), Value: v})
	}
	return st
}

// prop evaluates a condition on an execution.
func (c *concreteChecker) prop(x *execution, p litmus.Prop) (bool, error) {
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
		typ := c.lay.typeOf(p.Loc)
		if p.Value.Kind == litmus.ArrayValue && p.Loc.Kind == litmus.GlobalLoc {
			for i, e := range p.Value.Elems {
				want, err := c.lay.value(e)
				if err != nil {
					return false, err
				}
				got, ok := c.final(x, litmus.Loc{Kind: litmus.IndexLoc, Name: p.Loc.Name, Index: i})
				if !ok || cast(typ, got) != cast(typ, want) {
					return false, nil
				}
			}
			return true, nil
		}
		want, err := c.lay.value(p.Value)
		if err != nil {
			return false, err
		}
		if p.Loc.Kind == litmus.RegLoc {
			if _, ok := c.procs[p.Loc.Proc]; !ok {
				return false, fmt.Errorf("%s: there is no thread P%d", p.Loc.Pos, p.Loc.Proc)
			}
		}
		got, ok := c.final(x, p.Loc)
		return ok && cast(typ, got) == cast(typ, want), nil
	}
	return false, fmt.Errorf("unsupported condition %s", litmus.FormatProp(p))
}

// validate reports the errors prop would report on some execution.
func (c *concreteChecker) validate(p litmus.Prop) error {
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
			if _, err := c.lay.value(v); err != nil {
				return err
			}
		}
		if _, ok := c.procs[p.Loc.Proc]; p.Loc.Kind == litmus.RegLoc && !ok {
			return fmt.Errorf("%s: there is no thread P%d", p.Loc.Pos, p.Loc.Proc)
		}
		return nil
	}
	return fmt.Errorf("unsupported condition %s", litmus.FormatProp(p))
}

func (c *concreteChecker) validateBoth(x, y litmus.Prop) error {
	if err := c.validate(x); err != nil {
		return err
	}
	return c.validate(y)
}

// checkExplicit decides a test with the explicit engine.
func checkExplicit(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options, u *Unfolding, lay layout) (*Outcome, error) {
	c := newConcreteChecker(ctx, m, t, opt, u, lay)
	// Refuse a condition purr cannot evaluate even when no execution
	// would evaluate it.
	for _, p := range []litmus.Prop{t.Filter, t.Cond} {
		if err := c.validate(p); err != nil {
			return nil, err
		}
	}
	out := &Outcome{Loop: u.Cut}
	seen := map[string]bool{}
	raised := map[string]bool{}
	var failure error
	count := 0
	out.Complete = candidates(u, func(x *execution) bool {
		if err := ctx.Err(); err != nil {
			failure = err
			return false
		}
		j, err := c.judge(x)
		if err != nil {
			failure = err
			return false
		}
		if !j.consistent {
			return true
		}
		if opt.MaxExecutions > 0 && count == opt.MaxExecutions {
			return false
		}
		count++
		if j.holds {
			out.Positive++
		} else {
			out.Negative++
		}
		if key := stateKey(j.state); !seen[key] {
			seen[key] = true
			out.States = append(out.States, j.state)
		}
		for _, f := range j.flags {
			if !raised[f] {
				raised[f] = true
				out.Flags = append(out.Flags, f)
			}
		}
		return !(opt.Speedcheck && decisive(t.Quant, j.holds))
	})
	if failure != nil {
		return nil, failure
	}
	sort.Strings(out.Flags)
	return out, nil
}
