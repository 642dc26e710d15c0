package litmus

//go:generate ../scripts/antlr/generate.sh State.g4 internal/stateparser stateparser
