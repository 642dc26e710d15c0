// Package events gives a litmus program its meaning as events, shared by
// both engines: it lays out the test's memory and initial state, unfolds
// each thread's XCFA into a tree of events up to the unrolling bound, with
// SSA terms for addresses and values (and, for models that compute their
// own dependencies, herd7's register events with iico and rf-reg), and
// computes every term's domain of values; ReadWrites tells, on the XCFA
// with its loops unbounded, what orders each read before the writes after
// it, as the unfolding builds dependencies.
package events
