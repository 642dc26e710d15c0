// Package show presents the executions a check keeps (outcome.Execution)
// to people: herd7's pictures in Graphviz DOT, one digraph per
// execution, and purr's text listing. Both are functions of the
// executions alone, so that callers may select or group them first.
package show
