package events

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// EventKind says what an event does.
type EventKind uint8

// The event kinds. Init writes give every location its initial value.
const (
	KindInit EventKind = iota
	KindRead
	KindWrite
	KindFence
	KindBranch
	// Register events exist only in unfoldings made with register events
	// (herd's event structure, for models that compute dependencies
	// themselves): a read of a register by an instruction, a write of one.
	KindRegRead
	KindRegWrite
	// A mark is an event at a location that is no memory access (herd's
	// lock and SRCU events, xcfa.Mark): its tags say which.
	KindMark
)

// Event is one memory access, fence or branch of an unfolded program.
// Events of one thread form a tree (the unfolding): two events are in
// program order when one lies on the path to the other.
type Event struct {
	ID     int
	Thread int // the thread's place in the program (not its P-number); -1 for init writes
	Kind   EventKind
	Tags   []string
	Addr   *Term // reads and writes
	Val    *Term // writes: the value written; reads: the value read
	Size   int
	Seg    *Segment
	Depth  int // position along its path: program order is ancestry
	// Instr numbers the instruction instances along the path: events of one
	// instance (the read and write of a SWP) are not in program order, as in
	// herd7, where po orders instructions, not the events inside one.
	Instr int
	// Par places the event among the parallel parts of its instruction
	// instance: program order relates two events of one path unless they
	// are parallel (InParallel). In C, X86 and BPF it is the edge's
	// (xcfa.Edge.Par, xcfa.Program.OrderedInstrs): herd7 orders a
	// statement's events as its C semantics composes them (a cmpxchg's
	// fence, read, write and fence in sequence; the operands of a binary
	// operator in parallel), and an X86 or BPF read before the write that
	// depends on it. Elsewhere every event of an instruction instance is
	// a part of its own, as herd7's po orders AArch64's instructions, not
	// the events inside one.
	Par []xcfa.Par
	// ParRun tells apart the passes of a path through one composition:
	// a loop repeats its statements' edges, and a later iteration's
	// events are in program order after the earlier's, whatever their Par.
	ParRun int
	Pos    source.Pos
	// Code is the instruction the event comes from, in its thread's
	// process (xcfa.Edge.Instr): Program.Procs[Thread].Instr(Code).
	Code int
	Loc  string // init writes: the location

	// RMW is the other half of an atomic read-modify-write pair, or of a
	// load-exclusive / store-exclusive pair.
	RMW *Event
	// OneEvent marks the write half of a read-modify-write that herd7
	// builds as one event with its read (C11 atomics).
	OneEvent bool
	// InCo puts a mark among the events co orders (xcfa.Mark.InCo);
	// Observes says it only observes its location (xcfa.Mark.Observes).
	InCo, Observes bool

	AddrDeps, DataDeps, CtrlDeps []*Event // reads this event depends on
	// The reads it depends on only through a choice (pick dependencies).
	AddrPicks, DataPicks, CtrlPicks []*Event

	// With register events only. Reg names the register of a register
	// event. IicoData are the events of the same instruction whose values
	// this event takes (herd's iico_data), IicoCtrl those that choose it
	// (iico_ctrl); RegFrom is the register write a register read takes its
	// value from (rf-reg), nil for a register's initial value.
	Reg                string
	IicoData, IicoCtrl []*Event
	RegFrom            *Event
}

func (e *Event) IsRead() bool  { return e.Kind == KindRead }
func (e *Event) IsWrite() bool { return e.Kind == KindWrite || e.Kind == KindInit }
func (e *Event) IsMem() bool   { return e.IsRead() || e.IsWrite() }

// HasLoc tells whether the event is at a location: a memory access or a
// mark. loc relates such events.
func (e *Event) HasLoc() bool { return e.IsMem() || e.Kind == KindMark }

// InCoherence tells whether co orders the event: the writes, and the
// marks that ask for it.
func (e *Event) InCoherence() bool { return e.IsWrite() || (e.Kind == KindMark && e.InCo) }

// CoEvents are the events co orders, initial writes first, in the order of
// Events.
func (u *Unfolding) CoEvents() []*Event {
	var out []*Event
	for _, e := range u.Events {
		if e.InCoherence() {
			out = append(out, e)
		}
	}
	return out
}

// Writes are the unfolding's write events, initial writes first, in the
// order of Events.
func (u *Unfolding) Writes() []*Event {
	var writes []*Event
	for _, e := range u.Events {
		if e.IsWrite() {
			writes = append(writes, e)
		}
	}
	return writes
}

// isReg tells whether e is a register event.
func (e *Event) isReg() bool { return e.Kind == KindRegRead || e.Kind == KindRegWrite }

// IsReceive tells whether the event receives a message (C's recv): a read
// that may read from no write at all, and then holds Nothing.
func (e *Event) IsReceive() bool { return e.Kind == KindRead && e.HasTag("RECV") }

// Nothing is the value of a receive that got no message. Whether a receive
// may get nothing is the model's to say (stdlib/msg.cat); the engines offer
// the choice to every receive.
var Nothing = outcome.Int(-1)

func (e *Event) String() string {
	if e.Kind == KindInit {
		return fmt.Sprintf("init(%s)", e.Loc)
	}
	return fmt.Sprintf("e%d(P%d)", e.ID, e.Thread)
}

// HasTag tells whether the event belongs to the Cat set named tag.
func (e *Event) HasTag(tag string) bool { return hasTag(e.Tags, tag) }

// Segment is a straight-line piece of one thread's unfolding: it is
// executed whole or not at all. A segment with children ends in a choice
// of exactly one child; a segment without children ends the thread (or is
// Cut, when the unrolling bound stopped it, and is never executed). With
// UnfoldOptions.Prefixes, a leaf may also end the thread before its path
// ends (see prefixes.go), and the bound's cuts are leaves that execute,
// marked ReachesCut.
type Segment struct {
	ID       int
	Thread   int
	Parent   *Segment
	Children []*Segment
	Events   []*Event
	// Assumes must all be true when the segment executes.
	Assumes []*Term
	// Regs are the thread's registers at the end of a leaf segment.
	Regs map[string]*Term
	Cut  bool
	// ReachesCut marks, with UnfoldOptions.Prefixes, a leaf where the
	// unrolling bound stopped the path: it executes when the thread runs
	// up to the cut (where Cut would be set without Prefixes).
	ReachesCut bool
	// Ops are the operations the segment's instructions compute, with
	// where: herd7 evaluates every one on an executed path, and stops on
	// one it cannot evaluate (IllegalOps).
	Ops []OpSite
	// Dead segments can never execute (a store-exclusive that would
	// succeed without a reservation).
	Dead bool
}

// leaf tells whether the segment ends its thread's path.
func (s *Segment) leaf() bool { return len(s.Children) == 0 }

// Unfolding is a program unfolded into events.
type Unfolding struct {
	Events   []*Event
	Threads  int
	Roots    []*Segment // one per thread
	Segments []*Segment // all, parents before children
	// Leaves, per thread, are the segments that end a path (not cut);
	// with UnfoldOptions.Prefixes, the leaves where a thread stops early
	// and those that reach a cut too.
	Leaves [][]*Segment
	Terms  []*Term
	Cut    bool // some path was cut by the unrolling bound (herd's "Loop")
	Cuts   []CutSite
	// Retries are where paths were cut off by the retry rule
	// (UnfoldOptions.Retries); RetryAccesses, the accesses and marks of
	// the iterations cut off: in an execution, the removed events'
	// locations are theirs.
	Retries       []RetrySite
	RetryAccesses []*Event
	// RetryTags are the tags of the events of the iterations cut off:
	// every removed event of an execution carries only tags among them,
	// as its iteration, from the loop's state, is one the unfolding cut.
	RetryTags map[string]bool
	// Silent are the writes of the retries that write back what they
	// read (silent.go), one per instruction instance.
	Silent []SilentWrite
	// SilentFirst: no event before a silent retry's loop on its path may
	// access a location the retry's iteration accesses. In an execution,
	// then, no kept event is in program order before a removed event of
	// its location (eval.TestTags.SilentFirst).
	SilentFirst bool
	// SilentGap are the accesses before a silent retry's loop whose next
	// write to their location may be a failed attempt's (removed): in an
	// execution, the kept accesses next to which removing the attempts
	// leaves no write (eval.TestTags.GapFree).
	SilentGap []*Event
	// DepsMove: some retry was one because the path assumed registers
	// it changed to hold their old values (sameRegisters). In an
	// execution, a kept event's dependencies on such a register then come
	// from a removed read, and from a kept one once the retry is removed
	// (eval.TestTags.DepsMove).
	DepsMove bool
	// OwnWrites are the writes of the iterations cut off as retries that
	// wrote locations only their thread accesses (private.go): in an
	// execution, removed writes that only removed reads read.
	// SplitInstances: some such retry started inside an instruction, so
	// that an instance's events may be partly removed, and a kept event
	// of one instance joins the kept events of the next.
	OwnWrites      []*Event
	SplitInstances bool
	// RegisterEvents: the unfolding has herd's register events, and its
	// events carry IicoData, IicoCtrl and RegFrom.
	RegisterEvents bool
}

// unfoldLimit bounds the events of one unfolding: past it, a test is
// refused rather than exhausting memory.
const unfoldLimit = 20000

type unfolder struct {
	ctx    context.Context
	u      *Unfolding
	terms  map[termKey]*Term // hash-consed operation terms
	unroll int
	rmwIDs int
	regs   bool // make register events
	// noBranches: no branch (commit) events, and control dependencies
	// end where the branches join (joins.go): xcfa.Program.NoBranchEvents.
	noBranches bool
	// unorderedInstrs: no two events of one instruction are in program
	// order (xcfa.Program.OrderedInstrs).
	unorderedInstrs bool
	join            map[*xcfa.Location]*xcfa.Location // the current process's
	retries         int                               // UnfoldOptions.Retries
	learn           bool                              // UnfoldOptions.Learn
	assumeSame      bool                              // UnfoldOptions.AssumeSame
	loops           map[*xcfa.Process]*loopInfo       // with retries: each process's
	opsNoted        map[[2]int]bool                   // (segment, term) pairs in Segment.Ops
	prefixes        bool                              // UnfoldOptions.Prefixes
	oneEvent        map[int]bool                      // with prefixes: the current process's RMW ids whose write is OneEvent
	noSilent        bool                              // take no silent retry (silent.go)
	locationValues  func(outcome.Value) ([]outcome.Value, bool)
	silent          []silentCandidate // the retries taken as silent, checked once unfolded
	// With UnfoldOptions.OwnLatest: the locations only one process
	// accesses, by process index (private.go), and the initial values.
	own     []map[outcome.Value]bool
	initMem map[outcome.Value]outcome.Value
	shown   func(outcome.Value) bool
}

// ctrlScope is a C branch being walked: at join, the control
// dependencies return to ctrl and ctrlPicks.
type ctrlScope struct {
	join            *xcfa.Location
	ctrl, ctrlPicks []*Event
}

type pathState struct {
	thread    int // the thread's index in the program, not its P-number
	seg       *Segment
	depth     int
	regs      map[string]*Term
	visits    map[*xcfa.Location]int
	ctrl      []*Event       // reads the path's branches depend on
	ctrlPicks []*Event       // reads the path's branches depend on by a pick
	scopes    []ctrlScope    // C: the branches whose join is ahead
	openRMW   map[int]*Event // xcfa RMW id → its read half on this path
	lastX     *Event         // latest load-exclusive on this path
	instr     int            // the current instruction instance
	code      int            // the instruction of the current instance (xcfa.Edge.Instr)
	lastPos   source.Pos     // where the current instance starts
	par       []xcfa.Par     // the current edge's place among parallel parts
	parRun    int            // counts the runs of edges of one outermost composition (Event.ParRun)
	// With register events: the latest write of each register on this
	// path, and what the current instruction has read and written.
	regWriter map[string]*Event
	cur       *instrRegs
	// With retries: the path's state at its latest visit to each
	// location, and its writes and marks so far.
	seen     map[*xcfa.Location]*visit
	effects  int
	lastSide source.Pos
	sides    []*Event // the writes and marks, effects of them
	// With prefixes: the path has read the read half of a pair herd7
	// builds as one event, and not yet written its write half.
	fusedOpen bool
	known     map[*Term]outcome.Value   // with retries: the values the path's assumptions fixed
	knownNot  map[*Term][]outcome.Value // and those they ruled out
	unequal   map[[2]*Term]bool         // and the pairs of terms they made unequal, both ways
	equal     map[[2]*Term]bool         // or equal
	// A path forked at a visit to a location to split on whether the
	// registers changed since its previous visit hold their values of then
	// (see sameRegisters): at that visit, the registers it assumed equal,
	// or, on the other side, none.
	splitAt *xcfa.Location
	assumed map[string]bool
	// With own locations: the thread's latest write to each.
	ownLast map[outcome.Value]*Event
}

func (p *pathState) fork(seg *Segment) *pathState {
	q := &pathState{thread: p.thread, seg: seg, depth: p.depth, regs: make(map[string]*Term, len(p.regs)),
		visits: make(map[*xcfa.Location]int, len(p.visits)), ctrl: p.ctrl, ctrlPicks: p.ctrlPicks, scopes: p.scopes,
		openRMW: make(map[int]*Event, len(p.openRMW)), lastX: p.lastX, instr: p.instr, code: p.code, lastPos: p.lastPos, par: p.par, parRun: p.parRun,
		effects: p.effects, lastSide: p.lastSide, sides: p.sides[:len(p.sides):len(p.sides)], fusedOpen: p.fusedOpen}
	if p.known != nil {
		q.known = maps.Clone(p.known)
	}
	if p.knownNot != nil {
		// Each list is clipped: an append copies it.
		q.knownNot = maps.Clone(p.knownNot)
	}
	if p.unequal != nil {
		q.unequal = maps.Clone(p.unequal)
	}
	if p.equal != nil {
		q.equal = maps.Clone(p.equal)
	}
	if p.ownLast != nil {
		q.ownLast = maps.Clone(p.ownLast)
	}
	if p.seen != nil {
		q.seen = make(map[*xcfa.Location]*visit, len(p.seen))
		for k, v := range p.seen {
			q.seen[k] = v
		}
	}
	if p.regWriter != nil {
		q.regWriter = make(map[string]*Event, len(p.regWriter))
		for k, v := range p.regWriter {
			q.regWriter[k] = v
		}
		q.cur = p.cur.clone()
	}
	for k, v := range p.regs {
		q.regs[k] = v
	}
	for k, v := range p.visits {
		q.visits[k] = v
	}
	for k, v := range p.openRMW {
		q.openRMW[k] = v
	}
	return q
}

// Unfold unrolls every process of prog up to unroll iterations of each loop.
// initRegs gives the registers' initial values (unlisted registers hold 0);
// initMem lists every location with its initial value.
func Unfold(prog *xcfa.Program, unroll int, initRegs map[int]map[string]outcome.Value, initMem map[outcome.Value]outcome.Value) (*Unfolding, error) {
	return UnfoldContext(context.Background(), prog, unroll, initRegs, initMem)
}

// UnfoldContext is Unfold that gives up, returning ctx.Err(), when ctx is done.
func UnfoldContext(ctx context.Context, prog *xcfa.Program, unroll int, initRegs map[int]map[string]outcome.Value, initMem map[outcome.Value]outcome.Value) (*Unfolding, error) {
	return UnfoldWith(ctx, prog, UnfoldOptions{Unroll: unroll, Retries: -1}, initRegs, initMem)
}

// UnfoldRegisterEvents is UnfoldContext with herd's register events: every
// instruction reads and writes registers through events of its own, related
// by iico_data, iico_ctrl and rf-reg, so that a model can compute
// dependencies as herd's catdep models do. They are in no memory set.
func UnfoldRegisterEvents(ctx context.Context, prog *xcfa.Program, unroll int, initRegs map[int]map[string]outcome.Value, initMem map[outcome.Value]outcome.Value) (*Unfolding, error) {
	return UnfoldWith(ctx, prog, UnfoldOptions{Unroll: unroll, Registers: true, Retries: -1}, initRegs, initMem)
}

// UnfoldWith is UnfoldContext with the options opt.
func UnfoldWith(ctx context.Context, prog *xcfa.Program, opt UnfoldOptions, initRegs map[int]map[string]outcome.Value, initMem map[outcome.Value]outcome.Value) (*Unfolding, error) {
	u, silent, err := unfold(ctx, prog, opt, initRegs, initMem, false)
	if err != nil || silent {
		return u, err
	}
	u, _, err = unfold(ctx, prog, opt, initRegs, initMem, true) // a silent retry was none: unfold without them
	return u, err
}

// unfold is UnfoldWith, taking no silent retry when noSilent; silent
// tells whether the silent retries it took (if any) are silent.
func unfold(ctx context.Context, prog *xcfa.Program, opt UnfoldOptions, initRegs map[int]map[string]outcome.Value, initMem map[outcome.Value]outcome.Value, noSilent bool) (u *Unfolding, silent bool, err error) {
	regs := opt.Registers
	f := &unfolder{ctx: ctx, u: &Unfolding{Threads: len(prog.Procs), RegisterEvents: regs}, unroll: opt.Unroll, retries: opt.Retries,
		terms: map[termKey]*Term{}, opsNoted: map[[2]int]bool{}, regs: regs, noBranches: prog.NoBranchEvents, unorderedInstrs: !prog.OrderedInstrs,
		prefixes: opt.Prefixes, noSilent: noSilent || opt.Prefixes, locationValues: opt.LocationValues, learn: opt.Learn, assumeSame: opt.AssumeSame && opt.Retries >= 0}
	var consts []map[string]outcome.Value // each process's, with own locations
	if f.retries >= 0 && opt.OwnLatest && !regs {
		for _, proc := range prog.Procs {
			consts = append(consts, constRegisters(proc, initRegs))
		}
		f.own, f.initMem, f.shown = ownLocations(prog, consts), initMem, opt.Shown
	}
	if f.retries >= 0 {
		f.loops = map[*xcfa.Process]*loopInfo{}
		for i, proc := range prog.Procs {
			info := analyseLoops(proc, opt.FinalRegs, regs)
			if f.own != nil && f.own[i] != nil {
				info.own = f.own[i]
				info.ownLive = ownLiveness(proc, info.own, consts[i])
			}
			f.loops[proc] = info
		}
	}
	cells := make([]outcome.Value, 0, len(initMem))
	for a := range initMem {
		cells = append(cells, a)
	}
	sortValues(cells)
	for _, l := range cells {
		e := &Event{ID: len(f.u.Events), Thread: -1, Kind: KindInit, Loc: l.String(),
			Addr: f.constTerm(l), Val: f.constTerm(initMem[l])}
		f.u.Events = append(f.u.Events, e)
	}
	f.u.Leaves = make([][]*Segment, len(prog.Procs))
	for i, proc := range prog.Procs {
		root := f.newSegment(i, nil)
		f.u.Roots = append(f.u.Roots, root)
		st := &pathState{thread: i, seg: root, regs: map[string]*Term{}, visits: map[*xcfa.Location]int{}, openRMW: map[int]*Event{}}
		if f.retries >= 0 {
			st.seen = map[*xcfa.Location]*visit{}
		}
		if regs {
			st.regWriter = map[string]*Event{}
			st.cur = newInstrRegs()
		}
		for r, v := range initRegs[proc.ID] {
			st.regs[r] = f.constTerm(v)
		}
		if f.noBranches {
			f.join = joins(proc)
		}
		if f.prefixes {
			f.oneEvent = oneEventRMWs(proc)
		}
		if err := f.walk(proc, proc.Init, st); err != nil {
			return nil, false, err
		}
	}
	silent = f.checkSilent()
	f.ownGaps()
	return f.u, silent, nil
}

func (f *unfolder) newSegment(thread int, parent *Segment) *Segment {
	s := &Segment{ID: len(f.u.Segments), Thread: thread, Parent: parent}
	f.u.Segments = append(f.u.Segments, s)
	if parent != nil {
		parent.Children = append(parent.Children, s)
	}
	return s
}

func (f *unfolder) walk(proc *xcfa.Process, loc *xcfa.Location, st *pathState) error {
	for {
		if err := f.ctx.Err(); err != nil {
			return err
		}
		if len(f.u.Events) > unfoldLimit {
			return fmt.Errorf("%s: the unfolding exceeds %d events; lower --unroll", proc.Name, unfoldLimit)
		}
		for len(st.scopes) > 0 && st.scopes[len(st.scopes)-1].join == loc {
			top := st.scopes[len(st.scopes)-1]
			st.ctrl, st.ctrlPicks = top.ctrl, top.ctrlPicks
			st.scopes = st.scopes[:len(st.scopes)-1]
		}
		st.visits[loc]++
		if f.retries >= 0 {
			if same := f.sameRegisters(proc, loc, st); same != nil {
				st.visits[loc]--
				return f.splitOnRegisters(proc, loc, st, same)
			}
			if f.retry(proc, loc, st) {
				return nil
			}
		}
		if st.visits[loc] > f.unroll+1 {
			f.u.Cut = true
			f.u.Cuts = append(f.u.Cuts, CutSite{Thread: st.thread, Pos: locPos(loc), Why: f.cutWhy(proc, loc, st)})
			if f.prefixes {
				return f.reachCut(loc, st)
			}
			st.seg.Cut = true
			return nil
		}
		switch len(loc.Out) {
		case 0:
			st.seg.Regs = st.regs
			f.u.Leaves[st.thread] = append(f.u.Leaves[st.thread], st.seg)
			return nil
		case 1:
			e := loc.Out[0]
			if a, ok := e.Op.(xcfa.Assume); ok && !a.Internal {
				// An indirect jump with one possible target is still a
				// branch: it makes a branch event and control dependencies.
				t, err := f.condition(proc, e, a, st)
				if err != nil {
					return err
				}
				var src sources
				if f.regs {
					st.enter(e)
					f.exprSources(a.Cond, st, false, false, &src)
				}
				f.branch(proc, e, []*Term{t}, st, src, false)
			}
			if err := f.apply(proc, e, st); err != nil {
				return err
			}
			if st.seg.Dead {
				return nil
			}
			loc = e.To
			continue
		}
		// A choice: a program branch when its edges test conditions.
		var conds []*Term
		var src sources
		isBranch := false
		for _, e := range loc.Out {
			if a, ok := e.Op.(xcfa.Assume); ok && !a.Internal {
				isBranch = true
				t, err := f.condition(proc, e, a, st)
				if err != nil {
					return err
				}
				conds = append(conds, t)
				if f.regs {
					st.enter(e) // the branch is its own instruction's
					f.exprSources(a.Cond, st, false, false, &src)
				}
			}
		}
		if isBranch {
			if j := f.join[loc]; j != nil {
				st.scopes = append(st.scopes[:len(st.scopes):len(st.scopes)], ctrlScope{join: j, ctrl: st.ctrl, ctrlPicks: st.ctrlPicks})
			}
			f.branch(proc, loc.Out[0], conds, st, src, true)
		}
		parent := st.seg
		storeExclusive := false
		for _, e := range loc.Out {
			if s, ok := e.Op.(xcfa.Store); ok && hasTag(s.Tags, "X") && s.RMW == 0 {
				storeExclusive = true
			}
		}
		for _, e := range loc.Out {
			child := st.fork(f.newSegment(st.thread, parent))
			if storeExclusive {
				if s, ok := e.Op.(xcfa.Store); !ok || !hasTag(s.Tags, "X") {
					// A failing store-exclusive also ends the reservation.
					child.lastX = nil
				}
			}
			if err := f.apply(proc, e, child); err != nil {
				return err
			}
			if child.seg.Dead {
				continue // its assumption is false whatever the values
			}
			if err := f.walk(proc, e.To, child); err != nil {
				return err
			}
		}
		return nil
	}
}

// branch adds a branch event testing conds: later events depend on the
// reads the conditions depend on.
func (f *unfolder) branch(proc *xcfa.Process, edge *xcfa.Edge, conds []*Term, st *pathState, src sources, conditional bool) {
	var deps, picks []*Event
	for _, t := range conds {
		deps = mergeEvents(deps, t.deps)
		picks = mergeEvents(picks, t.picks)
	}
	st.ctrl = mergeEvents(st.ctrl, deps)
	st.ctrlPicks = mergeEvents(st.ctrlPicks, picks)
	if f.noBranches {
		return
	}
	b := f.newEvent(proc, KindBranch, edge.Pos, edge.Instr, st)
	b.DataDeps, b.DataPicks = deps, picks
	if f.regs {
		b.IicoData, b.IicoCtrl = src.data, src.ctrl
		if conditional {
			b.Tags = []string{"BCC"} // herd's conditional branch commit
		}
	}
}

func (f *unfolder) newEvent(proc *xcfa.Process, kind EventKind, pos source.Pos, code int, st *pathState) *Event {
	if f.prefixes && kind == KindRead {
		f.stopBefore(st)
	}
	st.depth++
	e := &Event{ID: len(f.u.Events), Thread: st.thread, Kind: kind, Seg: st.seg, Depth: st.depth, Pos: pos, Code: code,
		Instr: st.instr, Par: st.par, ParRun: st.parRun, CtrlDeps: st.ctrl, CtrlPicks: st.ctrlPicks}
	if f.unorderedInstrs {
		// Parts of one composition per instruction instance (negative:
		// the C front end numbers its compositions from 1), whatever
		// edges of the instruction they come from.
		e.Par = []xcfa.Par{{Node: -st.instr, Branch: e.ID}}
		e.ParRun = 0
	}
	f.u.Events = append(f.u.Events, e)
	st.seg.Events = append(st.seg.Events, e)
	if kind == KindWrite {
		f.sideEffect(e, st)
	}
	return e
}

// sideEffect counts e, a write or a mark that does more than observe, as
// an effect of the path: an iteration with one is no retry.
func (f *unfolder) sideEffect(e *Event, st *pathState) {
	st.effects++
	st.lastSide = e.Pos
	if f.retries >= 0 {
		st.sides = append(st.sides, e)
	}
}

// condition is the term of a branch's condition, computed by the
// branch's instruction (Segment.Ops names it).
func (f *unfolder) condition(proc *xcfa.Process, e *xcfa.Edge, a xcfa.Assume, st *pathState) (*Term, error) {
	pos, code := st.lastPos, st.code
	st.lastPos, st.code = e.Pos, e.Instr
	defer func() { st.lastPos, st.code = pos, code }()
	t, err := f.term(a.Cond, st)
	if err != nil {
		return nil, atEdge(proc, e, err)
	}
	return t, nil
}

// atEdge positions an error of an edge's operation: an operation with no
// value on an address (folded from constants) as IllegalOp says it.
func atEdge(proc *xcfa.Process, edge *xcfa.Edge, err error) error {
	if OnAddress(err) {
		return source.Errorf(edge.Pos, "%s", illegal(proc.Instr(edge.Instr).Text, err))
	}
	return source.Errorf(edge.Pos, "%v", err)
}

// assume adds an assumption to the path: it is dead when the assumption
// is false whatever the values, or, when the unfolding learns, when it
// contradicts what earlier ones fixed.
func (f *unfolder) assume(st *pathState, t *Term) {
	learning := f.retries >= 0 || f.learn
	if v, ok := termValue(t, st.known, learning); ok && !Truth(v) || learning && st.ruledOut(t) {
		st.seg.Dead = true // no execution takes this path
	}
	if learning {
		st.learn(t)
	}
	st.seg.Assumes = append(st.seg.Assumes, t)
}

// apply performs one edge's operation on the path state.
func (f *unfolder) apply(proc *xcfa.Process, edge *xcfa.Edge, st *pathState) error {
	st.enter(edge)
	if len(edge.Par) == 0 || len(st.par) == 0 || edge.Par[0].Node != st.par[0].Node {
		// A composition's edges follow one another along a path: a new
		// outermost one (or a new pass through the same) starts here.
		st.parRun++
	}
	st.par = edge.Par
	wrap := func(err error) error { return atEdge(proc, edge, err) }
	switch op := edge.Op.(type) {
	case xcfa.Nop:
	case xcfa.Assign:
		t, err := f.term(op.Value, st)
		if err != nil {
			return wrap(err)
		}
		if f.regs {
			var src sources
			f.exprSources(op.Value, st, false, false, &src)
			f.writeReg(proc, edge, op.Dst, src, st)
		}
		st.regs[op.Dst] = t
	case xcfa.Assume:
		t, err := f.term(op.Cond, st)
		if err != nil {
			return wrap(err)
		}
		var src sources
		if f.regs {
			// An instruction's own test (a CAS comparing) still reads
			// its registers.
			f.exprSources(op.Cond, st, false, false, &src)
		}
		if op.Commit {
			// herd's commit of a CAS that succeeds: a branch event of the
			// instruction, in program order, deciding no later event.
			b := f.newEvent(proc, KindBranch, edge.Pos, edge.Instr, st)
			b.IicoData = mergeEvents(src.data, src.ctrl)
		}
		f.assume(st, t)
	case xcfa.Load:
		addr, err := f.term(op.Addr, st)
		if err != nil {
			return wrap(err)
		}
		var src sources
		if f.regs {
			f.exprSources(op.Addr, st, false, false, &src)
		}
		e := f.newEvent(proc, KindRead, edge.Pos, edge.Instr, st)
		e.Tags, e.Addr, e.Size, e.AddrDeps, e.AddrPicks = op.Tags, addr, op.Size, addr.deps, addr.picks
		e.IicoData, e.IicoCtrl = src.data, src.ctrl
		e.Val = f.readTerm(e)
		if op.RMW != 0 {
			st.openRMW[op.RMW] = e
			st.fusedOpen = st.fusedOpen || f.oneEvent[op.RMW]
		}
		f.readOwn(e, st)
		if e.HasTag("X") {
			st.lastX = e
		}
		// A load of fewer than 8 bytes zero-extends what it reads.
		v := e.Val
		if narrow, ok := zextOf[op.Size]; ok {
			if v, err = f.unaryTerm(narrow, v); err != nil {
				return wrap(err)
			}
			f.noteOp(v, st)
		}
		if op.Dst != "" {
			if f.regs {
				f.writeReg(proc, edge, op.Dst, sources{data: []*Event{e}}, st)
			}
			st.regs[op.Dst] = v
		}
	case xcfa.Store:
		addr, err := f.term(op.Addr, st)
		if err != nil {
			return wrap(err)
		}
		val, err := f.term(op.Value, st)
		if err != nil {
			return wrap(err)
		}
		// A store of fewer than 8 bytes writes the low bytes of its value.
		if narrow, ok := zextOf[op.Size]; ok {
			if val, err = f.unaryTerm(narrow, val); err != nil {
				return wrap(err)
			}
			f.noteOp(val, st)
		}
		var src sources
		if f.regs {
			f.exprSources(op.Addr, st, false, false, &src)
			f.exprSources(op.Value, st, true, false, &src)
		}
		e := f.newEvent(proc, KindWrite, edge.Pos, edge.Instr, st)
		if op.OneEvent {
			st.fusedOpen = false
		}
		e.Tags, e.Addr, e.Val, e.Size, e.OneEvent = op.Tags, addr, val, op.Size, op.OneEvent
		f.writeOwn(e, st)
		e.IicoData, e.IicoCtrl = src.data, src.ctrl
		e.AddrDeps, e.DataDeps = addr.deps, val.deps
		e.AddrPicks, e.DataPicks = addr.picks, val.picks
		var partner *Event
		if op.RMW != 0 {
			partner = st.openRMW[op.RMW]
			if partner == nil {
				return wrap(fmt.Errorf("the write half of atomic pair %d has no read half before it", op.RMW))
			}
			delete(st.openRMW, op.RMW)
		} else if e.HasTag("X") {
			partner = st.lastX
			st.lastX = nil
			switch {
			case partner == nil || partner.Size != e.Size:
				// No load-exclusive of this size holds a reservation: herd's
				// store-exclusive can only fail, so this (successful) path
				// never executes.
				st.seg.Dead = true
				partner = nil
			default:
				// Success at another address than the reservation's is
				// constrained unpredictable, which herd7 leaves out.
				same := f.addTerm(&Term{Op: TermBinary, Bin: xcfa.Eq, Args: []*Term{partner.Addr, e.Addr}})
				st.seg.Assumes = append(st.seg.Assumes, same)
			}
		}
		if partner != nil {
			e.RMW, partner.RMW = partner, e
		}
		if op.Status != "" {
			// The status is 0, a value that depends on the store: a
			// constant term that carries dependencies, which term never
			// folds away.
			deps := mergeEvents([]*Event{e}, mergeEvents(addr.deps, val.deps))
			status := f.addTerm(&Term{Op: TermConst, Val: outcome.Int(0), deps: deps})
			if f.regs {
				f.writeReg(proc, edge, op.Status, sources{data: []*Event{e}}, st)
			}
			st.regs[op.Status] = status
		}
	case xcfa.Fence:
		e := f.newEvent(proc, KindFence, edge.Pos, edge.Instr, st)
		e.Tags = op.Tags
	case xcfa.Mark:
		addr, err := f.term(op.Addr, st)
		if err != nil {
			return wrap(err)
		}
		if op.NewInstr {
			st.instr++
		}
		e := f.newEvent(proc, KindMark, edge.Pos, edge.Instr, st)
		e.Tags, e.Addr, e.AddrDeps, e.AddrPicks, e.InCo, e.Observes = op.Tags, addr, addr.deps, addr.picks, op.InCo, op.Observes
		if !op.Observes {
			f.sideEffect(e, st)
		}
		if op.Value != nil {
			if e.Val, err = f.term(op.Value, st); err != nil {
				return wrap(err)
			}
			e.DataDeps, e.DataPicks = e.Val.deps, e.Val.picks
		}
	default:
		return wrap(fmt.Errorf("unknown operation %T", op))
	}
	return nil
}

// mergeEvents returns the sorted union of two sorted event lists.
func mergeEvents(a, b []*Event) []*Event {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]*Event, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].ID < b[j].ID:
			out = append(out, a[i])
			i++
		case a[i].ID > b[j].ID:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// zextOf gives the operator that keeps the low bytes of a narrow access.
var zextOf = map[int]xcfa.UnOp{1: xcfa.Zext8, 2: xcfa.Zext16, 4: xcfa.Zext32}

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// InAmo tells whether the read-modify-write pair of r and w belongs to
// herd's amo relation as well as to rmw. herd's amo is the pairs of one
// instruction (AArch64's SWP and LDADD, X86's XCHG and LOCK-prefixed
// instructions, RISC-V's AMOs), not the exclusive pairs, whose read and
// write are two instructions (AArch64's LDXR and STXR, marked X). Pairs
// without X, or with SC (BPF's fully ordered atomics), are amo as their
// front ends build them.
func InAmo(r, w *Event) bool {
	return !w.HasTag("X") || w.HasTag("SC") || SameInstruction(r, w)
}

// OneEventPairs maps the write half of every read-modify-write that herd7
// builds as one event to its read half: a model sees each such pair as the
// read half alone, both read and write (see eval.Algebra.Fuse).
func (u *Unfolding) OneEventPairs() map[int]int {
	var out map[int]int
	for _, e := range u.Events {
		if e.OneEvent && e.RMW != nil {
			if out == nil {
				out = map[int]int{}
			}
			out[e.ID] = e.RMW.ID
		}
	}
	return out
}

// staticValue is a term's value when it is the same in every execution:
// a constant, even one that carries dependencies (a store-conditional's
// status), or an operation on such terms, or x^x. An assumption that is
// statically false ends its path (a successful store-conditional does not
// go round its retry loop again).
//
// known adds the values the path's assumptions fixed (pathState.learn).
func staticValue(t *Term, known map[*Term]outcome.Value) (outcome.Value, bool) {
	return termValue(t, known, false)
}

// termValue computes t from the values known gives terms (reads), false
// when one it needs is unknown or an operation is undefined; a choice (a
// conditional, a pick) only when choices, which staticValue leaves
// unknown.
func termValue(t *Term, known map[*Term]outcome.Value, choices bool) (outcome.Value, bool) {
	if v, ok := known[t]; ok {
		return v, true
	}
	switch t.Op {
	case TermConst:
		return t.Val, true
	case TermBinary:
		if t.Cancels() {
			return outcome.Int(0), true
		}
		a, ok := termValue(t.Args[0], known, choices)
		if !ok {
			return a, false
		}
		b, ok := termValue(t.Args[1], known, choices)
		if !ok {
			return b, false
		}
		v, err := ApplyBinary(t.Bin, a, b)
		return v, err == nil
	case TermUnary:
		a, ok := termValue(t.Args[0], known, choices)
		if !ok {
			return a, false
		}
		v, err := ApplyUnary(t.Un, a)
		return v, err == nil
	case TermPick:
		if choices {
			return termValue(t.Args[1], known, choices)
		}
	case TermIte:
		if !choices {
			break
		}
		c, ok := termValue(t.Args[0], known, choices)
		if !ok {
			return c, false
		}
		if Truth(c) {
			return termValue(t.Args[1], known, choices)
		}
		return termValue(t.Args[2], known, choices)
	}
	return outcome.Value{}, false
}

// learn notes what an assumption of the path fixes: a term equal to a
// known value has it on the rest of the path, a term unequal to one never
// takes it, and two terms it compares are equal or unequal, where
// assumptions that contradict it end the path (a CAS that succeeded does
// not go round its retry loop, one that failed does not go on).
func (st *pathState) learn(t *Term) {
	if t.Op != TermBinary || t.Bin != xcfa.Eq && t.Bin != xcfa.Ne {
		return
	}
	a, b := compared(t)
	x, v, ok := st.oneSideKnown(a, b)
	if !ok {
		pairs := &st.equal
		if t.Bin == xcfa.Ne {
			pairs = &st.unequal
		}
		if *pairs == nil {
			*pairs = map[[2]*Term]bool{}
		}
		(*pairs)[[2]*Term{a, b}] = true
		(*pairs)[[2]*Term{b, a}] = true
		return
	}
	if t.Bin == xcfa.Ne {
		if st.knownNot == nil {
			st.knownNot = map[*Term][]outcome.Value{}
		}
		st.knownNot[x] = slices.Clip(append(st.knownNot[x], v))
		return
	}
	if st.known == nil {
		st.known = map[*Term]outcome.Value{}
	}
	st.known[x] = v
}

// ruledOut tells whether t is a comparison the path's assumptions ruled
// out: an equality of a term with a value it does not take or of two
// terms made unequal, an inequality of a term with itself or of two terms
// made equal.
func (st *pathState) ruledOut(t *Term) bool {
	if t.Op != TermBinary || t.Bin != xcfa.Eq && t.Bin != xcfa.Ne {
		return false
	}
	a, b := compared(t)
	if t.Bin == xcfa.Ne {
		return a == b || st.equal[[2]*Term{a, b}]
	}
	if st.differ(a, b) {
		return true
	}
	x, v, ok := st.oneSideKnown(a, b)
	return ok && slices.Contains(st.knownNot[x], v)
}

// differ tells whether the path's assumptions made two terms unequal:
// themselves, or the operands where an injective operation on a common
// operand takes them apart (e+1 and v+1 when e and v differ).
func (st *pathState) differ(a, b *Term) bool {
	if st.unequal[[2]*Term{a, b}] {
		return true
	}
	if a.Op != TermBinary || b.Op != TermBinary || a.Bin != b.Bin || a.Bin != xcfa.Add && a.Bin != xcfa.Sub && a.Bin != xcfa.Xor {
		return false
	}
	switch {
	case a.Args[0] == b.Args[0]:
		return st.differ(a.Args[1], b.Args[1])
	case a.Args[1] == b.Args[1]:
		return st.differ(a.Args[0], b.Args[0])
	}
	return false
}

// oneSideKnown splits two compared terms one of which the path knows the
// value of: the unknown one and the value.
func (st *pathState) oneSideKnown(a, b *Term) (*Term, outcome.Value, bool) {
	va, aKnown := termValue(a, st.known, true)
	vb, bKnown := termValue(b, st.known, true)
	if aKnown == bKnown {
		return nil, outcome.Value{}, false
	}
	if aKnown {
		return b, va, true
	}
	return a, vb, true
}

// compared gives the two terms a comparison compares, each reduced to a
// subterm of the same value (sameValue), and both stripped of a sign-
// extension that takes no two of their values to one: an AArch64 CMP
// compares sign-extensions of the zero-extended values a CAS compared.
func compared(t *Term) (a, b *Term) {
	a, b = sameValue(t.Args[0]), sameValue(t.Args[1])
	for a.Op == TermUnary && b.Op == TermUnary && a.Un == b.Un {
		width, ok := sextWidth[a.Un]
		x, y := sameValue(a.Args[0]), sameValue(b.Args[0])
		if !ok || keptBits(x) > width || keptBits(y) > width {
			break
		}
		a, b = x, y
	}
	return a, b
}

// sameValue reduces t to a subterm of the same value: a pick to what it
// picks, a zero-extension of a term it keeps whole to the term.
func sameValue(t *Term) *Term {
	switch {
	case t.Op == TermPick:
		return sameValue(t.Args[1])
	case keptBits(t) < 64:
		if inner := sameValue(t.Args[0]); keptBits(inner) <= keptBits(t) {
			return inner
		}
	}
	return t
}

// keptBits gives the bits that t, a zero-extension, keeps: 64 for any other
// term.
func keptBits(t *Term) int {
	if w, ok := zextWidth[t.Un]; ok && t.Op == TermUnary {
		return w
	}
	return 64
}

// sextWidth gives the bits a sign-extension reads.
var sextWidth = map[xcfa.UnOp]int{xcfa.Sext8: 8, xcfa.Sext16: 16, xcfa.Sext32: 32}

// zextWidth gives the bits a zero-extension keeps.
var zextWidth = map[xcfa.UnOp]int{xcfa.Zext8: 8, xcfa.Zext16: 16, xcfa.Zext32: 32}
