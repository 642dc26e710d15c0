// Package herdtest reads herd7's outputs (result blocks, and the TIMEOUT
// and ERROR lines of purr's reference corpora) and compares two results
// field by field, for the tests that hold purr to herd7 (the Hash aside:
// it identifies the test, not the result, and package litmus computes it).
package herdtest
