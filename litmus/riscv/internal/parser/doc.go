// Package parser reads the program section of a RISC-V test into a table
// of instructions as written (Instr, Operand): the parser generated from
// RISCV.g4 and the converter from its parse tree, so that only this
// package sees ANTLR.
package parser
