// Package cat parses and resolves memory models written in the Cat language
// of herd7 (7.57): source text in, a resolved model (definitions and axioms
// with source positions) out. It knows nothing about litmus tests or
// executions.
//
// Parse reads one file into an *ast.File (the syntax tree is package
// cat/ast): its header (architecture and title), herd's model options
// (catdep; withinit, withoutco and withoutinit, its defaults, pass; withco
// is refused) and its statements. The grammar (Cat.g4, generated into
// internal/parser beside the converter from its parse tree) follows herd7's
// own parser: precedences, the identifier rules (po-loc, DMB.SY, rf -1),
// nested comments; see the comment at the top of Cat.g4.
//
// A Loader reads a model with its includes into a *Model, looking for
// each include on herd7's path (the current folder, the -I folders, then
// the including file's folder, then purr's embedded files): each include is
// kept as an ast.Include statement holding the included statements (see
// ast.Include for herd's include-once rule), procedures are bound to their
// calls (unknown procedure, wrong number of arguments), and, given the
// names the caller predefines (with their Kind) and a prelude, every name
// the model uses where herd would evaluate it is resolved (see
// Loader.Predefined).
//
// A Cache parses each file's contents once: purr's embedded files are
// parsed at build time (WritePrepared, run by go generate), other files on
// their first run and kept in the user's cache directory, keyed by a hash
// of the contents and of the parser's own sources.
//
// Errors are source errors, "file:line:col: message" (a source.ErrorList
// when there are several, in the order of their positions); a syntax error
// is the first one of its file, naming what was expected.
package cat
