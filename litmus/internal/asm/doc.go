// Package asm holds what the assembly dialects' translators share: the
// program section as a table of threads (thread heads, then rows of cells,
// each with labels and at most one instruction of the dialect's own type;
// package asmtable reads it from a parse tree), herd7's printing of that
// table for the test's hash, and a thread's control flow through its code
// labels (Flow), and herd7's symbolic registers (Symbolic).
package asm
