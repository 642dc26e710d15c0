package stdlib

import "embed"

// FS holds the library's .cat files at its root.
//
//go:embed *.cat
var FS embed.FS
