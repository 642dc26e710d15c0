// Package herdout reads and writes herd7's result block, the text herd7
// prints for one litmus test (Test, States, Ok/No/Undef, Witnesses,
// Condition, Observation, Time, Hash), byte for byte as herd7 7.57 does; it
// also orders final states the way herd7 does, and compares two results
// field by field for the corpus tests (the Hash aside: it identifies the
// test, not the result, and package litmus computes it).
package herdout
