package events

import (
	"slices"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
)

// Silent retries: a test-and-set spinlock's failed exchange reads the
// lock held (1) and writes 1 back. Its iteration writes, so it is no
// retry by the rule of retries.go; yet the write changes no value, and
// when nothing but such failed attempts can read it, removing the
// iteration's events (the read, the write, the branch) from an execution
// leaves an execution of the same program: the kept reads keep their
// writes, co loses the removed writes, every value stays. The model must
// allow removing them (eval.SilentRetriesRemovable: as for retries, with
// writes among the removed events), and no removed write may be the last
// to its location, whose value a final state shows: the location must be
// one the final state does not show, or one the thread writes again on
// every path after a failed attempt (SilentWrite.Overwritten), in a model
// that orders a thread's writes to a location in co.
//
// An iteration is a silent retry when it comes back to a location as a
// retry would, except for writes that are each the write half of a
// read-modify-write of the iteration, at a fixed address; and, once the
// program is unfolded:
//
//   - the read takes one value v on the path that retries, whatever value
//     the location may hold (UnfoldOptions.LocationValues: the values of
//     every write to it in any execution, the failing path's branches
//     telling which it may have read), and the write writes v: a fixed
//     value, or one computed from the read (a fetch-or's v | 1);
//   - no read that may read the location can read v and go on: each path
//     after it is ruled out when it reads v. So a read of v is always a
//     failed attempt, removed with its iteration, and no kept read reads
//     a removed write. The bound must cut no path, so that every read is
//     seen.
//
// Otherwise the test is unfolded again without silent retries. Whether
// each retry's thread touches its locations first (accessesFirst), and
// else which accesses before its loop may be followed by a removed write
// (gapAccesses), is recorded for the model's analysis
// (Unfolding.SilentFirst, Unfolding.SilentGap).

// SilentWrite is the write of a silent retry: the location, the value it
// writes back, the write (on the path that goes on, the same event) and
// where it is. Overwritten: every path the thread may take from the start
// of the retry's iteration, but those that retry again, writes the
// location again (the successful attempt, an unlock): in program order,
// a failed attempt is never the thread's last write to it.
type SilentWrite struct {
	Thread      int
	Write       *Event
	Addr        outcome.Value
	Val         outcome.Value
	Pos         source.Pos
	Overwritten bool
}

// silentCandidate is an iteration taken as a silent retry, to be checked
// once the program is unfolded: its write, and the path that retried.
type silentCandidate struct {
	write SilentWrite
	dead  *Segment
	from  int  // the depth the iteration starts after
	first bool // nothing before the loop may access what the iteration accesses
	// gap: the accesses before the loop whose next write to their
	// location may be the iteration's.
	gap []*Event
	// computed: the write's value is computed from its read (a fetch-or
	// of the lock bit), write.Val is the one value it writes back.
	computed bool
}

// silentIteration tells whether the writes and marks of the iteration
// that ends at the path's current visit (since prev) are all silent
// writes, and which.
func (f *unfolder) silentIteration(st *pathState, prev *visit) ([]silentCandidate, bool) {
	if f.noSilent || f.locationValues == nil {
		return nil, false
	}
	var out []silentCandidate
	before, iteration := splitPath(st.seg, prev.depth)
	first := accessesFirst(before, iteration)
	for _, e := range st.sides[prev.effects:] {
		if e.Kind != KindWrite || e.RMW == nil || !e.RMW.IsRead() || e.RMW.Depth <= prev.depth {
			return nil, false
		}
		addr, ok := e.Addr.IsConst()
		if !ok {
			return nil, false
		}
		v, static := staticValue(e.Val, st.known)
		out = append(out, silentCandidate{write: SilentWrite{Thread: st.thread, Write: e, Addr: addr, Val: v, Pos: e.Pos}, dead: st.seg, from: prev.depth, first: first,
			gap: gapAccesses(before, e.Addr, addr), computed: !static})
	}
	return out, len(out) > 0
}

// splitPath gives the events on the path to s in program order: those at
// or before depth (before an iteration), and those after (the iteration).
func splitPath(s *Segment, depth int) (before, after []*Event) {
	var path []*Event
	for p := s; p != nil; p = p.Parent {
		path = append(path, p.Events...)
	}
	slices.SortFunc(path, func(x, y *Event) int { return x.Depth - y.Depth })
	i, _ := slices.BinarySearchFunc(path, depth+1, func(e *Event, d int) int { return e.Depth - d })
	return path[:i], path[i:]
}

// gapAccesses are the events before an iteration whose next write to
// their location may be the iteration's write to addr (term at, value a):
// back from the iteration, every access that may touch addr, up to and
// with the instruction of the latest write that surely does.
func gapAccesses(before []*Event, at *Term, a outcome.Value) []*Event {
	var gap []*Event
	last := -1 // the instruction of the latest write to a
	for _, e := range slices.Backward(before) {
		if !e.HasLoc() || !MayAliasStatically(e.Addr, at) {
			continue
		}
		if last >= 0 && e.Instr != last {
			break
		}
		gap = append(gap, e)
		if x, ok := e.Addr.IsConst(); ok && x == a && e.IsWrite() {
			last = e.Instr
		}
	}
	return gap
}

// accessesFirst tells whether no access before an iteration may touch a
// location an access of the iteration touches.
func accessesFirst(before, iteration []*Event) bool {
	for _, d := range iteration {
		for _, k := range before {
			if d.IsMem() && k.IsMem() && MayAliasStatically(k.Addr, d.Addr) {
				return false
			}
		}
	}
	return true
}

// MayAliasStatically tells whether two addresses may be equal, unless
// both are known constants that differ: for events whose terms have no
// domain (MayAlias), as those of paths cut off.
func MayAliasStatically(a, b *Term) bool {
	x, okx := a.IsConst()
	y, oky := b.IsConst()
	return !okx || !oky || x == y
}

// checkSilent checks the silent retries the unfolding took (see above),
// and records their writes in u.Silent.
func (f *unfolder) checkSilent() bool {
	if len(f.silent) > 0 && f.u.Cut {
		// A read past the bound, which the check below cannot see, might
		// read a write back and go on.
		return false
	}
	seen, gap := map[*Event]int{}, map[*Event]bool{} // seen: a write's index in u.Silent
	f.u.SilentFirst = true
	for _, c := range f.silent {
		f.u.SilentFirst = f.u.SilentFirst && c.first
		for _, e := range c.gap {
			if !gap[e] {
				gap[e] = true
				f.u.SilentGap = append(f.u.SilentGap, e)
			}
		}
		w := c.write
		v, ok := f.writesBack(c)
		if !ok || !f.u.readsOfGoOnWithout(w.Addr, v) {
			return false
		}
		w.Val, w.Overwritten = v, c.overwritten()
		if i, ok := seen[w.Write]; ok {
			// Another path that retried with the same write: it is
			// overwritten only if it is on both.
			f.u.Silent[i].Overwritten = f.u.Silent[i].Overwritten && w.Overwritten
			continue
		}
		seen[w.Write] = len(f.u.Silent)
		f.u.Silent = append(f.u.Silent, w)
	}
	return true
}

// overwritten tells whether every path from the start of c's iteration
// (in the subtree of the latest segment of the dead path that holds an
// event before it: its paths, and maybe others, which only makes the
// answer more cautious), but those that retry again, writes c's location.
func (c silentCandidate) overwritten() bool {
	s := c.dead
	for s.Parent != nil && !slices.ContainsFunc(s.Events, func(e *Event) bool { return e.Depth <= c.from }) {
		s = s.Parent
	}
	return everyPathWrites(s, c.from, c.write.Addr)
}

// everyPathWrites tells whether every path through s that is not cut off
// as a retry writes addr after depth.
func everyPathWrites(s *Segment, depth int, addr outcome.Value) bool {
	if s.Dead {
		return true
	}
	for _, e := range s.Events {
		if e.Kind != KindWrite || e.Depth <= depth {
			continue
		}
		if a, ok := e.Addr.IsConst(); ok && a == addr {
			return true
		}
	}
	if s.leaf() {
		return false
	}
	for _, child := range s.Children {
		if !everyPathWrites(child, depth, addr) {
			return false
		}
	}
	return true
}

// writesBack tells whether the read of c's write reads, on the path that
// retried, only one value, the value the write writes, and which.
func (f *unfolder) writesBack(c silentCandidate) (outcome.Value, bool) {
	vals, ok := f.locationValues(c.write.Addr)
	if !ok {
		return outcome.Value{}, false
	}
	write, read := c.write.Write, c.write.Write.RMW
	back, found := c.write.Val, !c.computed
	for _, v := range vals {
		known := map[*Term]outcome.Value{read.Val: v}
		if !pathMayHold(c.dead, known) {
			continue // the path does not retry with v
		}
		seen, ok := narrowed(v, read.Size)
		if !ok {
			return outcome.Value{}, false
		}
		written := back
		if c.computed {
			w, ok := termValue(write.Val, known, false)
			if !ok {
				return outcome.Value{}, false
			}
			if written, ok = narrowed(w, write.Size); !ok || written != seen {
				return outcome.Value{}, false
			}
		}
		if found && seen != back {
			return outcome.Value{}, false
		}
		back, found = written, true
	}
	return back, found
}

// narrowed is v as an access of size bytes holds it.
func narrowed(v outcome.Value, size int) (outcome.Value, bool) {
	narrow, ok := zextOf[size]
	if !ok {
		return v, true
	}
	v, err := ApplyUnary(narrow, v)
	return v, err == nil
}

// pathMayHold tells whether the assumptions of the path to s may all hold
// with the values known.
func pathMayHold(s *Segment, known map[*Term]outcome.Value) bool {
	for p := s; p != nil; p = p.Parent {
		if !mayHold(p.Assumes, known) {
			return false
		}
	}
	return true
}

// readsOfGoOnWithout tells whether every read that may read addr, when it
// reads v, cannot go on along any path after it that is not cut off as a
// retry.
func (u *Unfolding) readsOfGoOnWithout(addr, v outcome.Value) bool {
	for _, r := range u.Events {
		if !r.IsRead() {
			continue
		}
		if a, ok := r.Addr.IsConst(); ok && a != addr {
			continue
		}
		known := map[*Term]outcome.Value{r.Val: v}
		if goesOn(r.Seg, known) {
			return false
		}
	}
	return true
}

// goesOn tells whether some path through s that is not dead (a retry cut
// off) may take its assumptions with the values known.
func goesOn(s *Segment, known map[*Term]outcome.Value) bool {
	if s.Dead {
		return false
	}
	if s.leaf() {
		return pathMayHold(s, known)
	}
	for _, c := range s.Children {
		if goesOn(c, known) {
			return true
		}
	}
	return false
}
