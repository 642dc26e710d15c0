// Package asmtable reads the program table that every assembly grammar
// imports (Table.g4: thread heads, rows of cells, a cell's labels and
// instruction) from a dialect's parse tree into an asm.Table, so that the
// dialects' parsers share one walk of it.
package asmtable
