package c

//go:generate ../../scripts/antlr/generate.sh C.g4 internal/cparser cparser
