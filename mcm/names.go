package mcm

import (
	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/mcm/internal/eval"
)

// CheckNames sets l to refuse, when it loads a model, the names that
// purr's engines would find unbound running it (see eval.CheckNames).
func CheckNames(l *cat.Loader) error { return eval.CheckNames(l) }
