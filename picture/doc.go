// Package picture draws executions (outcome.Execution) as SVG, with a
// layout of its own, so that no Graphviz is needed: threads are columns,
// program order goes downwards, init writes sit in a row on top, as herd's
// pictures are drawn; relations are coloured, labelled arrows, bent where a
// straight one would cross an event or another arrow; the checks an
// execution fails (-through) lay a halo of their colour along their
// witnesses and name themselves in the legend.
package picture
