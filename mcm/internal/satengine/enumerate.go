package satengine

import (
	"math/bits"
	"slices"

	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/sat"
)

// enumerate calls visit once per consistent execution: once per model of
// the formula, projected onto the variables that identify an execution,
// whose lazy relations are acyclic. A model with a cycle in a lazy
// relation is refuted by a clause that forbids that cycle, and the search
// goes on. visit returns false to stop. enumerate returns whether every
// execution was visited (limit 0: no limit). The context of the solver's
// Limits is polled: a deadline stops the loop there.
//
// The executions come from the solver's own all-solutions search, whose
// time per execution does not grow with their number; where that search
// gives up (see sat.Solver.AllSolutions), gophersat's loop, with a
// blocking clause per execution, searches the rest of the space.
func enumerate(s *sat.Solver, projection []sat.Lit, lazy []Rel, limit int, visit func() bool) bool {
	cycles := newCycleFinder(lazy)
	cycles.forbidShortCycles(s)
	count := 0
	complete := true
	accept := func() bool {
		if limit > 0 && count == limit {
			complete = false
			return false
		}
		count++
		if !visit() {
			complete = false
			return false
		}
		return true
	}
	stopped, rest := s.AllSolutions(projection, allSolutionsBudget, func() []sat.Lit { return cycles.find(s) }, accept)
	if stopped {
		return complete
	}
	seen := map[string]bool{}
	for _, cube := range rest {
		for cycles.solve(s, cube...) {
			block := make([]sat.Lit, len(projection))
			key := make([]byte, len(projection))
			for i, p := range projection {
				block[i], key[i] = p, '0'
				if s.Value(p) {
					block[i], key[i] = -p, '1'
				}
			}
			if seen[string(key)] {
				// The blocking clause below makes this impossible; looping
				// forever would be worse than stopping loudly.
				panic("mcm: the solver returned an execution twice")
			}
			seen[string(key)] = true
			if !accept() {
				return complete
			}
			s.AddClause(block...)
		}
	}
	return true
}

// forbidShortCycles adds the clauses that forbid the short cycles of the
// lazy relations: loops, cycles of two edges, and cycles of three edges
// of which one holds in every execution (the clause on the other two is
// binary). They are consequences of the acyclicity that enumerate checks
// lazily, so the executions do not change; but propagation draws them
// before a decision, where the cycle search refutes a decision only after
// it is taken. Where a read-modify-write's write is coherence-after a
// write, "acyclic po-loc | ca | rf" forbids the read to read from it
// (the read, po-loc, the write, co, that write, rf, the read): without
// the clause, every such choice of rf was a dead end of the search.
func (f *cycleFinder) forbidShortCycles(s *sat.Solver) {
	for i := range f.rels {
		r := &f.rels[i]
		edge := make(map[[2]int32]sat.Lit, len(r.lits))
		succ := make([][]int32, r.nodes)
		for i, l := range r.lits {
			a, b := r.from[i], r.to[i]
			edge[[2]int32{a, b}] = l
			succ[a] = append(succ[a], b)
		}
		for i, ab := range r.lits {
			a, b := r.from[i], r.to[i]
			if a == b {
				s.AddClause(r.guarded([]sat.Lit{-ab})...)
				continue
			}
			if ba, ok := edge[[2]int32{b, a}]; ok && a < b {
				s.AddClause(r.guarded([]sat.Lit{-ab, -ba})...)
			}
			if ab != sat.True {
				continue
			}
			for _, c := range succ[b] {
				if ca, ok := edge[[2]int32{c, a}]; ok && c != a && c != b {
					s.AddClause(r.guarded([]sat.Lit{-edge[[2]int32{b, c}], -ca})...)
				}
			}
		}
	}
}

// allSolutionsBudget is the number of conflicts after which the
// all-solutions search hands over to gophersat (plus 64 per execution it
// found): a few tenths of a second of a search that finds nothing, where
// a CDCL solver may be exponentially faster.
const allSolutionsBudget = 20_000

// cycleFinder looks for cycles, in the solver's current model, in the
// lazy relations. It numbers each relation's nodes and sorts its pairs
// once, so that each model costs only a walk of the edges it holds.
type cycleFinder struct {
	rels []lazyRel
	// scratch, per node of the relation being searched
	first, state []int32
	succ, stack  []int32
	edgeOf       []int32 // per node on the stack: the index of the edge that left it
	// successors, per node, as a bit set (relations of up to 64 nodes)
	succMask [64]uint64
}

type lazyRel struct {
	// guard, unless sat.True, holds the relation acyclic only when true
	// (Why leaves checks out so).
	guard sat.Lit
	nodes int
	from  []int32 // per pair, sorted by (from, to): its nodes' numbers
	to    []int32
	lits  []sat.Lit
}

func newCycleFinder(rels []Rel) *cycleFinder {
	guards := make([]sat.Lit, len(rels))
	for i := range guards {
		guards[i] = sat.True
	}
	return newGuardedCycleFinder(rels, guards)
}

// newGuardedCycleFinder is newCycleFinder for relations that must be
// acyclic only when their guards are true.
func newGuardedCycleFinder(rels []Rel, guards []sat.Lit) *cycleFinder {
	f := &cycleFinder{}
	for ri, r := range rels {
		var pairs []eval.Pair
		for _, k := range eval.SortedPairs(r) {
			if r[k] != sat.False {
				pairs = append(pairs, k)
			}
		}
		// Only the edges inside a strongly connected component of the
		// edges that may hold can be on a cycle: the search walks those.
		pairs = withinComponents(pairs)
		// Nodes numbered in the order of events, so that the pairs,
		// sorted by event, come grouped by their source's number.
		var events []int32
		for _, k := range pairs {
			events = append(events, k.A, k.B)
		}
		slices.Sort(events)
		events = slices.Compact(events)
		num := make(map[int32]int32, len(events))
		for i, e := range events {
			num[e] = int32(i)
		}
		lr := lazyRel{guard: guards[ri]}
		for _, k := range pairs {
			lr.from = append(lr.from, num[k.A])
			lr.to = append(lr.to, num[k.B])
			lr.lits = append(lr.lits, r[k])
		}
		lr.nodes = len(events)
		f.rels = append(f.rels, lr)
	}
	return f
}

// withinComponents keeps the pairs, sorted by (A, B), whose events lie in
// one strongly connected component of the graph of all the pairs
// (Tarjan's algorithm, without recursion). The order is kept.
func withinComponents(pairs []eval.Pair) []eval.Pair {
	var nodes []int32
	for _, k := range pairs {
		nodes = append(nodes, k.A, k.B)
	}
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	n := len(nodes)
	num := make(map[int32]int32, n)
	for i, e := range nodes {
		num[e] = int32(i)
	}
	first := make([]int32, n+1) // pairs[first[a]:first[a+1]] leave node a
	for _, k := range pairs {
		first[num[k.A]+1]++
	}
	for a := 1; a <= n; a++ {
		first[a] += first[a-1]
	}
	const unvisited = -1
	index := make([]int32, n)
	low := make([]int32, n)
	comp := make([]int32, n)
	onStack := make([]bool, n)
	for a := range index {
		index[a], comp[a] = unvisited, unvisited
	}
	var stack, path, next []int32
	counter, comps := int32(0), int32(0)
	for root := int32(0); root < int32(n); root++ {
		if index[root] != unvisited {
			continue
		}
		visit := func(a int32) {
			index[a], low[a] = counter, counter
			counter++
			stack = append(stack, a)
			onStack[a] = true
			path = append(path, a)
			next = append(next, first[a])
		}
		visit(root)
		for len(path) > 0 {
			top := len(path) - 1
			a := path[top]
			if e := next[top]; e < first[a+1] {
				next[top]++
				b := num[pairs[e].B]
				switch {
				case index[b] == unvisited:
					visit(b)
				case onStack[b]:
					low[a] = min(low[a], index[b])
				}
				continue
			}
			path, next = path[:top], next[:top]
			if top > 0 {
				parent := path[top-1]
				low[parent] = min(low[parent], low[a])
			}
			if low[a] == index[a] {
				for {
					b := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[b] = false
					comp[b] = comps
					if b == a {
						break
					}
				}
				comps++
			}
		}
	}
	var out []eval.Pair
	for _, k := range pairs {
		if comp[num[k.A]] == comp[num[k.B]] {
			out = append(out, k)
		}
	}
	return out
}

// solve finds a model under the assumptions whose lazy relations are
// acyclic: a model with a cycle is refuted by a clause that forbids it
// (a consequence of the acyclicity, true of every execution), and the
// search goes on. It tells whether there is one.
func (f *cycleFinder) solve(s *sat.Solver, assume ...sat.Lit) bool {
	for s.Solve(assume...) {
		cycle := f.find(s)
		if cycle == nil {
			return true
		}
		s.AddClause(cycle...)
	}
	return false
}

// find returns the clause that forbids a cycle of the current model (the
// negations of the cycle's edge literals), or nil when every relation is
// acyclic.
func (f *cycleFinder) find(s *sat.Solver) []sat.Lit {
	for i := range f.rels {
		r := &f.rels[i]
		if r.guard != sat.True && !s.Value(r.guard) {
			continue
		}
		if r.nodes <= len(f.succMask) && f.acyclicSmall(s, r) {
			continue
		}
		if c := f.cycleIn(s, r); c != nil {
			return r.guarded(c)
		}
	}
	return nil
}

// guarded is a clause of the relation's acyclicity, which holds only
// when its guard does.
func (r *lazyRel) guarded(clause []sat.Lit) []sat.Lit {
	if r.guard == sat.True {
		return clause
	}
	return append(clause, -r.guard)
}

// acyclicSmall tells whether a relation of at most 64 nodes is acyclic in
// the current model, by a search over bit sets of successors: the common
// case, every execution, costs a pass over the edges and a few word
// operations per node. cycleIn finds the cycle when there is one.
func (f *cycleFinder) acyclicSmall(s *sat.Solver, r *lazyRel) bool {
	succ := f.succMask[:r.nodes]
	clear(succ)
	f.succ = s.AppendTrue(f.succ[:0], r.lits)
	for _, e := range f.succ {
		succ[r.from[e]] |= 1 << r.to[e]
	}
	var done, onStack uint64
	stack := f.stack[:0]
	for root := range int32(r.nodes) {
		if done&(1<<root) != 0 {
			continue
		}
		stack = append(stack, root)
		onStack |= 1 << root
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			next := succ[a] &^ done
			switch {
			case next&onStack != 0:
				f.stack = stack
				return false
			case next != 0:
				b := int32(bits.TrailingZeros64(next))
				stack = append(stack, b)
				onStack |= 1 << b
			default:
				done |= 1 << a
				onStack &^= 1 << a
				stack = stack[:len(stack)-1]
			}
		}
	}
	f.stack = stack
	return true
}

func (f *cycleFinder) cycleIn(s *sat.Solver, r *lazyRel) []sat.Lit {
	const (
		unseen = iota
		onStack
		done
	)
	n := r.nodes
	f.first = resize(f.first, n+1)
	f.state = resize(f.state, n)
	// The true edges, grouped by source (the pairs are sorted by it):
	// succ[first[a]:first[a+1]] are the edges that leave a.
	f.succ = s.AppendTrue(f.succ[:0], r.lits)
	for a := range f.first {
		f.first[a] = 0
	}
	for _, e := range f.succ {
		f.first[r.from[e]+1]++
	}
	for a := 1; a <= n; a++ {
		f.first[a] += f.first[a-1]
	}
	for a := range f.state {
		f.state[a] = unseen
	}
	for root := int32(0); root < int32(n); root++ {
		if f.state[root] != unseen {
			continue
		}
		f.stack = append(f.stack[:0], root)
		f.edgeOf = append(f.edgeOf[:0], f.first[root])
		f.state[root] = onStack
		for len(f.stack) > 0 {
			top := len(f.stack) - 1
			a := f.stack[top]
			k := f.edgeOf[top]
			if k == f.first[a+1] {
				f.state[a] = done
				f.stack = f.stack[:top]
				f.edgeOf = f.edgeOf[:top]
				continue
			}
			f.edgeOf[top]++
			b := r.to[f.succ[k]]
			switch f.state[b] {
			case onStack:
				var clause []sat.Lit
				for i := len(f.stack) - 1; i >= 0; i-- {
					clause = append(clause, -r.lits[f.succ[f.edgeOf[i]-1]])
					if f.stack[i] == b {
						return clause
					}
				}
				panic("mcm: a node on the stack is not on it")
			case unseen:
				f.state[b] = onStack
				f.stack = append(f.stack, b)
				f.edgeOf = append(f.edgeOf, f.first[b])
			}
		}
	}
	return nil
}

func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
