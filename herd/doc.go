// Package herd checks litmus tests as herd7 does: a run's configuration
// (Config, from the command line or herd7's .cfg files), the default model
// of each architecture, herd7's variants, its choice of tests by name, and
// the Checker every purr command checks a test with.
package herd
