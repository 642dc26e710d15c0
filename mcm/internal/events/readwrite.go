package events

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// ReadWrite is a read and a later write of one thread that program order
// may relate, with what certainly orders them on every path from the one
// to the other, in any number of loop iterations: the write's control,
// data or address dependency on the read, and the fences between (by
// TagsKey). A model that orders every such pair of a program (eval's
// ReadWriteOrders) keeps po ∪ rf acyclic.
type ReadWrite struct {
	Thread           int
	Read, Write      *xcfa.Edge
	ReadTags         []string
	WriteTags        []string
	Ctrl, Data, Addr bool
	// PickCtrl, PickData, PickAddr: the dependency holds when a choice's
	// condition (a CSEL's) counts too, as herd's pick dependencies do
	// (which include the plain ones); PickCtrl not in C.
	PickCtrl, PickData, PickAddr bool
	// CtrlOrData, CtrlOrAddr: on every path the write has a control
	// dependency on the read or a data (address) one, when neither holds
	// on all; PickCtrlOrData, PickCtrlOrAddr the same of the pick
	// dependencies. A loop's first iteration may carry the value, and
	// its branch order the later ones.
	CtrlOrData, CtrlOrAddr         bool
	PickCtrlOrData, PickCtrlOrAddr bool
	// SameLoc: the read and the write certainly access one location
	// (one address, of registers no instruction of the thread sets).
	SameLoc bool
	Fences  []string // the TagsKey of each fence certainly between
	// Older: the pair of the read's instances before its latest one (a
	// loop's earlier iterations); ReadWrites leaves it out when they are
	// ordered as the latest one is.
	Older bool
	// MayDepend: on some path the write's value, address or existence may
	// depend on the read's value: through registers (a pick's condition
	// too), the address of a read between, a store between that a later
	// read may read from, or a branch or assumption on it (whose effect
	// lasts, here, to the end of the thread). A write that may not is
	// none of the read's dependents, whatever the model.
	MayDepend bool
	// Same: the read's instance and the write are parts of one
	// instruction instance, which program order leaves unordered (not in
	// C, X86 or BPF, xcfa.Program.OrderedInstrs): nothing but the
	// instruction's own order (RMW: its read and write make an atomic
	// pair, in rmw) orders them.
	Same, RMW bool
	// MayUnrecorded: on some path the write may depend on the read in a
	// way no dependency herd records between them shows (through memory,
	// through a read at a dependent address, a compare-and-swap's
	// comparison, one instruction's parts, C's branches past their join).
	// Without it, wherever the write depends on the read it has a
	// dependency on it (herd's pick dependencies include every kind).
	MayUnrecorded bool
}

// TagsKey names an event's tags as one string: events of one kind with
// the same tags are alike to a model.
func TagsKey(tags []string) string {
	return strings.Join(slices.Sorted(slices.Values(tags)), " ")
}

// ReadWrites lists every read instruction and write instruction of p
// that a path through p's control-flow graph (its loops unbounded) runs
// in this order, with what orders them on every such path; a pair comes
// twice when the read's latest instance and its older ones (a loop's
// earlier iterations) are ordered differently, each to be ordered on its
// own. Dependencies are herd's as the unfolding records them (a register
// carries the dependency of the value last put in it; a branch's
// condition makes every later event control dependent, in C up to the
// branch's join, where herd's C ends it); a read and a write of one
// instruction instance have none.
//
// It refuses, at the operation, what it does not follow: a read-modify-
// write herd7 makes one event, and marks.
func ReadWrites(p *xcfa.Program) ([]ReadWrite, error) {
	var out []ReadWrite
	for ti, proc := range p.Procs {
		rws, err := readWrites(p, proc)
		if err != nil {
			return nil, err
		}
		for _, rw := range rws {
			rw.Thread = ti
			out = append(out, rw)
		}
	}
	return out, nil
}

// pendingRead is a read instance whose later writes are still to order:
// the registers its value certainly flows into, whether a branch on it
// was passed, the fences passed, and whether the path is still in its
// instruction instance.
//
// The may part is what the value may flow into on some path: the
// registers, whether a branch or assumption on it was passed (mayCtrl),
// whether a store it may flow into was (mayMem: a later read may read it).
type pendingRead struct {
	regs map[string]bool
	ctrl bool
	// ctrlEnds, in C, are where ctrl may end: the joins of the branches
	// that made it (herd's C ends a branch's control dependencies there).
	ctrlEnds map[*xcfa.Location]bool
	fences   map[string]bool
	inInstr  bool
	instr    int

	mayRegs         map[string]bool
	mayCtrl, mayMem bool
	// unrecRegs and unrecCtrl: the may part through what no dependency
	// records (MayUnrecorded).
	// unrecMem: a store whose value or address may carry the read's was
	// passed (one that only exists by a branch on it adds nothing: what
	// follows the branch has the dependency already, outside C).
	unrecRegs           map[string]bool
	unrecCtrl, unrecMem bool
	// implicit: the path is in the instruction of a comparison on the
	// value (a CAS's, a CSEL's), which a register it sets without
	// carrying the value (a flag set to a constant) still depends on.
	implicit      bool
	implicitInstr int

	// pickRegs and pickCtrl are regs and ctrl with a pick's condition
	// carrying the value too (not in C).
	pickRegs map[string]bool
	pickCtrl bool

	// branchRegs and pickBranchRegs are the registers a branch on which
	// makes ctrl (pickCtrl) certain: on every path, ctrl holds for good
	// already, or the register carries the read's value (a pick's
	// condition counting, for pickBranchRegs). They hold regs (pickRegs),
	// and more after a meet with a path whose ctrl holds for good: a CAS
	// loop's failed read reaches the next iteration's branch through the
	// register it sets on one path, and by the branch of an earlier
	// iteration on the others.
	branchRegs, pickBranchRegs map[string]bool
}

// pendingKey is a read edge's latest instance (older false) or the meet
// of its older ones.
type pendingKey struct {
	edge  int
	older bool
}

type rwState map[pendingKey]*pendingRead

func (p *pendingRead) clone() *pendingRead {
	q := *p
	q.regs, q.fences, q.mayRegs, q.ctrlEnds = maps.Clone(p.regs), maps.Clone(p.fences), maps.Clone(p.mayRegs), maps.Clone(p.ctrlEnds)
	q.pickRegs, q.unrecRegs = maps.Clone(p.pickRegs), maps.Clone(p.unrecRegs)
	q.branchRegs, q.pickBranchRegs = maps.Clone(p.branchRegs), maps.Clone(p.pickBranchRegs)
	return &q
}

// meetRead is what two instances certainly both have, and what either
// may have.
func meetRead(a, b *pendingRead) *pendingRead {
	out := &pendingRead{regs: intersect(a.regs, b.regs), fences: intersect(a.fences, b.fences), ctrl: a.ctrl && b.ctrl,
		inInstr: a.inInstr || b.inInstr, instr: a.instr,
		mayRegs: union(a.mayRegs, b.mayRegs), mayCtrl: a.mayCtrl || b.mayCtrl, mayMem: a.mayMem || b.mayMem,
		pickRegs: intersect(a.pickRegs, b.pickRegs), pickCtrl: a.pickCtrl && b.pickCtrl,
		unrecRegs: union(a.unrecRegs, b.unrecRegs), unrecCtrl: a.unrecCtrl || b.unrecCtrl, unrecMem: a.unrecMem || b.unrecMem}
	out.branchRegs = meetBranchRegs(a.ctrl && len(a.ctrlEnds) == 0, a.branchRegs, b.ctrl && len(b.ctrlEnds) == 0, b.branchRegs)
	out.pickBranchRegs = meetBranchRegs(a.pickCtrl, a.pickBranchRegs, b.pickCtrl, b.pickBranchRegs)
	switch {
	case a.implicit:
		out.implicit, out.implicitInstr = true, a.implicitInstr
	case b.implicit:
		out.implicit, out.implicitInstr = true, b.implicitInstr
	}
	if out.ctrl {
		// Certain on both paths, until either may end it.
		out.ctrlEnds = union(a.ctrlEnds, b.ctrlEnds)
	}
	return out
}

// meetBranchRegs is the meet of two paths' branch registers (see
// pendingRead.branchRegs): a path whose control dependency holds for
// good (aFor, bFor: C's may end at a join) asks nothing of the registers.
func meetBranchRegs(aFor bool, a map[string]bool, bFor bool, b map[string]bool) map[string]bool {
	switch {
	case aFor && bFor:
		return map[string]bool{} // not needed: the meet has the dependency
	case aFor:
		return maps.Clone(b)
	case bFor:
		return maps.Clone(a)
	}
	return intersect(a, b)
}

// intersect is the set of what both hold.
func intersect[K comparable](a, b map[K]bool) map[K]bool {
	out := map[K]bool{}
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}

// union is the set of what either holds.
func union[K comparable](a, b map[K]bool) map[K]bool {
	out := maps.Clone(a)
	if out == nil {
		out = map[K]bool{}
	}
	maps.Copy(out, b)
	return out
}

func sameRead(a, b *pendingRead) bool {
	return a.ctrl == b.ctrl && maps.Equal(a.ctrlEnds, b.ctrlEnds) && a.inInstr == b.inInstr && maps.Equal(a.regs, b.regs) && maps.Equal(a.fences, b.fences) &&
		a.mayCtrl == b.mayCtrl && a.mayMem == b.mayMem && maps.Equal(a.mayRegs, b.mayRegs) &&
		a.pickCtrl == b.pickCtrl && maps.Equal(a.pickRegs, b.pickRegs) &&
		maps.Equal(a.branchRegs, b.branchRegs) && maps.Equal(a.pickBranchRegs, b.pickBranchRegs) &&
		a.unrecCtrl == b.unrecCtrl && a.unrecMem == b.unrecMem && maps.Equal(a.unrecRegs, b.unrecRegs) &&
		a.implicit == b.implicit && a.implicitInstr == b.implicitInstr
}

func (s rwState) clone() rwState {
	out := rwState{}
	for k, v := range s {
		out[k] = v.clone()
	}
	return out
}

// join merges what reaches a location by another path into s: whether
// anything changed.
func (s rwState) join(t rwState) bool {
	changed := false
	for k, v := range t {
		old, ok := s[k]
		switch {
		case !ok:
			s[k] = v.clone()
			changed = true
		default:
			m := meetRead(old, v)
			if !sameRead(m, old) {
				s[k] = m
				changed = true
			}
		}
	}
	return changed
}

// readWrites is ReadWrites for one process: a forward analysis of its
// control-flow graph to a fixpoint (a read edge's instances are two
// abstract ones, which only lose facts), then the pairs each write edge
// meets.
func readWrites(p *xcfa.Program, proc *xcfa.Process) ([]ReadWrite, error) {
	index := map[*xcfa.Edge]int{}
	for i, e := range proc.Edges {
		index[e] = i
		switch op := e.Op.(type) {
		case xcfa.Store:
			if op.OneEvent {
				return nil, source.Errorf(e.Pos, "a read-modify-write that is one event, which the analysis does not follow")
			}
		case xcfa.Mark:
			return nil, source.Errorf(e.Pos, "a mark, which the analysis does not follow")
		}
	}
	set := setRegisters(proc)
	var join map[*xcfa.Location]*xcfa.Location
	if p.NoBranchEvents {
		join = joins(proc)
	}
	in := map[*xcfa.Location]rwState{proc.Init: {}}
	work := []*xcfa.Location{proc.Init}
	queued := map[*xcfa.Location]bool{proc.Init: true}
	for len(work) > 0 {
		loc := work[0]
		work = work[1:]
		queued[loc] = false
		st := branchOut(join, loc, in[loc])
		for _, e := range loc.Out {
			next := st.clone()
			step(next, e, index[e], join != nil)
			to, ok := in[e.To]
			if !ok {
				to = rwState{}
				in[e.To] = to
			}
			if to.join(next) || !ok {
				if !queued[e.To] {
					queued[e.To] = true
					work = append(work, e.To)
				}
			}
		}
	}
	// An instance of the read (its latest, or the meet of older ones)
	// and a write: each is ordered on its own, by what it has on every
	// path (a read's store of this iteration by data, of the next by
	// control).
	type pairKey struct {
		read  pendingKey
		write int
	}
	pairs := map[pairKey]*ReadWrite{}
	var order []pairKey
	for _, loc := range proc.Locs {
		st, ok := in[loc]
		if !ok {
			continue
		}
		st = branchOut(join, loc, st)
		for _, e := range loc.Out {
			s, isStore := e.Op.(xcfa.Store)
			if !isStore {
				continue
			}
			for k, r := range st {
				same := r.inInstr && r.instr == e.Instr
				rw := ReadWrite{Read: proc.Edges[k.edge], Write: e, WriteTags: s.Tags, Older: k.older,
					Ctrl: r.ctrl && !same, Data: !same && carries(s.Value, r.regs), Addr: !same && carries(s.Addr, r.regs),
					PickCtrl: r.pickCtrl && !same, PickData: !same && mayCarry(s.Value, r.pickRegs), PickAddr: !same && mayCarry(s.Addr, r.pickRegs),
					Fences:    slices.Sorted(maps.Keys(r.fences)),
					MayDepend: r.mayCtrl || mayCarry(s.Value, r.mayRegs) || mayCarry(s.Addr, r.mayRegs)}
				rw.CtrlOrData, rw.CtrlOrAddr = !same && carries(s.Value, r.branchRegs), !same && carries(s.Addr, r.branchRegs)
				rw.PickCtrlOrData, rw.PickCtrlOrAddr = !same && mayCarry(s.Value, r.pickBranchRegs), !same && mayCarry(s.Addr, r.pickBranchRegs)
				rw.SameLoc = sameLocation(rw.Read.Op.(xcfa.Load), s, set)
				rw.MayUnrecorded = same && rw.MayDepend || r.unrecCtrl || mayCarry(s.Value, r.unrecRegs) || mayCarry(s.Addr, r.unrecRegs)
				if same && !p.OrderedInstrs {
					load := rw.Read.Op.(xcfa.Load)
					rw.Same, rw.RMW = true, load.RMW != 0 && load.RMW == s.RMW
				}
				rw.ReadTags = rw.Read.Op.(xcfa.Load).Tags
				pk := pairKey{k, index[e]}
				if old, ok := pairs[pk]; ok {
					old.Ctrl, old.Data, old.Addr = old.Ctrl && rw.Ctrl, old.Data && rw.Data, old.Addr && rw.Addr
					old.Fences = slices.DeleteFunc(old.Fences, func(f string) bool { return !slices.Contains(rw.Fences, f) })
					old.MayDepend = old.MayDepend || rw.MayDepend
					old.MayUnrecorded = old.MayUnrecorded || rw.MayUnrecorded
					old.Same, old.RMW = old.Same || rw.Same, old.RMW && rw.RMW
					old.PickCtrl, old.PickData, old.PickAddr = old.PickCtrl && rw.PickCtrl, old.PickData && rw.PickData, old.PickAddr && rw.PickAddr
					old.CtrlOrData, old.CtrlOrAddr = old.CtrlOrData && rw.CtrlOrData, old.CtrlOrAddr && rw.CtrlOrAddr
					old.PickCtrlOrData, old.PickCtrlOrAddr = old.PickCtrlOrData && rw.PickCtrlOrData, old.PickCtrlOrAddr && rw.PickCtrlOrAddr
					continue
				}
				pairs[pk] = &rw
				order = append(order, pk)
			}
		}
	}
	slices.SortFunc(order, func(a, b pairKey) int {
		switch {
		case a.read.edge != b.read.edge:
			return a.read.edge - b.read.edge
		case a.write != b.write:
			return a.write - b.write
		case a.read.older != b.read.older:
			if a.read.older {
				return 1
			}
			return -1
		}
		return 0
	})
	var out []ReadWrite
	for _, k := range order {
		rw := *pairs[k]
		if n := len(out); n > 0 && sameReadWrite(out[n-1], rw) {
			continue // the older instances are ordered as the latest
		}
		out = append(out, rw)
	}
	return out, nil
}

// setRegisters are the registers some operation of proc sets.
func setRegisters(proc *xcfa.Process) map[string]bool {
	set := map[string]bool{}
	for _, e := range proc.Edges {
		_, defs := edgeRegisters(e)
		for _, r := range defs {
			set[canonicalReg(r)] = true
		}
	}
	return set
}

// sameLocation tells whether a load and a store certainly access one
// location: the same address, of the same size, computed from registers
// that keep their initial values (none in set).
func sameLocation(ld xcfa.Load, st xcfa.Store, set map[string]bool) bool {
	if ld.Size != st.Size || !reflect.DeepEqual(ld.Addr, st.Addr) {
		return false
	}
	fixed := true
	xcfa.EachReg(ld.Addr, func(name string) { fixed = fixed && !set[canonicalReg(name)] })
	return fixed
}

// sameReadWrite tells whether two pairs are of one read and write
// instruction, ordered alike.
func sameReadWrite(a, b ReadWrite) bool {
	return a.Read == b.Read && a.Write == b.Write && a.Ctrl == b.Ctrl && a.Data == b.Data && a.Addr == b.Addr &&
		a.PickCtrl == b.PickCtrl && a.PickData == b.PickData && a.PickAddr == b.PickAddr &&
		a.CtrlOrData == b.CtrlOrData && a.CtrlOrAddr == b.CtrlOrAddr &&
		a.PickCtrlOrData == b.PickCtrlOrData && a.PickCtrlOrAddr == b.PickCtrlOrAddr && a.SameLoc == b.SameLoc &&
		a.MayDepend == b.MayDepend && a.MayUnrecorded == b.MayUnrecorded && a.Same == b.Same && a.RMW == b.RMW &&
		slices.Equal(a.Fences, b.Fences)
}

// branchOut is st as the edges out of loc see it: a conditional branch
// there makes every pending read its conditions carry control-ordered.
// In C (join set: each branch location's join, where the unfolder ends
// the dependencies the branch added), that lasts until the path reaches
// the branch's join, where it ends, as it does for every read whose ctrl
// may end there.
func branchOut(join map[*xcfa.Location]*xcfa.Location, loc *xcfa.Location, st rwState) rwState {
	var conds []xcfa.Expr
	for _, e := range loc.Out {
		if a, ok := e.Op.(xcfa.Assume); ok && !a.Internal {
			conds = append(conds, a.Cond)
		}
	}
	ending := false
	for _, r := range st {
		ending = ending || r.ctrl && r.ctrlEnds[loc]
	}
	if len(conds) == 0 && !ending {
		return st
	}
	out := st.clone()
	for _, r := range out {
		if r.ctrl && r.ctrlEnds[loc] {
			r.ctrl, r.ctrlEnds = false, nil
		}
		for _, c := range conds {
			if join == nil && mayCarry(c, r.pickBranchRegs) {
				r.pickCtrl = true
			}
			if !carries(c, r.branchRegs) {
				continue
			}
			if join == nil {
				r.ctrl = true
				continue
			}
			// In C, a branch whose paths never join again adds
			// dependencies the join of a branch around it may end, which
			// this does not follow: none is certain.
			if j := join[loc]; j != nil {
				if !r.ctrl {
					r.ctrlEnds = map[*xcfa.Location]bool{}
				}
				r.ctrl = true
				r.ctrlEnds[j] = true
			}
		}
	}
	return out
}

// step applies an edge's operation to st; cBranches: the program is C,
// whose control dependencies end at their branches' joins.
func step(st rwState, e *xcfa.Edge, index int, cBranches bool) {
	for _, r := range st {
		if r.inInstr && r.instr != e.Instr {
			r.inInstr = false
		}
		if r.implicit && r.implicitInstr != e.Instr {
			r.implicit = false
		}
	}
	switch op := e.Op.(type) {
	case xcfa.Assign:
		for _, r := range st {
			if carries(op.Value, r.regs) {
				r.regs[op.Dst] = true
			} else {
				delete(r.regs, op.Dst)
			}
			setMay(r.branchRegs, op.Dst, carries(op.Value, r.branchRegs))
			setMay(r.pickBranchRegs, op.Dst, mayCarry(op.Value, r.pickBranchRegs))
			carried := mayCarry(op.Value, r.mayRegs)
			setMay(r.mayRegs, op.Dst, carried || r.implicit)
			setMay(r.pickRegs, op.Dst, mayCarry(op.Value, r.pickRegs))
			setMay(r.unrecRegs, op.Dst, mayCarry(op.Value, r.unrecRegs) || r.implicit && !carried)
		}
	case xcfa.Assume:
		for _, r := range st {
			carried := mayCarry(op.Cond, r.mayRegs)
			r.mayCtrl = r.mayCtrl || carried
			// A C branch's control dependencies end at its join; a
			// comparison inside an instruction makes none, and what it
			// decides is its own parts' and the registers it sets.
			r.unrecCtrl = r.unrecCtrl || mayCarry(op.Cond, r.unrecRegs) || cBranches && carried
			if op.Internal && carried {
				r.implicit, r.implicitInstr = true, e.Instr
			}
		}
	case xcfa.Load:
		for _, r := range st {
			delete(r.regs, op.Dst)
			delete(r.pickRegs, op.Dst)
			delete(r.branchRegs, op.Dst)
			delete(r.pickBranchRegs, op.Dst)
			// The value read may depend on this read's through its
			// address, or through a store this thread made with it.
			setMay(r.mayRegs, op.Dst, r.mayMem || mayCarry(op.Addr, r.mayRegs))
			setMay(r.unrecRegs, op.Dst, r.unrecMem || mayCarry(op.Addr, r.mayRegs))
		}
		latest, older := pendingKey{index, false}, pendingKey{index, true}
		if prev, ok := st[latest]; ok {
			if o, ok := st[older]; ok {
				prev = meetRead(o, prev)
			}
			st[older] = prev
		}
		fresh := &pendingRead{regs: map[string]bool{}, fences: map[string]bool{}, inInstr: true, instr: e.Instr,
			mayRegs: map[string]bool{}, pickRegs: map[string]bool{}, unrecRegs: map[string]bool{},
			branchRegs: map[string]bool{}, pickBranchRegs: map[string]bool{}}
		if op.Dst != "" {
			fresh.regs[op.Dst] = true
			fresh.mayRegs[op.Dst] = true
			fresh.pickRegs[op.Dst] = true
			fresh.branchRegs[op.Dst] = true
			fresh.pickBranchRegs[op.Dst] = true
		}
		st[latest] = fresh
	case xcfa.Store:
		for _, r := range st {
			carried := mayCarry(op.Value, r.mayRegs) || mayCarry(op.Addr, r.mayRegs)
			flows := r.mayCtrl || carried
			r.mayMem = r.mayMem || flows
			r.unrecMem = r.unrecMem || carried
			if op.Status != "" {
				setMay(r.mayRegs, op.Status, flows)
				setMay(r.unrecRegs, op.Status, flows)
			}
		}
		if op.Status != "" {
			// The status depends on what the store does.
			for _, r := range st {
				if carries(op.Value, r.regs) || carries(op.Addr, r.regs) {
					r.regs[op.Status] = true
				} else {
					delete(r.regs, op.Status)
				}
				setMay(r.pickRegs, op.Status, mayCarry(op.Value, r.pickRegs) || mayCarry(op.Addr, r.pickRegs))
				setMay(r.branchRegs, op.Status, carries(op.Value, r.branchRegs) || carries(op.Addr, r.branchRegs))
				setMay(r.pickBranchRegs, op.Status, mayCarry(op.Value, r.pickBranchRegs) || mayCarry(op.Addr, r.pickBranchRegs))
			}
		}
	case xcfa.Fence:
		k := TagsKey(op.Tags)
		for _, r := range st {
			r.fences[k] = true
		}
	}
}

// carries tells whether x's value certainly depends (as a term's deps do)
// on one of regs: a pick's condition only chooses.
func carries(x xcfa.Expr, regs map[string]bool) bool {
	switch x := x.(type) {
	case xcfa.Reg:
		return regs[x.Name]
	case xcfa.Binary:
		return carries(x.X, regs) || carries(x.Y, regs)
	case xcfa.Unary:
		return carries(x.X, regs)
	case xcfa.Ite:
		return carries(x.Cond, regs) || carries(x.X, regs) || carries(x.Y, regs)
	case xcfa.Pick:
		return carries(x.X, regs)
	}
	return false
}

// mayCarry tells whether x's value may depend on one of regs: a pick's
// condition chooses it, so it does.
func mayCarry(x xcfa.Expr, regs map[string]bool) bool {
	found := false
	xcfa.EachReg(x, func(name string) { found = found || regs[name] })
	return found
}

// setMay records whether a register's new value may carry a read's.
func setMay(regs map[string]bool, reg string, carried bool) {
	if carried {
		regs[reg] = true
	} else {
		delete(regs, reg)
	}
}
