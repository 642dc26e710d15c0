package mcm

import (
	"fmt"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/mcm/predef"
)

// ModelNames is what a model may use without binding it, as the engines
// run it: the names of predef's table, and those purr's prelude binds
// (its statements). They are cat.Loader's Predefined and Prelude, so that
// a model naming anything else is refused when it is loaded, before any
// test runs.
func ModelNames() (map[string]cat.Kind, []cat.Stmt, error) {
	prelude, _, err := library()
	if err != nil {
		return nil, nil, fmt.Errorf("purr's library: %v", err)
	}
	return predef.Kinds(), prelude.Stmts, nil
}

// predefinedEnv binds the names of predef's table: the functions of
// builtins, and the sets and relations an engine computed for a test
// (sets holds a tag's set only when some event carries the tag; the
// others are empty). Only the table's names are bound, so a model sees
// the same names in both engines and in the resolver.
func predefinedEnv(al *algebra, sets map[string]Set, rels map[string]Rel) (*env, error) {
	top := &env{vars: map[string]value{}}
	for _, e := range predef.Table() {
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
