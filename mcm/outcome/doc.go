// Package outcome is what a check finds, whichever engine decides it: the
// final states, the executions that satisfy the condition or not, the
// flags; and its herd7 result block.
package outcome
