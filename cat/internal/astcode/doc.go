// Package astcode writes a Cat syntax tree as bytes and reads it back, so
// that a file parsed once (at build time, or by an earlier run) need not be
// parsed again. Reading never trusts its input: bytes that were not
// written by Encode give an error, never a panic.
package astcode
