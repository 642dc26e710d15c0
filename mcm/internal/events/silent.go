package events

import (
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
// writes among the removed events), and the location must not be one the
// final state shows (the last write to it may be a removed one).
//
// An iteration is a silent retry when it comes back to a location as a
// retry would, except for writes that are each the write half of a
// read-modify-write of the iteration, at a fixed address, writing a fixed
// value v; and, once the program is unfolded:
//
//   - the value the read takes on the path that retries is v, whatever
//     value the location may hold (UnfoldOptions.LocationValues: the
//     values of every write to it in any execution, the failing path's
//     branches telling which it may have read);
//   - no read that may read the location can read v and go on: each path
//     after it is ruled out when it reads v. So a read of v is always a
//     failed attempt, removed with its iteration, and no kept read reads
//     a removed write. The bound must cut no path, so that every read is
//     seen.
//
// Otherwise the test is unfolded again without silent retries.

// SilentWrite is the write of a silent retry: the location, the value it
// writes back, the write (on the path that goes on, the same event) and
// where it is.
type SilentWrite struct {
	Thread int
	Write  *Event
	Addr   outcome.Value
	Val    outcome.Value
	Pos    source.Pos
}

// silentCandidate is an iteration taken as a silent retry, to be checked
// once the program is unfolded: its write, and the path that retried.
type silentCandidate struct {
	write SilentWrite
	dead  *Segment
}

// silentIteration tells whether the writes and marks of the iteration
// that ends at the path's current visit (since prev) are all silent
// writes, and which.
func (f *unfolder) silentIteration(st *pathState, prev *visit) ([]silentCandidate, bool) {
	if f.noSilent || f.locationValues == nil {
		return nil, false
	}
	var out []silentCandidate
	for _, e := range st.sides[prev.effects:] {
		if e.Kind != KindWrite || e.RMW == nil || !e.RMW.IsRead() || e.RMW.Depth <= prev.depth {
			return nil, false
		}
		addr, ok := e.Addr.IsConst()
		if !ok {
			return nil, false
		}
		v, ok := staticValue(e.Val, st.known)
		if !ok {
			return nil, false
		}
		out = append(out, silentCandidate{SilentWrite{Thread: st.thread, Write: e, Addr: addr, Val: v, Pos: e.Pos}, st.seg})
	}
	return out, len(out) > 0
}

// checkSilent checks the silent retries the unfolding took (see above),
// and records their writes in u.Silent.
func (f *unfolder) checkSilent() bool {
	if len(f.silent) > 0 && f.u.Cut {
		// A read past the bound, which the check below cannot see, might
		// read a write back and go on.
		return false
	}
	seen := map[*Event]bool{}
	for _, c := range f.silent {
		w := c.write
		if !f.writesBack(c) || !f.u.readsOfGoOnWithout(w.Addr, w.Val) {
			return false
		}
		if !seen[w.Write] {
			seen[w.Write] = true
			f.u.Silent = append(f.u.Silent, w)
		}
	}
	return true
}

// writesBack tells whether the read of c's write reads, on the path that
// retried, only the value the write writes.
func (f *unfolder) writesBack(c silentCandidate) bool {
	vals, ok := f.locationValues(c.write.Addr)
	if !ok {
		return false
	}
	read := c.write.Write.RMW
	for _, v := range vals {
		known := map[*Term]outcome.Value{read.Val: v}
		if !pathMayHold(c.dead, known) {
			continue // the path does not retry with v
		}
		seen := v
		if narrow, ok := zextOf[read.Size]; ok {
			var err error
			if seen, err = ApplyUnary(narrow, v); err != nil {
				return false
			}
		}
		if seen != c.write.Val {
			return false
		}
	}
	return true
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
