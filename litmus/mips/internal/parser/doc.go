// Package parser reads the program section of a MIPS test into a table of
// instructions as written (Instr, Operand): the parser generated from
// MIPS.g4 and the converter from its parse tree, so that only this
// package sees ANTLR.
package parser
