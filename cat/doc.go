// Package cat parses and resolves memory models written in the Cat language
// of herd7: source text in, a resolved model (definitions and axioms with
// source positions) out. It knows nothing about litmus tests or executions.
package cat
