// Package state reads the parts of a litmus test every dialect shares,
// the initial state and the final part (locations, filter, condition),
// with the State grammar, and converts the parse tree at once into a
// syntax tree of its own: as written, unchecked, with positions. Package
// litmus checks it and builds its types from it.
package state
