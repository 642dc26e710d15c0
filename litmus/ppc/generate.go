package ppc

//go:generate ../../scripts/antlr/generate.sh PPC.g4 internal/parser parser ../internal/asmtable
