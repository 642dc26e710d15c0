package arm

//go:generate ../../scripts/antlr/generate.sh ARM.g4 internal/parser parser ../internal/asmtable
