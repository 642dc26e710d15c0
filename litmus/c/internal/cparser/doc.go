// Package cparser reads the program part of a C litmus test, or a herd7
// macro file, into its syntax tree (package cast): the ANTLR parser
// generated from litmus/c/C.g4 (c_lexer.go, c_parser.go; go generate in
// litmus/c rewrites them) and, beside it, the hand-written converter from
// its parse tree, with the syntax errors. No other package sees an ANTLR
// type.
package cparser
