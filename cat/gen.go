package cat

//go:generate ../scripts/antlr/generate.sh Cat.g4 internal/parser parser
