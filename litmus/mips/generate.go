package mips

//go:generate ../../scripts/antlr/generate.sh MIPS.g4 internal/parser parser ../internal/asmtable
