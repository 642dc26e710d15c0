package predef

import (
	"strings"

	"github.com/purr-mcm/purr/cat"
)

// Entry is one predefined name.
type Entry struct {
	Name string
	Kind cat.Kind
	// Tag marks an event tag: the set of the events carrying it, empty
	// when no event does. Every tag is defined on every architecture,
	// unlike herd7, which defines an architecture's own only: purr's
	// classic models name the fences of all of them at once
	// (models/fence-classes.cat), and a tag a test's events cannot carry
	// is just empty.
	Tag bool
}

// The names, by kind. A name that is both a base set and a tag (RMW: the
// read-modify-write events, and Linux's RMW annotation) is a base set here;
// an engine gives it the tag's meaning when some event carries the tag.
var (
	baseSets = fields(`_ W R M Exp F IW I FW B RMW`) // I: herd7's other name of IW

	tags = fields(
		// AArch64: annotations of accesses, and the barriers.
		`A Q L X NoRet NExp
		TLBI TLBIIS TLBInXS DC.CVAU IC.IVAU IC.IALLU IC.IALLUIS TagCheck EXC-RET EXC-ENTRY FAULT T SPURIOUS
		BCC DATA Rreg
		DMB.SY DMB.LD DMB.ST DMB.ISH DMB.ISHLD DMB.ISHST DMB.OSH DMB.OSHLD DMB.OSHST DMB.NSH DMB.NSHLD DMB.NSHST
		DSB.SY DSB.LD DSB.ST DSB.ISH DSB.ISHLD DSB.ISHST DSB.OSH DSB.OSHLD DSB.OSHST DSB.NSH DSB.NSHLD DSB.NSHST
		ISB`,
		// X86's barriers (herd's x86fences.cat reads them; X above is its
		// set of locked accesses).
		`MFENCE SFENCE LFENCE`,
		// BPF's annotations besides X and SC: load_acquire's AQ and
		// store_release's RL (the same name as Linux's read-lock tag
		// below: a set is just the events that carry the tag).
		`AQ`,
		// AArch32's barriers: herd7 defines them on AArch64 tests too,
		// where no event carries them (its aarch32.cat reads them).
		`DMB DSB`,
		// C11: memory orders.
		`NA RLX ACQ REL ACQ_REL SC CON`,
		// C: herd's lock events (LK, LS of C11's mutexes; the Linux
		// spinlock's LKR, LKW, UL, LF, RL, RU) and the RCU fences, which
		// herd7 defines for every C test. The other Linux annotations
		// (Once, Mb, Srcu-lock...) are a bell's: its enums define them.
		`LK LS UL LKR LKW LF RL RU Rcu-lock Rcu-unlock Sync-rcu`,
		// Messages: C's send(x, v) and recv(x) (docs/protocols.md).
		`SEND RECV`)

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
	add(tags, cat.KindSet, true)
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
