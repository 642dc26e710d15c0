// Package docs holds purr's documents that programs read: the JSON Schema
// of purr --json's lines. The folder also keeps the documents for people
// that the README links (design.md, herd7.md, lkmm.md, ...), which no
// program reads; TestLinks checks their links.
package docs

import _ "embed"

// ResultSchema is the JSON Schema of one line of purr --json
// (purr-result.schema.json).
//
//go:embed purr-result.schema.json
var ResultSchema []byte
