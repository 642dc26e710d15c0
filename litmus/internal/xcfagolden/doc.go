// Package xcfagolden is the front ends' golden test: it translates a
// litmus test and compares the test's condition and its XCFA, printed as
// DOT, with a golden file (rewritten with -update).
package xcfagolden
