// Package mcm checks a litmus test under a Cat model: it unfolds the test
// into events (package events), picks an engine (package satengine, the
// default, or package explicit, herd7's enumeration), and can re-check
// every execution the SAT engine accepts with the explicit one. Results
// are in package outcome, printed in herd7's format by package herdout.
package mcm
