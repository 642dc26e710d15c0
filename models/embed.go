package models

import "embed"

// FS holds the shipped models' .cat files at its root.
//
//go:embed *.cat
var FS embed.FS
