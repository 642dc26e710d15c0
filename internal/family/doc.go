// Package family writes growing families of AArch64 litmus tests (store
// buffering rings, N writers to one location, IRIW with N readers,
// message-passing chains, N participants exchanging a token with swaps),
// so that benchmarks can show how the cost of a check grows with a test's
// size.
package family
