package events

import (
	"iter"
	"maps"
	"slices"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// Prefixes: partial executions, for the question whether a bound is
// enough (mcm's cutReachable).
//
// With UnfoldOptions.Prefixes, every thread may stop before any read of
// its path: before each read the path forks into an empty leaf, where the
// thread stops (its registers as they are), and the segment where it goes
// on. A cut of the bound is a leaf that executes, marked ReachesCut. An
// execution of such an unfolding is a partial execution: each thread runs
// a prefix of one of its paths, the path's assumptions holding up to where
// it stops.
//
// Stops before reads are enough: the argument that the bound is enough
// ends each thread before its first event that depends, through path
// order and rf, on an event past a cut (mcm's boundcheck.go), or at its
// own cut. That event is not reached along its path, or the event before
// it would be the first, so it is reached by rf: a read. The stops lie
// inside instructions too, as that read may follow events of its own
// instruction. No stop falls between the halves of a read-modify-write,
// its write being no read; a cut inside the instruction may, and its
// read then runs alone, in RMW with no pair in rmw, as in the restriction
// of a complete execution to the events kept. But a pair herd7 builds as
// one event (Store.OneEvent, C11's atomics) is one event to the model: a
// cut between its halves, which the front ends build adjacent, is
// refused (reachCut).

// stopBefore forks the path before its next event, a read: a leaf where
// the thread stops, and the segment where it goes on.
func (f *unfolder) stopBefore(st *pathState) {
	stop := f.newSegment(st.thread, st.seg)
	stop.Regs = maps.Clone(st.regs) // the path goes on changing st.regs
	f.u.Leaves[st.thread] = append(f.u.Leaves[st.thread], stop)
	st.seg = f.newSegment(st.thread, st.seg)
}

// reachCut ends a path the bound cuts at loc with a leaf that executes
// when the thread gets there.
func (f *unfolder) reachCut(loc *xcfa.Location, st *pathState) error {
	if st.fusedOpen {
		return source.Errorf(locPos(loc), "the unrolling bound cuts a loop between the read and the write of a read-modify-write")
	}
	st.seg.ReachesCut = true
	st.seg.Regs = st.regs
	f.u.Leaves[st.thread] = append(f.u.Leaves[st.thread], st.seg)
	return nil
}

// oneEventRMWs lists the read-modify-write pairs of a process that herd7
// builds as one event, by their RMW id.
func oneEventRMWs(proc *xcfa.Process) map[int]bool {
	out := map[int]bool{}
	for _, e := range proc.Edges {
		if s, ok := e.Op.(xcfa.Store); ok && s.RMW != 0 && s.OneEvent {
			out[s.RMW] = true
		}
	}
	return out
}

// CutLeaves are the leaves that reach a cut of the bound, in the order of
// Segments: with UnfoldOptions.Prefixes, the segments whose execution
// goes past the bound.
func (u *Unfolding) CutLeaves() []*Segment {
	var out []*Segment
	for _, s := range u.Segments {
		if s.ReachesCut {
			out = append(out, s)
		}
	}
	return out
}

// parallelToWrites yields each write with each event before it on its
// path that is a parallel part of its instruction, which program order
// leaves unordered with it.
func (u *Unfolding) parallelToWrites() iter.Seq2[*Event, *Event] {
	return func(yield func(x, w *Event) bool) {
		for _, w := range u.Events {
			if w.Kind != KindWrite {
				continue
			}
			for _, x := range parallelBefore(w) {
				if InParallel(x, w) && !yield(x, w) {
					return
				}
			}
		}
	}
}

// UnorderedReadWrite finds a read and a later write of one path that
// program order leaves unordered, parallel parts of one instruction
// (AArch64's SWP, X86's XCHG, the operands of a C operator that both
// access memory), but the halves of a pair herd7 builds as one event
// (the model sees one event, which po ∪ rf orders as a whole); ok is
// false when there is none. The argument that a bound is enough needs
// path order and rf to be acyclic, and a model's "acyclic po | rf" says
// nothing of such a pair: a SWP whose read reads from a write that
// follows from its own write (which purr's sc.cat allows) closes a cycle
// through it.
func (u *Unfolding) UnorderedReadWrite() (r, w *Event, ok bool) {
	for r, w := range u.parallelToWrites() {
		if r.IsRead() && !(w.OneEvent && w.RMW == r) {
			return r, w, true
		}
	}
	return nil, nil, false
}

// ParallelValueFlow tells whether some write's value may come from a
// read that is a parallel part of its instruction (an LDADD's write
// writes the read's value plus the register's), which program order
// leaves unordered; a SWP's or a CAS's write writes a register set
// before. Elsewhere a read's value reaches the writes of its thread along
// po only.
func (u *Unfolding) ParallelValueFlow() bool {
	for r, w := range u.parallelToWrites() {
		if r.IsRead() && slices.Contains(w.Val.deps, r) {
			return true
		}
	}
	return false
}

// ParallelWrites tells whether two writes of one instruction that may
// write one location are parallel parts of it, which program order leaves
// unordered (an STP's two writes go to two).
func (u *Unfolding) ParallelWrites() bool {
	for x, w := range u.parallelToWrites() {
		if x.Kind == KindWrite && !distinctAddresses(x.Addr, w.Addr) {
			return true
		}
	}
	return false
}

// distinctAddresses tells whether two address terms are constants that
// differ (whatever the value analysis, which may not have run).
func distinctAddresses(a, b *Term) bool {
	av, aok := a.IsConst()
	bv, bok := b.IsConst()
	return aok && bok && len(a.deps) == 0 && len(b.deps) == 0 && av != bv
}

// parallelBefore lists the events before e on its path that may be parallel
// parts of e's instruction, latest first: those of its instruction
// instance and, where instructions are composed in parallel parts (C,
// Event.ParRun from 1), of its pass through the composition. Both numbers
// only grow along a path.
func parallelBefore(e *Event) []*Event {
	var out []*Event
	same := func(x *Event) bool { return x.Instr == e.Instr || (x.ParRun != 0 && x.ParRun == e.ParRun) }
	for s := e.Seg; s != nil; s = s.Parent {
		for i := len(s.Events) - 1; i >= 0; i-- {
			x := s.Events[i]
			if x.Depth >= e.Depth {
				continue
			}
			if !same(x) {
				return out
			}
			out = append(out, x)
		}
	}
	return out
}
