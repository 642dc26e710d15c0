// Package stateparser is the ANTLR parser of the parts every litmus
// dialect shares (initial state, locations, filter, condition), generated
// from litmus/State.g4 by go generate; package litmus/internal/state reads
// its parse tree into a tree of its own at once.
package stateparser
