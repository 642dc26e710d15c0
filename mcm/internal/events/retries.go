package events

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// Retries: loops without a bound.
//
// A path that comes back to a location c with nothing done since its
// previous visit but reads (and fences and branches), and with every
// register that is live at c holding the same term as then, has made a
// retry: the path on from the second visit does exactly what it did from
// the first. Every execution that retries k times is then an execution
// that retries fewer times plus the retries' events, which are never
// writes, so nothing reads from them and no kept event depends on them.
// When the model's checks keep holding as such events are removed
// (eval.RetriesRemovable), the program with its retries cut off has the
// outcomes of the program with its loops unbounded: a spin-wait becomes
// one pass and an assumption that it exits, a failed CAS or
// store-exclusive retry one more attempt that succeeds (GenMC's
// spin-assume transformation, for any loop and any such model).
//
// UnfoldOptions.Retries keeps that many retries per location and path
// (a model with flags needs one: a flag may be raised by a retry's read)
// and cuts the path at the next; other loops are unrolled up to the bound.

// UnfoldOptions tune an unfolding.
type UnfoldOptions struct {
	Unroll int // iterations of a loop (herd's -unroll)
	// Registers: herd's register events (UnfoldRegisterEvents).
	Registers bool
	// Retries, when not negative, cuts off every path at its (Retries+1)th
	// retry (see above): the path is dead, not cut by the bound. -1 keeps
	// every path up to the bound, as herd7 does.
	Retries int
	// FinalRegs, with Retries, tells which registers of the process
	// numbered proc the end of a path shows (the test's condition, filter
	// and locations): the others are dead there. nil: all of them.
	FinalRegs func(proc int, reg string) bool
	// Prefixes lets every thread stop before any read of its path, and
	// turns the bound's cuts into leaves that execute (ReachesCut), for
	// the question whether any consistent partial execution reaches a cut
	// (see prefixes.go).
	Prefixes bool
	// LocationValues, with Retries, gives the values every write to a
	// location may write in any execution, false when it cannot tell;
	// without it, no retry is silent (silent.go).
	LocationValues func(addr outcome.Value) ([]outcome.Value, bool)
	// AssumeSame, with Retries, splits a path whose iteration changed
	// nothing but registers on whether they hold their old values, the
	// side where they do making a retry (sameRegisters).
	AssumeSame bool
	// Learn leaves out, without retries too, the paths whose assumptions
	// contradict what the path's earlier assumptions fixed.
	Learn bool
	// OwnLatest, with Retries, says the model makes a read of a location
	// that only its thread accesses read the thread's latest write to it
	// (eval.ReadsOwnLatest): the paths assume it, and iterations that
	// only write such locations may be retries (private.go). Shown tells
	// which addresses the final state shows, whose writes no retry may
	// remove (nil: all of them).
	OwnLatest bool
	Shown     func(outcome.Value) bool
}

// RetrySite is a location where some path retried: a loop whose repeated
// iterations only read, cut off by the retry rule.
type RetrySite struct {
	Thread int
	Pos    source.Pos // the first instruction at the location
}

// CutSite is a location where the unrolling bound cut a path, with why
// the path's last iteration through it was no retry.
type CutSite struct {
	Thread int
	Pos    source.Pos
	Why    string
}

// visit is a path's state at its latest visit to a location.
type visit struct {
	depth   int               // the path's events before it
	effects int               // writes and marks on the path before it
	regs    map[string]*Term  // the registers live at the location
	writers map[string]*Event // their latest register writes (register events)
	lastX   *Event
	scopes  []ctrlScope
	// The control dependencies of the path (C: what an open branch's
	// join gives back).
	ctrl, ctrlPicks []*Event
	retried         int        // retries through the location on the path so far
	lastSide        source.Pos // where the path's latest write or mark is
	why             string     // why the iteration that ended here is no retry ("": it is one, or the first visit)
	// The registers the path assumed, at this visit, to hold their
	// values of the previous visit (sameRegisters).
	assumed map[string]bool
}

// loopInfo is what the retry rule needs of a process: where instructions
// begin, and the registers live at each location.
type loopInfo struct {
	boundary map[*xcfa.Location]bool
	live     map[*xcfa.Location]map[string]bool
	faint    map[*xcfa.Location]map[string]bool // live but for assignments that only feed themselves
	// own are the locations only the process accesses, with
	// UnfoldOptions.OwnLatest, and ownLive those live at each location
	// (private.go).
	own     map[outcome.Value]bool
	ownLive map[*xcfa.Location]map[outcome.Value]bool
}

// exclusiveReg stands, in the liveness of registers, for the reservation a
// load-exclusive takes and a store-exclusive uses.
const exclusiveReg = "\x00reservation"

// analyseLoops finds a process's instruction boundaries and live
// registers. At the end, those final says the final state shows are live
// (every register when final is nil).
//
// Without register events, a register that only computes itself (a
// count of a spin's iterations that nothing reads) is faint, not live:
// an assignment that cannot fail uses its operands only when the
// register it sets is live after it. An iteration may change a faint
// register from one constant to another and still be a retry: every
// iteration computes its constants without fail. With register events,
// each assignment is events that read its operands, which a later one
// may read from: no register is faint.
func analyseLoops(proc *xcfa.Process, final func(proc int, reg string) bool, registerEvents bool) *loopInfo {
	info := &loopInfo{boundary: map[*xcfa.Location]bool{}}
	in := map[*xcfa.Location][]*xcfa.Edge{}
	for _, e := range proc.Edges {
		in[e.To] = append(in[e.To], e)
	}
	for _, l := range proc.Locs {
		info.boundary[l] = true
		for _, a := range in[l] {
			for _, b := range l.Out {
				if a.Instr != 0 && a.Instr == b.Instr {
					info.boundary[l] = false
				}
			}
		}
	}
	regs := edgeRegisterSets(proc)
	info.live = regs.liveness(proc, final, !registerEvents)
	if !registerEvents {
		info.faint = map[*xcfa.Location]map[string]bool{}
		for l, all := range regs.liveness(proc, final, false) {
			for r := range all {
				if !info.live[l][r] {
					if info.faint[l] == nil {
						info.faint[l] = map[string]bool{}
					}
					info.faint[l][r] = true
				}
			}
		}
	}
	return info
}

// registerSets are the registers each edge of a process reads and sets
// (edgeRegisters), and all of them.
type registerSets struct {
	uses, defs map[*xcfa.Edge][]string
	all        map[string]bool
}

func edgeRegisterSets(proc *xcfa.Process) registerSets {
	rs := registerSets{uses: make(map[*xcfa.Edge][]string, len(proc.Edges)), defs: make(map[*xcfa.Edge][]string, len(proc.Edges)),
		all: map[string]bool{}}
	for _, e := range proc.Edges {
		u, d := edgeRegisters(e)
		rs.uses[e], rs.defs[e] = u, d
		for _, r := range append(u, d...) {
			rs.all[r] = true
		}
	}
	return rs
}

// liveness gives the registers live at each location of a process:
// backward to a fixpoint, live(l) = ∪ over l's edges e of uses(e) ∪
// (live(e.To) \ defs(e)), where, when strong, an assignment that cannot
// fail uses its operands only when its register is live at e.To.
func (rs registerSets) liveness(proc *xcfa.Process, final func(proc int, reg string) bool, strong bool) map[*xcfa.Location]map[string]bool {
	live := map[*xcfa.Location]map[string]bool{}
	uses, defs := rs.uses, rs.defs
	for _, l := range proc.Locs {
		live[l] = map[string]bool{}
	}
	for r := range rs.all {
		if final == nil || final(proc.ID, r) {
			live[proc.Final][r] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for i := len(proc.Locs) - 1; i >= 0; i-- {
			l := proc.Locs[i]
			for _, e := range l.Out {
				add := func(r string) {
					if !live[l][r] {
						live[l][r] = true
						changed = true
					}
				}
				if a, ok := e.Op.(xcfa.Assign); !strong || !ok || !cannotFail(a.Value) || live[e.To][a.Dst] {
					for _, r := range uses[e] {
						add(r)
					}
				}
				for r := range live[e.To] {
					if !slices.Contains(defs[e], r) {
						add(r)
					}
				}
			}
		}
	}
	return live
}

// cannotFail tells whether an assignment's value is one that every
// operand's value can compute (a copy, a constant, an offset by a
// constant, which moves an address too), or one that fails on the first
// of the constants of a faint register if on any (an extension, on an
// address): an assignment whose register is faint may be left out of a
// retry's iteration, but not one that herd7 might stop on (IllegalOps).
func cannotFail(x xcfa.Expr) bool {
	switch x := x.(type) {
	case xcfa.Reg, xcfa.Const:
		return true
	case xcfa.Binary:
		_, regX := x.X.(xcfa.Reg)
		_, constX := x.X.(xcfa.Const)
		_, regY := x.Y.(xcfa.Reg)
		_, constY := x.Y.(xcfa.Const)
		return x.Op == xcfa.Add && (regX && constY || constX && regY) || x.Op == xcfa.Sub && regX && constY
	case xcfa.Unary:
		// A zero- or sign-extension fails on an address, which a
		// faint register's constants would show in the first iteration.
		return cannotFail(x.X)
	}
	return false
}

// edgeRegisters lists the registers an edge reads and those it sets,
// the reservation of an exclusive pair among them.
func edgeRegisters(e *xcfa.Edge) (uses, defs []string) {
	uses, defs = xcfa.Registers(e.Op)
	switch op := e.Op.(type) {
	case xcfa.Load:
		if hasTag(op.Tags, "X") && op.RMW == 0 {
			defs = append(defs, exclusiveReg)
		}
	case xcfa.Store:
		if hasTag(op.Tags, "X") && op.RMW == 0 {
			uses = append(uses, exclusiveReg)
		}
	}
	return uses, defs
}

// locPos is where a location's code is written: its first outgoing edge's.
func locPos(l *xcfa.Location) source.Pos {
	for _, e := range l.Out {
		if e.Pos.Line > 0 {
			return e.Pos
		}
	}
	return source.Pos{}
}

// retry applies the retry rule at a visit to loc: it tells whether the
// path ends here, dead, as one retry too many, and notes the visit.
func (f *unfolder) retry(proc *xcfa.Process, loc *xcfa.Location, st *pathState) bool {
	info := f.loops[proc]
	if !info.boundary[loc] && !f.mayRetryInside(info, st) {
		return false
	}
	now := info.visitAt(loc, st)
	if st.splitAt == loc {
		now.assumed = st.assumed
		st.splitAt, st.assumed = nil, nil
	}
	if prev := st.seen[loc]; prev != nil {
		now.why = info.why(loc, prev, now)
		inExclusive := info.inExclusive(loc, prev)
		own := false
		if now.why != "" && !inExclusive && f.ownOnly(info, loc, st, prev) {
			same := *now
			same.effects = prev.effects // its writes are never read once it is removed
			if info.why(loc, prev, &same) == "" {
				now.why, own = "", true
			}
		}
		if !info.boundary[loc] && !own {
			// Inside an instruction, only an iteration that writes own
			// locations is a retry: the others come back to the
			// instruction's start too.
			now.why = "the loop comes back inside an instruction"
		}
		if now.why == "" && len(now.assumed) > 0 {
			f.u.DepsMove = true
		}
		if now.why != "" && now.effects != prev.effects && !inExclusive && info.boundary[loc] {
			if silent, ok := f.silentIteration(st, prev); ok {
				same := *now
				same.effects = prev.effects // its writes write back what they read
				if info.why(loc, prev, &same) == "" {
					now.why = ""
					f.silent = append(f.silent, silent...)
				}
			}
		}
		if now.why == "" {
			now.retried = prev.retried + 1
			if now.retried > f.retries {
				st.seg.Dead = true
				f.u.Retries = append(f.u.Retries, RetrySite{Thread: st.thread, Pos: locPos(loc)})
				if own {
					f.u.OwnWrites = append(f.u.OwnWrites, st.sides[prev.effects:]...)
					f.u.SplitInstances = f.u.SplitInstances || !info.boundary[loc]
				}
				_, iteration := splitPath(st.seg, prev.depth)
				for _, e := range iteration {
					if e.HasLoc() {
						f.u.RetryAccesses = append(f.u.RetryAccesses, e)
					}
					for _, tag := range e.Tags {
						if f.u.RetryTags == nil {
							f.u.RetryTags = map[string]bool{}
						}
						f.u.RetryTags[tag] = true
					}
				}
				return true
			}
		}
	}
	st.seen[loc] = now
	return false
}

// inExclusive tells whether an iteration that ends at loc since the
// visit prev lies inside an exclusive pair, whose reservation the code
// after the loop uses. A retry that writes never does: no removed event
// is between the read and the write of a read-modify-write (eval's
// noSpan).
func (info *loopInfo) inExclusive(loc *xcfa.Location, prev *visit) bool {
	return prev.lastX != nil && info.live[loc][exclusiveReg]
}

// visitAt is the path's state at a visit to loc.
func (info *loopInfo) visitAt(loc *xcfa.Location, st *pathState) *visit {
	now := &visit{depth: st.depth, effects: st.effects, lastX: st.lastX, scopes: st.scopes, ctrl: st.ctrl, ctrlPicks: st.ctrlPicks,
		lastSide: st.lastSide, regs: map[string]*Term{}, writers: map[string]*Event{}}
	for r := range info.live[loc] {
		now.regs[r] = st.regs[r]
		if st.regWriter != nil {
			now.writers[r] = st.regWriter[canonicalReg(r)]
		}
	}
	for r := range info.faint[loc] {
		now.regs[r] = st.regs[r]
	}
	return now
}

// sameRegisters gives, at a visit to loc, the registers that alone keep
// the iteration since the previous visit from being a retry: it did
// nothing but read, and changed only them, to terms that may equal their
// old ones (a weak CAS failing spuriously puts the value it read, which
// is the one expected, back into the expected register). The path then
// splits on whether they hold their old values (splitOnRegisters); the
// side where they do makes a retry, whose removal moves the dependencies
// on them from the removed reads to the kept ones (Unfolding.DepsMove).
// nil when there are none, when something else stands in the way, or
// when the path split here already.
func (f *unfolder) sameRegisters(proc *xcfa.Process, loc *xcfa.Location, st *pathState) []string {
	info := f.loops[proc]
	prev := st.seen[loc]
	if !f.assumeSame || f.regs || st.splitAt == loc || prev == nil {
		return nil
	}
	own := st.effects != prev.effects && !info.inExclusive(loc, prev) && f.ownOnly(info, loc, st, prev)
	if st.effects != prev.effects && !own || !info.boundary[loc] && !(own && f.mayRetryInside(info, st)) {
		return nil
	}
	now := info.visitAt(loc, st)
	now.effects = prev.effects // own: its writes are never read once it is removed
	var changed []string
	for _, r := range slices.Sorted(maps.Keys(info.live[loc])) {
		a, b := now.regs[r], prev.regs[r]
		if r == exclusiveReg || a == b {
			continue
		}
		if a == nil || b == nil || st.differ(a, b) {
			return nil
		}
		va, aKnown := termValue(a, st.known, true)
		vb, bKnown := termValue(b, st.known, true)
		if aKnown && bKnown && va != vb {
			return nil
		}
		changed = append(changed, r)
	}
	if len(changed) == 0 {
		return nil
	}
	now.assumed = map[string]bool{}
	for _, r := range changed {
		now.assumed[r] = true
	}
	if info.why(loc, prev, now) != "" {
		return nil
	}
	return changed
}

// splitOnRegisters forks the path at a visit to loc on whether the
// registers regs hold the terms they held at the previous visit: one
// side assumes they all do, the other that some does not.
func (f *unfolder) splitOnRegisters(proc *xcfa.Process, loc *xcfa.Location, st *pathState, regs []string) error {
	prev := st.seen[loc]
	var same *Term
	for _, r := range regs {
		eq := f.binaryTerm(xcfa.Eq, st.regs[r], prev.regs[r])
		if same == nil {
			same = eq
		} else {
			same = f.binaryTerm(xcfa.LAnd, same, eq)
		}
	}
	differ := f.binaryTerm(xcfa.Ne, st.regs[regs[0]], prev.regs[regs[0]])
	if len(regs) > 1 {
		var err error
		if differ, err = f.unaryTerm(xcfa.Not, same); err != nil {
			return err
		}
	}
	parent := st.seg
	for i, cond := range []*Term{same, differ} {
		child := st.fork(f.newSegment(st.thread, parent))
		child.splitAt = loc
		if i == 0 {
			child.assumed = map[string]bool{}
			for _, r := range regs {
				child.assumed[r] = true
			}
		}
		f.assume(child, cond)
		if child.seg.Dead {
			continue
		}
		if err := f.walk(proc, loc, child); err != nil {
			return err
		}
	}
	return nil
}

// why says why the path from visit prev to visit now of loc is no retry,
// "" when it is one.
func (info *loopInfo) why(loc *xcfa.Location, prev, now *visit) string {
	if now.effects != prev.effects {
		return fmt.Sprintf("an iteration writes memory (%s)", now.lastSide)
	}
	for _, r := range slices.Sorted(maps.Keys(info.live[loc])) {
		if r == exclusiveReg {
			if now.lastX != prev.lastX {
				return "an iteration takes a reservation that the code after it uses"
			}
			continue
		}
		if now.regs[r] != prev.regs[r] && !now.assumed[r] || now.writers[r] != prev.writers[r] {
			return fmt.Sprintf("an iteration changes %s, which the code after the loop reads", registerName(r))
		}
	}
	for _, r := range slices.Sorted(maps.Keys(info.faint[loc])) {
		a, b := now.regs[r], prev.regs[r]
		if a != b && (a == nil || b == nil || a.Op != TermConst || b.Op != TermConst) {
			return fmt.Sprintf("an iteration changes %s to a value known only when it runs", registerName(r))
		}
	}
	// C: a branch an iteration leaves open (a continue inside an if)
	// ends past the loop, where it gives back the control dependencies of
	// its start, which hold those of the loop's start: the code after
	// the loop depends on the reads of the iterations cut off, and the
	// reduced program loses those pairs, as the model analysis allows
	// (eval's RetriesRemovable: ctrl may shrink). A branch opened before
	// the loop and closed in it would lose dependencies the loop's start
	// had.
	if len(now.scopes) < len(prev.scopes) {
		return "an iteration closes a branch opened before the loop"
	}
	for i, sc := range now.scopes {
		if i < len(prev.scopes) && sc.join != prev.scopes[i].join {
			return "an iteration closes a branch opened before the loop"
		}
		if i >= len(prev.scopes) && (!subset(prev.ctrl, sc.ctrl) || !subset(prev.ctrlPicks, sc.ctrlPicks)) {
			return "an iteration's branches change the control dependencies after the loop"
		}
	}
	return ""
}

// registerName names a register in a message: a C translation's
// temporary ($t3) is no name the test wrote.
func registerName(r string) string {
	if strings.HasPrefix(r, "$") {
		return "a value the statement computes on the way"
	}
	return "register " + r
}

// subset tells whether every event of the sorted list a is in b.
func subset(a, b []*Event) bool {
	for _, e := range a {
		if !slices.Contains(b, e) {
			return false
		}
	}
	return true
}

// cutWhy says why the path the bound cuts at loc made no retry there.
func (f *unfolder) cutWhy(proc *xcfa.Process, loc *xcfa.Location, st *pathState) string {
	switch {
	case f.retries < 0:
		return ""
	case !f.loops[proc].boundary[loc]:
		return "the loop comes back inside an instruction"
	case st.seen[loc] == nil:
		return ""
	}
	return st.seen[loc].why
}
