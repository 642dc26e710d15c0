package x86

//go:generate ../../scripts/antlr/generate.sh X86.g4 internal/parser parser ../internal/asmtable
