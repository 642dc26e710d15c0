package aarch64

//go:generate ../../scripts/antlr/generate.sh AArch64.g4 internal/parser parser ../internal/asmtable
