// Package picture draws executions (outcome.Execution) as SVG, with a
// layout of its own, so that no Graphviz is needed: threads are columns,
// program order goes downwards, init writes sit in a row on top, as herd's
// pictures are drawn; relations are coloured, labelled arrows that pass
// through no event (straight where they can, bent where a straight one
// would cross an event or another arrow, else along the lanes between
// columns and rows), their labels placed off events, thread names and each
// other; the checks an execution fails (-through) lay a halo of their
// colour along their witnesses and name themselves in the legend. A
// document wider than FitWidth is scaled down to it; herd7's picture
// options (show.Picture) choose the events drawn, the legend, squished
// events, font size and scale.
package picture
