package predef

import (
	"strings"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"

	// Every dialect's tags are predefined, whichever dialects the program
	// reads tests of: a model resolves the same everywhere.
	_ "github.com/purr-mcm/purr/litmus/dialects"
)

// Entry is one predefined name.
type Entry struct {
	Name string
	Kind cat.Kind
	// Tag marks an event tag: the set of the events carrying it, empty
	// when no event does. Every registered dialect's tags are defined on
	// every test (see litmus.Dialect's Tags).
	Tag bool
}

// The names, by kind; the tags are the dialects' (litmus.DialectTags). A
// name that is both a base set and a tag (RMW: the read-modify-write
// events, and Linux's RMW annotation) is a base set here; an engine gives
// it the tag's meaning when some event carries the tag.
var (
	baseSets = fields(`_ W R M Exp F IW I FW B RMW`) // I: herd7's other name of IW

	relations = fields(`
		id po int ext loc rf co fr rmw amo
		addr data ctrl pick-addr-dep pick-data-dep pick-ctrl-dep iico_data iico_ctrl iico_order rf-reg
		si same-instance same-instr sm same-low-order-bits same-tag-loc`)

	functions = fields(`domain range different-values fail oa-changes at-least-one-writable same-oa classes classes-loc linearisations`)
)

// Reflexive tells whether a predefined relation holds every event with
// itself (id, loc, int and the like): fusing two events into one keeps
// their pair there as the one event's.
func Reflexive(name string) bool { return reflexive[name] }

var reflexive = map[string]bool{"id": true, "int": true, "loc": true, "si": true, "same-instance": true,
	"same-instr": true, "sm": true, "same-low-order-bits": true, "same-tag-loc": true}

func fields(groups ...string) []string {
	return strings.Fields(strings.Join(groups, " "))
}

// Table returns every predefined name, sets first, then tags, relations
// and functions.
func Table() []Entry {
	var out []Entry
	add := func(names []string, kind cat.Kind, tag bool) {
		for _, n := range names {
			out = append(out, Entry{Name: n, Kind: kind, Tag: tag})
		}
	}
	add(baseSets, cat.KindSet, false)
	add(litmus.DialectTags(), cat.KindSet, true)
	add(relations, cat.KindRelation, false)
	add(functions, cat.KindFunction, false)
	return out
}

// Kinds maps every predefined name to its kind, as cat.Loader's Predefined
// takes them.
func Kinds() map[string]cat.Kind {
	m := map[string]cat.Kind{}
	for _, e := range Table() {
		m[e.Name] = e.Kind
	}
	return m
}
