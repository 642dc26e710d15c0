// Package mcm checks a litmus test under a Cat model (Check, with one
// Options): it unfolds the test into events, picks an engine (the SAT
// engine, the default, or the explicit one, herd7's enumeration of
// candidate executions), and can re-check every execution the SAT engine
// accepts with the explicit one. The engines live under mcm/internal;
// results are package outcome's, printed in herd7's format by package
// herdout.
package mcm
