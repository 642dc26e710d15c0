// Package engine is what both engines share: the options they take of
// mcm.Options, the tally of a check (counts, states, flags, the
// executions -show selects, speedcheck and the bound on executions), and
// the layout of an execution for people to read. It depends on nothing of
// the SAT side, so that the explicit engine stays independent of it.
package engine
