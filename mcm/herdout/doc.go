// Package herdout writes herd7's result block, the text herd7 prints for
// one litmus test (Test, States, Ok/No/Undef, Witnesses, Condition,
// Observation, Time, Hash), byte for byte as herd7 7.57 does, and orders
// final states the way herd7 does. Reading herd7's outputs back, for the
// tests, is package internal/herdtest's.
package herdout
