// Package parser reads the program section of a BPF test into a table of
// instructions as written (Instr, Operand, Pointer): the parser generated
// from BPF.g4 and the converter from its parse tree, so that only this
// package sees ANTLR.
package parser
