// Package models embeds the memory models that ship with purr (sc, tso,
// pso, ...), selectable by name with -m.
package models
