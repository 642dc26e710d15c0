// Package view serves the page of `purr view`: one test's consistent
// executions under one model, or the candidate executions its checks
// forbid (grouped by the checks they fail), drawn by package picture, with
// a checkbox per relation and set, refreshed when the test or the model
// file is saved.
// It answers about that test and model only, from assets embedded in the
// binary: no request reaches the file system.
package view
