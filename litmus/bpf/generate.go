package bpf

//go:generate ../../scripts/antlr/generate.sh BPF.g4 internal/parser parser ../internal/asmtable
