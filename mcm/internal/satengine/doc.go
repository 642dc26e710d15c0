// Package satengine decides a test with a SAT solver: one formula for
// every candidate execution of the unfolding (paths, values, rf, co), the
// model evaluated once over the formula's literals, and an enumeration of
// the consistent executions, projected on what identifies an execution.
package satengine
