// Package litmus parses litmus tests (AArch64 and C dialects of herd7) and
// translates them into an XCFA plus the test's initial state and final
// condition. It knows nothing about Cat models.
package litmus
