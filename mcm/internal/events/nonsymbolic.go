package events

import (
	"slices"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// NumericAddressWrites lists the writes whose address may be a number
// that comes from a read: a pointer read from a location that may hold
// 0. (An address that may be a number without any read's value is
// refused by CheckAccessSizes.) herd7 stops on a test in which such a
// write takes a number for its address in a candidate execution, before
// any model is consulted (the Linux kernel's C-JO-OOTA-7: "Non-symbolic
// memory access found on '[0]'"); each engine looks for that candidate
// among the writes listed here.
func (u *Unfolding) NumericAddressWrites() []*Event {
	var ws []*Event
	for _, e := range u.Events {
		if e.Kind != KindWrite || e.Seg.Dead || e.Seg.Cut {
			continue
		}
		if slices.ContainsFunc(e.Addr.Dom, func(v outcome.Value) bool { return !v.IsAddr() }) {
			ws = append(ws, e)
		}
	}
	return ws
}

// NonSymbolicWrite is the refusal of a test in which a candidate
// execution has the write w take the number addr for its address.
func NonSymbolicWrite(t *litmus.Test, w *Event, addr outcome.Value) error {
	what := t.Program.Procs[w.Thread].Instr(w.Code).Text
	if what == "" {
		what = "a write"
	}
	return nonSymbolic(sizedAccess{w.Pos, what}, addr)
}
