// Package explicit decides a test as herd7 does: it enumerates the
// candidate executions one by one (a path per thread, a write for every
// read, a coherence order per location), computes their values
// concretely, and evaluates the model on each over the algebra with
// boolean literals. It shares the events and the evaluator with the SAT
// engine and nothing of its encoding: it is the oracle the SAT engine is
// tested against, and it must not import the SAT side (TestIndependence
// in package mcm checks it).
package explicit
