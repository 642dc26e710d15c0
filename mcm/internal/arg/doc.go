// Package arg explores a program's threads as abstract reachability
// graphs, one per thread, with their loops unbounded: the abstraction of
// purr's counterexample-guided refinement for loops (docs/loops.md, "The
// abstraction: one graph per thread").
//
// An abstract state is a control location and, for each register, a value
// or top (any value). A read of a tracked location (the precision) takes,
// one successor each, the values the writes of every thread's graph may
// give it: the graphs share the writes they reach (the abstract execution
// graph), and a read is revisited when a write adds a value to its
// location. A read of any other location is havocked: top. A state covered
// by one already explored (every register equal, or top there) is not
// explored again, so a loop whose iterations come back to a state ends.
//
// The result over-approximates, for every number of iterations, the values
// any execution's writes write whose values are computed along an acyclic
// chain of reads-from and dependencies from the initial state; top
// remembers the havocked locations it comes from, which is what a
// refinement tracks next.
package arg
