package mcm

import (
	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/eval"
)

// MayRaiseFlags is mayRaiseFlags for the external tests, which run models
// through herd's configuration (a bell, a .cfg).
func MayRaiseFlags(m *cat.Model, t *litmus.Test) bool {
	return mayRaiseFlags(eval.Model{Cat: m}, t)
}
