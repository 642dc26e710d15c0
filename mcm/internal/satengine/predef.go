package satengine

import (
	"maps"
	"slices"
	"sort"

	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// predefined computes the sets and relations herd7 predefines for a test,
// named as herd names them; observed are the addresses whose final write
// herd tells executions apart by (FW).
func (en *encoding) predefined(observed []outcome.Value) (sets map[string]Set, rels map[string]Rel) {
	al, u := en.al, en.u
	s := en.s
	sets = map[string]Set{}
	set := func(name string, member func(e *events.Event) bool) {
		x := al.EmptySet()
		for i, e := range u.Events {
			if member(e) {
				x[i] = al.Exec[i]
			}
		}
		sets[name] = x
	}
	set("_", func(*events.Event) bool { return true })
	set("W", (*events.Event).IsWrite)
	set("R", (*events.Event).IsRead)
	set("M", (*events.Event).IsMem)
	set("Exp", (*events.Event).IsMem) // every access of a litmus test is explicit
	set("F", func(e *events.Event) bool { return e.Kind == events.KindFence })
	set("IW", func(e *events.Event) bool { return e.Kind == events.KindInit })
	set("I", func(e *events.Event) bool { return e.Kind == events.KindInit }) // herd7's other name of IW
	set("B", func(e *events.Event) bool { return e.Kind == events.KindBranch })
	set("RMW", func(e *events.Event) bool { return e.RMW != nil })
	// Every tag an event carries is the set of events carrying it.
	for _, tag := range en.tags() {
		set(tag, func(e *events.Event) bool { return e.HasTag(tag) })
	}

	rels = map[string]Rel{}
	rels["id"] = al.Identity(al.Exec)
	po, intl, loc := make(Rel), make(Rel), make(Rel)
	addr, data, ctrl := make(Rel), make(Rel), make(Rel)
	pickAddr, pickData, pickCtrl := make(Rel), make(Rel), make(Rel)
	iicoData, iicoCtrl := make(Rel), make(Rel)
	rmw, amo := make(Rel), make(Rel)
	iicoOrder := make(Rel)
	for _, a := range u.Events {
		for _, b := range u.Events {
			ea, eb := al.Exec[a.ID], al.Exec[b.ID]
			if events.POOrdered(a, b) {
				po[eval.PairOf(a.ID, b.ID)] = eb // b's path runs through a
			}
			if a != b && a.IsMem() && b.IsMem() && events.SameInstruction(a, b) && a.Depth < b.Depth {
				// The accesses of one instruction in the order it makes them
				// (herd's iico_order: STILP's two writes).
				iicoOrder[eval.PairOf(a.ID, b.ID)] = eb
			}
			if a == b || (a.Thread >= 0 && a.Thread == b.Thread && events.MayCoexist(a, b)) {
				al.Put(intl, a.ID, b.ID, s.And(ea, eb))
			}
			if a.HasLoc() && b.HasLoc() && events.MayAlias(a.Addr, b.Addr) && events.MayCoexist(a, b) {
				al.Put(loc, a.ID, b.ID, s.And(ea, eb, en.sameValue(a.Addr, b.Addr)))
			}
		}
		// Dependencies between the events of one instruction are herd's
		// iico_data (the read and write of an LDADD) and iico_ctrl (the
		// comparison of a CAS deciding its write), not addr or data.
		dep := func(r, intra Rel, reads []*events.Event) {
			for _, d := range reads {
				k := eval.PairOf(d.ID, a.ID)
				if events.SameInstruction(d, a) {
					intra[k] = al.Exec[a.ID]
				} else {
					r[k] = al.Exec[a.ID]
				}
			}
		}
		dep(addr, iicoData, a.AddrDeps)
		if a.Kind != events.KindBranch {
			dep(data, iicoData, a.DataDeps)
		}
		dep(ctrl, iicoData, a.CtrlDeps)
		// Pick dependencies include the plain ones, as herd's do.
		dep(pickAddr, iicoCtrl, a.AddrDeps)
		dep(pickAddr, iicoCtrl, a.AddrPicks)
		if a.Kind != events.KindBranch {
			dep(pickData, iicoCtrl, a.DataDeps)
			dep(pickData, iicoCtrl, a.DataPicks)
		}
		dep(pickCtrl, iicoCtrl, a.CtrlDeps)
		dep(pickCtrl, iicoCtrl, a.CtrlPicks)
		if a.IsRead() && a.RMW != nil {
			w := a.RMW
			rmw[eval.PairOf(a.ID, w.ID)] = al.Exec[w.ID]
			if events.InAmo(a, w) {
				amo[eval.PairOf(a.ID, w.ID)] = al.Exec[w.ID]
			}
		}
	}
	rels["po"], rels["int"], rels["loc"] = po, intl, loc
	rels["ext"] = al.Complement(intl)
	rels["addr"], rels["data"], rels["ctrl"] = addr, data, ctrl
	rels["pick-addr-dep"], rels["pick-data-dep"], rels["pick-ctrl-dep"] = pickAddr, pickData, pickCtrl
	rels["rmw"], rels["amo"] = rmw, amo
	rels["rf"], rels["co"] = en.rf, en.co
	rels["fr"] = en.fromReads()
	// Instructions of non-mixed-size tests make one event each, and every
	// memory access is its own single-byte-range access.
	rels["si"] = rels["id"]
	rels["same-instance"] = rels["id"]
	rels["sm"] = al.Identity(sets["M"])
	// Without register events, iico_data relates the memory events of one
	// instruction, and a pick inside an instruction that is also a plain
	// dependency is data; there is no register read-from.
	rels["iico_data"], rels["iico_ctrl"], rels["rf-reg"] = iicoData, al.Diff(iicoCtrl, iicoData), Rel{}
	sameInstr := make(Rel)
	for _, a := range u.Events {
		for _, b := range u.Events {
			if a == b || events.SameInstruction(a, b) {
				al.Put(sameInstr, a.ID, b.ID, s.And(al.Exec[a.ID], al.Exec[b.ID]))
			}
		}
	}
	rels["same-instr"] = sameInstr
	if u.RegisterEvents {
		// herd's event structure: the flows the unfolding recorded, and
		// the events of one instruction instance are one instance.
		iicoData, iicoCtrl, rfReg := make(Rel), make(Rel), make(Rel)
		for _, a := range u.Events {
			for _, d := range a.IicoData {
				iicoData[eval.PairOf(d.ID, a.ID)] = al.Exec[a.ID]
			}
			for _, d := range a.IicoCtrl {
				iicoCtrl[eval.PairOf(d.ID, a.ID)] = al.Exec[a.ID]
			}
			if a.RegFrom != nil {
				rfReg[eval.PairOf(a.RegFrom.ID, a.ID)] = al.Exec[a.ID]
			}
		}
		rels["iico_data"], rels["iico_ctrl"], rels["rf-reg"] = iicoData, iicoCtrl, rfReg
		rels["si"], rels["same-instance"] = sameInstr, sameInstr
	}
	// Relations of herd's virtual-memory and tagged-memory models, empty
	// for tests without page tables or tags.
	rels["iico_order"] = iicoOrder
	for _, name := range []string{"same-low-order-bits", "same-tag-loc"} {
		rels[name] = Rel{}
	}

	// FW: the co-last write to each observed location (herd7 builds the
	// final writes of those only). Marks co orders (lock events) are no
	// writes: herd7's own co never orders them, so the final write of a
	// lock is its last real write, the initial one when no other.
	fw := al.EmptySet()
	for i, e := range u.Events {
		if !e.IsWrite() {
			continue
		}
		var at []sat.Lit
		for _, a := range observed {
			at = append(at, en.valueIs(e.Addr, a))
		}
		lits := []sat.Lit{al.Exec[i], s.Or(at...)}
		for _, k := range eval.SortedPairs(en.co) {
			if int(k.A) == i && u.Events[k.B].IsWrite() {
				lits = append(lits, -en.co[k])
			}
		}
		fw[i] = s.And(lits...)
	}
	sets["FW"] = fw
	return sets, rels
}

// tags lists the tags events carry, sorted.
func (en *encoding) tags() []string {
	seen := map[string]bool{}
	for _, e := range en.u.Events {
		for _, t := range e.Tags {
			seen[t] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// PredefinedNames are the names of the sets and relations the SAT engine
// computes for u, for the test that holds every engine to predef's table.
func PredefinedNames(u *events.Unfolding) (sets, rels []string) {
	s, r := encodeLimited(u, sat.Limits{}).predefined(nil)
	return slices.Sorted(maps.Keys(s)), slices.Sorted(maps.Keys(r))
}
