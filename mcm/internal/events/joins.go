package events

import "github.com/purr-mcm/purr/xcfa"

// In herd7's C semantics, a control dependency reaches the events of the
// branches of an if, not the events after it (herd builds if (c) A else B
// as a choice whose result the rest of the thread does not depend on), so
// the LKMM sees no ctrl from r to the write in
//
//	r = READ_ONCE(*x); if (r) ...; WRITE_ONCE(*y, 1);
//
// The unfolder ends the dependencies a C branch adds where its paths join
// again: at the branch location's immediate post-dominator.

// joins maps each location of a process to its immediate post-dominator,
// nil for the locations from which paths do not meet again before ending.
func joins(proc *xcfa.Process) map[*xcfa.Location]*xcfa.Location {
	n := len(proc.Locs)
	index := make(map[*xcfa.Location]int, n)
	for i, l := range proc.Locs {
		index[l] = i
	}
	// pdom[i]: the locations every path from i to an end passes through
	// (i included), as a bit set; all, until computed.
	words := (n + 63) / 64
	full := make([]uint64, words)
	for i := range n {
		full[i/64] |= 1 << (i % 64)
	}
	pdom := make([][]uint64, n)
	for i, l := range proc.Locs {
		if len(l.Out) == 0 {
			pdom[i] = make([]uint64, words)
			pdom[i][i/64] |= 1 << (i % 64)
		} else {
			pdom[i] = append([]uint64(nil), full...)
		}
	}
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			l := proc.Locs[i]
			if len(l.Out) == 0 {
				continue
			}
			next := append([]uint64(nil), full...)
			for _, e := range l.Out {
				s := pdom[index[e.To]]
				for w := range next {
					next[w] &= s[w]
				}
			}
			next[i/64] |= 1 << (i % 64)
			for w := range next {
				if next[w] != pdom[i][w] {
					pdom[i] = next
					changed = true
					break
				}
			}
		}
	}
	count := func(s []uint64) int {
		c := 0
		for _, w := range s {
			for ; w != 0; w &= w - 1 {
				c++
			}
		}
		return c
	}
	// The immediate post-dominator is the strict post-dominator with the
	// most post-dominators of its own: the nearest.
	out := map[*xcfa.Location]*xcfa.Location{}
	for i, l := range proc.Locs {
		best, bestCount := -1, -1
		for j := range n {
			if j == i || pdom[i][j/64]&(1<<(j%64)) == 0 {
				continue
			}
			if c := count(pdom[j]); c > bestCount {
				best, bestCount = j, c
			}
		}
		if best >= 0 {
			out[l] = proc.Locs[best]
		}
	}
	return out
}
