package riscv

//go:generate ../../scripts/antlr/generate.sh RISCV.g4 internal/parser parser ../internal/asmtable
