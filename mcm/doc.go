// Package mcm gives litmus programs their meaning under a Cat model: it
// unfolds an XCFA into events, evaluates the model over an algebra of
// relations, decides and enumerates consistent executions, and reports the
// results in herd7's format.
package mcm
