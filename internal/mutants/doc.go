// Package mutants makes malformed copies of litmus tests (lines deleted,
// duplicated, cut short or swapped, tokens inserted, constants changed)
// for the fuzz test that checks what purr does with any input: no panic,
// no hang, a position on every refusal, one answer from both engines.
package mutants
