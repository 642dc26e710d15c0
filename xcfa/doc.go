// Package xcfa defines the extended control-flow automaton that litmus tests
// are translated into: processes, locations and edges labelled by
// operations (assignments, assumptions, loads, stores, fences, RMW halves).
package xcfa
