// Package view serves the page of `purr view`: one test's consistent
// executions under one model, or the candidate executions its checks
// forbid, in groups the server counts and pages (by final state, rf,
// condition or failed checks) under a filter, each drawn by package
// picture with a checkbox per relation and set, refreshed when a file of
// the test or the model is saved. It holds a few numbers per execution
// and builds those it draws again on demand, so that its memory does not
// grow with their number.
// It answers about that test and model only, from assets embedded in the
// binary: no request reaches the file system.
package view
