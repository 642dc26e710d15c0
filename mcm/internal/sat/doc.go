// Package sat is the engine's only door to the SAT solver
// (github.com/crillab/gophersat): DIMACS-style literals, hash-consed Tseitin
// gates with constant folding, cardinality constraints, incremental solving
// under assumptions, and AllSolutions, an all-solutions search of its own
// (DPLL without blocking clauses) that enumerates projected models in time
// linear in their number, handing what it has not searched over to
// gophersat where it gives up. Every rule needed to use
// gophersat safely lives in this package, so the rest of the engine never
// imports gophersat.
//
// A Solver is not safe for concurrent use: give each goroutine its own.
// gophersat keeps a package-level buffer for conflict analysis
// (solver.bufLits in learn.go) that every solver instance writes; this
// package therefore serialises all calls into gophersat with one mutex, so
// solvers in different goroutines are correct but do not solve in parallel.
//
// gophersat's unit propagation always terminates (each variable is assigned
// at most once per propagate), so a goroutine dump stuck in
// Assume -> propagate -> simplifyPropClauses means cost, not a livelock.
// Every Solve pays for the whole formula: flush's Assume(nil) unbinds every
// variable, and Assume re-propagates every unit fact, because gophersat
// forgets top-level bindings at each Assume. With millions of clauses that
// is about a second per model (dat3m-c11/manual/TSan.litmus: 1.8M
// variables, 5.4M clauses, 0.7 s per enumerated model). An enumeration
// that really never ends can only come from a blocking clause being
// ignored; the enumerations therefore panic on a projected model seen twice
// rather than loop. Two gophersat flaws cost time but not correctness:
// cleanupBindings inserts each unbound variable into the decision heap
// twice, and rebuildOrderHeap seeds the heap with nbVars copies of
// variable 1.
package sat
