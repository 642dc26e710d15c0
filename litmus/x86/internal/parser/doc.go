// Package parser reads the program section of an X86 or X86_64 test into
// a table of instructions as written (Instr, Operand): the parser
// generated from X86.g4 and the converter from its parse tree, so that
// only this package sees ANTLR.
package parser
