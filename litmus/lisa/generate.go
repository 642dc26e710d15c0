package lisa

//go:generate ../../scripts/antlr/generate.sh LISA.g4 internal/parser parser ../internal/asmtable
