// Package outcome is what a check finds, whichever engine decides it: the
// final states and their values (printed as herd7 prints them), the
// executions that satisfy the condition or not, the flags; and its herd7
// result block. It knows nothing of the unfolding: printing and drawing
// results needs only this package.
package outcome
