// Package parser reads the program section of an ARM (AArch32) test into a
// table of instructions as written (Instr, Operand): the parser generated
// from ARM.g4 and the converter from its parse tree, so that only this
// package sees ANTLR.
package parser
