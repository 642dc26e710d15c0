package mcm

import (
	"fmt"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/mcm/predef"
)

// CheckNames sets l to refuse, when it loads a model, the names that
// purr's engines would find unbound running it: l's Predefined are the
// names of predef's table, its Prelude purr's prelude, and the with
// statements the evaluator carries out itself are its NativeWith.
func CheckNames(l *cat.Loader) error {
	prelude, _, err := library()
	if err != nil {
		return fmt.Errorf("purr's library: %v", err)
	}
	l.Predefined, l.Prelude, l.NativeWith = predef.Kinds(), prelude.Stmts, isCoGeneration
	return nil
}

// predefinedNames is predef's table, read once.
var predefinedNames = predef.Table()

// predefinedEnv binds the names of predef's table: the functions of
// builtins, and the sets and relations an engine computed for a test
// (sets holds a tag's set only when some event carries the tag; the
// others are empty). Only the table's names are bound, so a model sees
// the same names in both engines and in the resolver.
func predefinedEnv(al *algebra, sets map[string]Set, rels map[string]Rel) (*env, error) {
	top := &env{vars: map[string]value{}}
	for _, e := range predefinedNames {
		var v value
		switch e.Kind {
		case cat.KindFunction:
			if fn, ok := builtins[e.Name]; ok {
				v = &builtin{name: e.Name, fn: fn}
			}
		case cat.KindSet:
			if s, ok := sets[e.Name]; ok {
				v = s
			} else if e.Tag {
				v = al.emptySet()
			}
		case cat.KindRelation:
			if r, ok := rels[e.Name]; ok {
				v = r
			}
		}
		if v == nil {
			return nil, fmt.Errorf("purr: the engine has no meaning for the predefined %s %s", e.Kind, e.Name)
		}
		top.vars[e.Name] = v
	}
	return top, nil
}
