// Package sat is the engine's only door to the SAT solver
// (github.com/crillab/gophersat): DIMACS-style literals, hash-consed Tseitin
// gates with constant folding, cardinality constraints, incremental solving
// under assumptions and projected model enumeration. Every rule needed to use
// gophersat safely lives in this package, so the rest of the engine never
// imports gophersat.
//
// A Solver is not safe for concurrent use: give each goroutine its own.
// gophersat keeps a package-level buffer for conflict analysis
// (solver.bufLits in learn.go) that every solver instance writes; this
// package therefore serialises all calls into gophersat with one mutex, so
// solvers in different goroutines are correct but do not solve in parallel.
package sat
