// Package predef is the table of the names purr predefines for Cat models:
// the event sets, tags, relations and functions that a model may use
// without binding them, each with its kind. It is the one list that the
// resolver checks models against (cat.Loader's Predefined) and that both
// of mcm's engines bind, each computing the meanings in its own way; a
// test in mcm checks that each engine defines exactly these names.
package predef
