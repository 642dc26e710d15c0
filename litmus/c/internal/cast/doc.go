// Package cast is the syntax tree of the C dialect: the nodes of a C
// litmus test's program part and of a herd7 macro file, with positions,
// which the C front end translates, hashes and expands macros on.
// Package cparser builds it.
package cast
