package stdlib

import "embed"

// FS holds the library's .cat files at its root.
//
//go:generate go run ../cat/internal/prepare
//go:embed *.cat prepared.bin
var FS embed.FS
