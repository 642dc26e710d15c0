package cat

import "github.com/purr-mcm/purr/cat/ast"

// Model is a file with its includes followed and its procedures checked.
type Model struct {
	Name        string // file name of the main file
	Arch, Title string
	CatDep      bool
	Stmts       []ast.Stmt
	Files       []string // every file read, main file first, in order of reading
}
