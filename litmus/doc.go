// Package litmus parses litmus tests (AArch64, X86, X86_64, BPF and C dialects of herd7) and
// translates them into an XCFA plus the test's initial state and final
// condition; it also computes the test's identity as herd7 prints it
// (Test.Hash). It knows nothing about Cat models.
package litmus
