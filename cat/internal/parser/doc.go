// Package parser reads Cat source into its syntax tree (package cat/ast):
// the ANTLR parser generated from cat/Cat.g4 (cat_lexer.go, cat_parser.go;
// go generate in cat/ rewrites them) and, beside it, the hand-written
// converter from its parse tree, with herd7's syntax errors. No other
// package sees an ANTLR type.
package parser
