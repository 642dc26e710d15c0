// Package parser reads the program section of a LISA test into a table of
// instructions as written (Instr, Operand, Value): the parser generated
// from LISA.g4 and the converter from its parse tree, so that only this
// package sees ANTLR.
package parser
