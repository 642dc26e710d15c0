package events

import (
	"slices"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/xcfa"
)

// Own locations: a C test's compare-and-swap takes its expected value
// from memory (`int *e0`), and a failed attempt writes there the value it
// read, which the loop's body then resets (`while (!CAS(l, e0, 1)) *e0 =
// 0;`). Each failed iteration writes memory, so it is no retry by the
// rule of retries.go; yet the location is one only its thread accesses,
// which the thread uses as a register.
//
// In a model where a thread's read of a location no other thread
// accesses reads the thread's latest write to it, or the initial value
// when there is none (eval.ReadsOwnLatest: SC per location), the unfolder
// assumes so on every path (UnfoldOptions.OwnLatest): no consistent
// execution takes a path where it does not. An iteration whose writes
// all go to own locations that are dead where it ends (from there, every
// path writes them again before reading them, or never reads them) is
// then a retry when the rest of the rule holds: the writes it removes
// are read only by reads before the next visit, which it removes too
// (the window starts after the read of the expected value, inside the
// CAS, so that the kept read is the first iteration's and the removed
// one the next's; Unfolding.SplitInstances), and the value each kept
// read reads is unchanged. The model must allow removing the writes
// (eval.SilentRetriesRemovable, the kept accesses to the locations
// taken as gap accesses), and the final state must not show the
// locations: the last write to one may be removed.

// ownLocations gives, for each process (by index), the locations only
// it accesses, each at one address and with one size, when every access
// of the program is at an address known before it runs (a location's
// name, or a register that holds one from the start and that the
// process never sets, plus a constant offset: consts, by process
// index); nil otherwise. Marks (locks) make their locations no one's.
func ownLocations(prog *xcfa.Program, consts []map[string]outcome.Value) []map[outcome.Value]bool {
	type use struct {
		addr outcome.Value
		size int
	}
	owner := map[string]int{} // a location's name → the index of the one process that accesses it, or -1
	uses := map[string][]use{}
	for i, proc := range prog.Procs {
		for _, e := range proc.Edges {
			addrX, size, mark := accessOf(e.Op)
			if addrX == nil {
				continue
			}
			a, ok := knownAddr(addrX, consts[i])
			if !ok {
				return nil
			}
			if o, seen := owner[a.Sym]; seen && o != i || mark {
				owner[a.Sym] = -1
			} else {
				owner[a.Sym] = i
			}
			if u := (use{a, size}); !slices.Contains(uses[a.Sym], u) {
				uses[a.Sym] = append(uses[a.Sym], u)
			}
		}
	}
	own := make([]map[outcome.Value]bool, len(prog.Procs))
	for sym, i := range owner {
		if i < 0 || len(uses[sym]) != 1 {
			continue
		}
		if own[i] == nil {
			own[i] = map[outcome.Value]bool{}
		}
		own[i][uses[sym][0].addr] = true
	}
	return own
}

// OwnAccesses maps each access of prog to a location only its process
// accesses (ownLocations: no other thread's access and no lock mark is
// ever there) to the index of that process; nil when the program has an
// access at an address it computes.
func OwnAccesses(prog *xcfa.Program, initRegs map[int]map[string]outcome.Value) map[*xcfa.Edge]int {
	consts := make([]map[string]outcome.Value, len(prog.Procs))
	for i, proc := range prog.Procs {
		consts[i] = constRegisters(proc, initRegs)
	}
	own := ownLocations(prog, consts)
	if own == nil {
		return nil
	}
	out := map[*xcfa.Edge]int{}
	for i, proc := range prog.Procs {
		for _, e := range proc.Edges {
			if addr, _, mark := accessOf(e.Op); addr != nil && !mark {
				if a, ok := knownAddr(addr, consts[i]); ok && own[i][a] {
					out[e] = i
				}
			}
		}
	}
	return out
}

// constRegisters are the registers of a process that hold an address
// from the start and that it never sets.
func constRegisters(proc *xcfa.Process, initRegs map[int]map[string]outcome.Value) map[string]outcome.Value {
	set := map[string]bool{}
	for _, e := range proc.Edges {
		_, defs := xcfa.Registers(e.Op)
		for _, r := range defs {
			set[r] = true
		}
	}
	consts := map[string]outcome.Value{}
	for r, v := range initRegs[proc.ID] {
		if !set[r] && v.IsAddr() {
			consts[r] = v
		}
	}
	return consts
}

// accessOf gives the address expression and size of an operation that
// accesses memory (nil for others), and whether it is a mark.
func accessOf(op xcfa.Op) (addr xcfa.Expr, size int, mark bool) {
	switch op := op.(type) {
	case xcfa.Load:
		return op.Addr, op.Size, false
	case xcfa.Store:
		return op.Addr, op.Size, false
	case xcfa.Mark:
		return op.Addr, 0, true
	}
	return nil, 0, false
}

// knownAddr is the address an expression computes before the program
// runs: a location, a register of consts, plus a constant.
func knownAddr(x xcfa.Expr, consts map[string]outcome.Value) (outcome.Value, bool) {
	switch x := x.(type) {
	case xcfa.Sym:
		return outcome.Value{Sym: x.Name, Off: x.Offset}, true
	case xcfa.Reg:
		v, ok := consts[x.Name]
		return v, ok
	case xcfa.Binary:
		if x.Op != xcfa.Add {
			return outcome.Value{}, false
		}
		a, okA := knownAddr(x.X, consts)
		c, okC := x.Y.(xcfa.Const)
		if !okA || !okC {
			a, okA = knownAddr(x.Y, consts)
			c, okC = x.X.(xcfa.Const)
		}
		if okA && okC {
			a.Off += c.Value
			return a, true
		}
	}
	return outcome.Value{}, false
}

// ownLiveness gives the own locations live at each location of a
// process: those some path from it reads before it writes them.
func ownLiveness(proc *xcfa.Process, own map[outcome.Value]bool, consts map[string]outcome.Value) map[*xcfa.Location]map[outcome.Value]bool {
	live := map[*xcfa.Location]map[outcome.Value]bool{}
	for _, l := range proc.Locs {
		live[l] = map[outcome.Value]bool{}
	}
	at := func(e *xcfa.Edge) (outcome.Value, bool) {
		x, _, _ := accessOf(e.Op)
		if x == nil {
			return outcome.Value{}, false
		}
		a, ok := knownAddr(x, consts)
		return a, ok && own[a]
	}
	for changed := true; changed; {
		changed = false
		for i := len(proc.Locs) - 1; i >= 0; i-- {
			l := proc.Locs[i]
			add := func(b outcome.Value) {
				if !live[l][b] {
					live[l][b] = true
					changed = true
				}
			}
			for _, e := range l.Out {
				a, isOwn := at(e)
				_, reads := e.Op.(xcfa.Load)
				for b := range live[e.To] {
					if !isOwn || b != a {
						add(b) // a write of a kills it
					}
				}
				if isOwn && reads {
					add(a)
				}
			}
		}
	}
	return live
}

// readOwn assumes, of a read of an own location, that it reads the
// thread's latest write to it, or the initial value.
func (f *unfolder) readOwn(e *Event, st *pathState) {
	a, ok := f.ownAddr(e, st)
	if !ok {
		return
	}
	last := f.constTerm(f.initMem[a])
	if w := st.ownLast[a]; w != nil {
		if InParallel(w, e) {
			// The write is a part of the read's instruction that
			// program order leaves unordered (an AArch64 SWP's): the
			// latest write before the read is an earlier one, which
			// the path does not keep.
			return
		}
		last = w.Val
	}
	f.assume(st, f.binaryTerm(xcfa.Eq, e.Val, last))
}

// writeOwn notes a write of an own location, the latest on the path.
func (f *unfolder) writeOwn(e *Event, st *pathState) {
	if a, ok := f.ownAddr(e, st); ok {
		if st.ownLast == nil {
			st.ownLast = map[outcome.Value]*Event{}
		}
		st.ownLast[a] = e
	}
}

// ownAddr gives the address of an access to an own location of its
// thread.
func (f *unfolder) ownAddr(e *Event, st *pathState) (outcome.Value, bool) {
	if f.own == nil {
		return outcome.Value{}, false
	}
	a, ok := e.Addr.IsConst()
	return a, ok && f.own[st.thread][a]
}

// ownOnly tells whether the writes and marks of the iteration that ends
// at the path's current visit to loc (since prev) are all plain writes
// of own locations dead at loc, none of which the final state shows.
func (f *unfolder) ownOnly(info *loopInfo, loc *xcfa.Location, st *pathState, prev *visit) bool {
	if info.own == nil || st.effects == prev.effects {
		return false
	}
	for _, e := range st.sides[prev.effects:] {
		a, ok := f.ownAddr(e, st)
		if !ok || e.Kind != KindWrite || e.RMW != nil || e.HasTag("X") || info.ownLive[loc][a] || f.shown == nil || f.shown(a) {
			return false
		}
	}
	return true
}

// mayRetryInside tells whether a retry may end inside an instruction,
// where the path now is: the thread has own locations, and no atomic
// pair, exclusive reservation or parallel composition is open.
func (f *unfolder) mayRetryInside(info *loopInfo, st *pathState) bool {
	return info.own != nil && len(st.openRMW) == 0 && !st.fusedOpen && st.lastX == nil && len(st.par) == 0
}

// ownGaps notes, when some retry removed writes of own locations, the
// accesses to those locations the unfolding keeps as gap accesses: a
// kept access's next write to its location may be a removed one
// (Unfolding.SilentGap).
func (f *unfolder) ownGaps() {
	if len(f.u.OwnWrites) == 0 {
		return
	}
	f.u.SilentFirst = false
	written := map[outcome.Value]bool{}
	for _, w := range f.u.OwnWrites {
		a, _ := w.Addr.IsConst()
		written[a] = true
	}
	for _, e := range f.u.Events {
		if !e.IsMem() || e.Kind == KindInit {
			continue
		}
		if a, ok := e.Addr.IsConst(); ok && written[a] && !slices.Contains(f.u.SilentGap, e) {
			f.u.SilentGap = append(f.u.SilentGap, e)
		}
	}
}
