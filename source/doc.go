// Package source is where purr's inputs come from: a position in a source
// file (a Cat model, a litmus test, a .cfg or .def file) and the positioned
// errors every front end and engine reports, printed as file:line:col.
package source
