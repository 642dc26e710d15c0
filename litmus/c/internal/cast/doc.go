// Package cast reads the program part of a C litmus test, or a herd7
// macro file, into a syntax tree: the C front end's nodes, which it
// translates, hashes and expands macros on, and the converter from the
// ANTLR parse tree, so that no ANTLR type leaves this package.
package cast
