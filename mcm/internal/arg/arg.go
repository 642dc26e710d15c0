package arg

import (
	"context"
	"fmt"
	"slices"

	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/xcfa"
)

// Limits bound an exploration.
type Limits struct {
	// States bounds the abstract states of all graphs: past it, Explore
	// gives up.
	States int
	// Widen is the number of states one control location keeps apart:
	// past it, a new state there is joined with them (registers they
	// disagree on become top), so that a counter no branch bounds ends.
	Widen int
	// Values bounds the values of one location: past it, the location
	// holds top.
	Values int
}

// DefaultLimits are generous for litmus tests: their graphs have tens of
// states.
var DefaultLimits = Limits{States: 200_000, Widen: 64, Values: 64}

// Graph is an exploration's result: the values the writes of every
// thread's graph may write, per location (the abstract execution graph's
// writes), and the size of the graphs.
type Graph struct {
	cells map[outcome.Value]*cell
	// States counts the abstract states explored, all threads together.
	States int
}

// cell is what the writes to one location may write.
type cell struct {
	vals []outcome.Value // sorted (events.CompareValues), the initial value first among them
	top  bool            // any value
	from []outcome.Value // when top: the havocked locations it comes from (nil: none a refinement can track)
	// readers are the tracked reads of the location met so far, which
	// each new value revisits.
	readers []reader
}

// Values returns what a read of the location at addr may read: its values
// or top, with the havocked locations top comes from. A location the
// test does not declare is top (the engines give its reads no value;
// nothing is lost by allowing all).
func (g *Graph) Values(addr outcome.Value) (vals []outcome.Value, top bool, from []outcome.Value) {
	c := g.cells[addr]
	if c == nil {
		return nil, true, nil
	}
	return c.vals, c.top, c.from
}

// value is an abstract value: a concrete one, or top with the havocked
// locations it was computed from.
type value struct {
	v    outcome.Value
	top  bool
	from []outcome.Value
}

func known(v outcome.Value) value { return value{v: v} }

// union is a and b's havoc origins together, sorted.
func union(a, b []outcome.Value) []outcome.Value {
	out := slices.Clone(a)
	for _, v := range b {
		if i, found := slices.BinarySearchFunc(out, v, events.CompareValues); !found {
			out = slices.Insert(out, i, v)
		}
	}
	return out
}

func topOf(vs ...value) value {
	t := value{top: true}
	for _, v := range vs {
		t.from = union(t.from, v.from)
	}
	return t
}

// join is a value that covers both.
func join(a, b value) value {
	if !a.top && !b.top && a.v == b.v {
		return a
	}
	return topOf(a, b)
}

// covers tells whether a state with a covers one with b: top covers
// every value, but not the havoc origins it lacks (a refinement needs them
// all).
func (a value) covers(b value) bool {
	if !a.top {
		return !b.top && a.v == b.v
	}
	return len(union(a.from, b.from)) == len(a.from)
}

// reader is a tracked read met in some state: the thread, the load, and
// the registers before it.
type reader struct {
	thread int
	edge   *xcfa.Edge
	regs   []value
}

// item is a state waiting to be explored.
type item struct {
	thread int
	loc    *xcfa.Location
	regs   []value
}

type explorer struct {
	ctx     context.Context
	prog    *xcfa.Program
	tracked map[outcome.Value]bool
	lim     Limits
	g       *Graph
	regIdx  []map[string]int // per thread: register → index in a state
	visited []map[*xcfa.Location][][]value
	work    []item
}

// Explore builds the graphs of prog's threads from the initial state
// (initRegs by process ID, unlisted registers 0; initMem every location
// with its initial value), tracking the reads of the locations tracked
// and havocking the others, until no state and no written value is new.
func Explore(ctx context.Context, prog *xcfa.Program, initRegs map[int]map[string]outcome.Value, initMem map[outcome.Value]outcome.Value, tracked map[outcome.Value]bool, lim Limits) (*Graph, error) {
	x := &explorer{ctx: ctx, prog: prog, tracked: tracked, lim: lim, g: &Graph{cells: map[outcome.Value]*cell{}}}
	for a, v := range initMem {
		x.g.cells[a] = &cell{vals: []outcome.Value{v}}
	}
	for i, proc := range prog.Procs {
		idx := registers(proc, initRegs[proc.ID])
		x.regIdx = append(x.regIdx, idx)
		x.visited = append(x.visited, map[*xcfa.Location][][]value{})
		regs := make([]value, len(idx))
		for r, at := range idx {
			regs[at] = known(outcome.Int(0)) // herd: registers start at zero
			if v, ok := initRegs[proc.ID][r]; ok {
				regs[at] = known(v)
			}
		}
		x.work = append(x.work, item{i, proc.Init, regs})
	}
	for len(x.work) > 0 {
		it := x.work[len(x.work)-1]
		x.work = x.work[:len(x.work)-1]
		if err := x.explore(it); err != nil {
			return nil, err
		}
	}
	return x.g, nil
}

// registers numbers the registers proc uses.
func registers(proc *xcfa.Process, init map[string]outcome.Value) map[string]int {
	idx := map[string]int{}
	add := func(r string) {
		if _, ok := idx[r]; !ok && r != "" {
			idx[r] = len(idx)
		}
	}
	for r := range init {
		add(r)
	}
	for _, e := range proc.Edges {
		uses, defs := xcfa.Registers(e.Op)
		for _, r := range append(uses, defs...) {
			add(r)
		}
	}
	return idx
}

// explore adds a state unless one explored covers it, and follows its
// edges.
func (x *explorer) explore(it item) error {
	seen := x.visited[it.thread][it.loc]
	for _, s := range seen {
		if coversAll(s, it.regs) {
			return nil
		}
	}
	if len(seen) >= x.lim.Widen {
		widened := slices.Clone(it.regs)
		for _, s := range seen {
			for i := range widened {
				widened[i] = join(widened[i], s[i])
			}
		}
		it.regs = widened
	}
	x.visited[it.thread][it.loc] = append(seen, it.regs)
	if x.g.States++; x.g.States > x.lim.States {
		return fmt.Errorf("the abstract reachability graphs exceed %d states", x.lim.States)
	}
	if x.g.States%1024 == 0 {
		if err := x.ctx.Err(); err != nil {
			return err
		}
	}
	for _, e := range it.loc.Out {
		x.step(it, e)
	}
	return nil
}

func coversAll(a, b []value) bool {
	for i := range a {
		if !a[i].covers(b[i]) {
			return false
		}
	}
	return true
}

// step follows one edge from a state.
func (x *explorer) step(it item, e *xcfa.Edge) {
	idx := x.regIdx[it.thread]
	next := func(regs []value) { x.work = append(x.work, item{it.thread, e.To, regs}) }
	set := func(r string, v value) []value {
		regs := slices.Clone(it.regs)
		regs[idx[r]] = v
		return regs
	}
	switch op := e.Op.(type) {
	case xcfa.Assign:
		next(set(op.Dst, x.eval(op.Value, it.thread, it.regs)))
	case xcfa.Assume:
		if c := x.eval(op.Cond, it.thread, it.regs); c.top || events.Truth(c.v) {
			next(it.regs)
		}
	case xcfa.Load:
		addr := x.eval(op.Addr, it.thread, it.regs)
		c := x.g.cells[addr.v]
		switch {
		case op.Dst == "":
			next(it.regs)
		case addr.top || c == nil:
			next(set(op.Dst, topOf(addr)))
		case !x.tracked[addr.v]:
			next(set(op.Dst, value{top: true, from: []outcome.Value{addr.v}}))
		default:
			r := reader{it.thread, e, it.regs}
			c.readers = append(c.readers, r)
			if c.top {
				x.revisit(r, value{top: true, from: c.from})
			}
			for _, v := range c.vals {
				x.revisit(r, known(v))
			}
			if slices.Contains(op.Tags, "RECV") {
				x.revisit(r, known(events.Nothing)) // a receive may get nothing
			}
		}
	case xcfa.Store:
		addr := x.eval(op.Addr, it.thread, it.regs)
		v := narrow(op.Size, x.eval(op.Value, it.thread, it.regs))
		if addr.top {
			for _, c := range x.g.cells {
				x.write(c, topOf(addr, v))
			}
		} else if c := x.g.cells[addr.v]; c != nil {
			x.write(c, v)
		}
		regs := it.regs
		if op.Status != "" {
			regs = set(op.Status, known(outcome.Int(0)))
		}
		next(regs)
	default: // Nop, Fence, Mark: no register, no value read by a load
		next(it.regs)
	}
}

// revisit continues a tracked read with the value v read.
func (x *explorer) revisit(r reader, v value) {
	load := r.edge.Op.(xcfa.Load)
	regs := slices.Clone(r.regs)
	regs[x.regIdx[r.thread][load.Dst]] = narrow(load.Size, v)
	x.work = append(x.work, item{r.thread, r.edge.To, regs})
}

// write adds what a write writes to its location's values, and revisits
// the location's reads with it.
func (x *explorer) write(c *cell, v value) {
	if !v.top {
		i, found := slices.BinarySearchFunc(c.vals, v.v, events.CompareValues)
		if found {
			return
		}
		if len(c.vals) < x.lim.Values {
			c.vals = slices.Insert(c.vals, i, v.v)
			for _, r := range c.readers {
				x.revisit(r, v)
			}
			return
		}
		v = value{top: true} // too many values: widened, nothing to track
	}
	from := union(c.from, v.from)
	if c.top && len(from) == len(c.from) {
		return
	}
	c.top, c.from = true, from
	for _, r := range c.readers {
		x.revisit(r, value{top: true, from: from})
	}
}

// narrow applies an access's size: a load of fewer than 8 bytes
// zero-extends them, a store writes its value's low bytes.
func narrow(size int, v value) value {
	op, ok := events.NarrowOp(size)
	if !ok || v.top {
		return v
	}
	n, err := events.ApplyUnary(op, v.v)
	if err != nil {
		return topOf(v)
	}
	return known(n)
}

// eval computes an expression as the engines do, top when an operand is
// top or the operation has no value (where the engines would leave the
// path: allowing it loses nothing).
func (x *explorer) eval(e xcfa.Expr, thread int, regs []value) value {
	switch e := e.(type) {
	case xcfa.Const:
		return known(outcome.Int(e.Value))
	case xcfa.Sym:
		return known(outcome.Value{Sym: e.Name, Off: e.Offset})
	case xcfa.Label:
		return known(events.LabelValue(e))
	case xcfa.Reg:
		return regs[x.regIdx[thread][e.Name]]
	case xcfa.Binary:
		if r, ok := e.X.(xcfa.Reg); ok && e.Op == xcfa.Xor && e.Y == xcfa.Expr(r) {
			return known(outcome.Int(0)) // x^x is zero whatever x (events.Term.Cancels)
		}
		a, b := x.eval(e.X, thread, regs), x.eval(e.Y, thread, regs)
		if a.top || b.top {
			return topOf(a, b)
		}
		v, err := events.ApplyBinary(e.Op, a.v, b.v)
		if err != nil {
			return topOf(a, b)
		}
		return known(v)
	case xcfa.Unary:
		a := x.eval(e.X, thread, regs)
		if a.top {
			return a
		}
		v, err := events.ApplyUnary(e.Op, a.v)
		if err != nil {
			return topOf(a)
		}
		return known(v)
	case xcfa.Ite:
		c := x.eval(e.Cond, thread, regs)
		switch {
		case c.top:
			a, b := x.eval(e.X, thread, regs), x.eval(e.Y, thread, regs)
			if v := join(a, b); !v.top {
				return v
			}
			return topOf(c, a, b) // the choice's origins too: tracking them decides it
		case events.Truth(c.v):
			return x.eval(e.X, thread, regs)
		}
		return x.eval(e.Y, thread, regs)
	case xcfa.Pick:
		return x.eval(e.X, thread, regs)
	}
	return value{top: true}
}
