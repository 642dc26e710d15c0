package events

import (
	"fmt"
	"sort"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
)

// purr's memory is a set of cells, each read and written whole: right
// only while the accesses to a location agree on its cells. Accesses of
// different sizes or at different offsets over the same bytes (STRB and
// LDR W on one word, STRH at x+2 and LDR W at x, a 4-byte store to a
// uint8_t array) need mixed-size semantics (herd7's -variant mixed), which
// purr does not have: such a test is refused rather than answered wrongly.
//
// A declared type fixes a location's cells. An access narrower than its
// cell, at the cell's start, keeps working as a cell access (a load
// zero-extends the cell's low bytes, a store writes its value, zero-
// extended, over the cell), as herd7's regression tests (LDRB of a
// uint64_t) expect: exact as long as the bytes past the access are zero
// when it stores, which holds when the cell's initial value fits the
// access, since every store has the same size. An access that starts
// inside a cell or spills over the next one is mixed.

// shape is the bytes one access touches: size bytes of a location from
// byte off.
type shape struct {
	off  int64
	size int
}

func (a shape) overlaps(b shape) bool {
	return a.off < b.off+int64(b.size) && b.off < a.off+int64(a.size)
}

func (a shape) String() string { return fmt.Sprintf("%s at offset %d", byteCount(a.size), a.off) }

// byteCount spells a number of bytes.
func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// sizedAccess is a memory access, as a message names it.
type sizedAccess struct {
	pos  source.Pos
	what string
}

// declaration is a location's declared type: cells of size bytes.
type declaration struct {
	pos         source.Pos
	text        string // "uint8_t t[4]"
	size, cells int
}

// CheckAccessSizes refuses a test in which two accesses may touch
// overlapping bytes of one location with different sizes or offsets, an
// access may start where the location has no cell (x+2 of a scalar x),
// or an access does not fit the cells its location's declared type gives.
// A plain write off the location's storage (x+-1, x+4 of a scalar x) is
// no such access: herd7 without -variant mixed takes the address for a
// location of its own, and so do the engines (a cell with no initial
// write, which no read can see).
// It also refuses an access that may touch code (instruction fetch) or
// a number (an address that is no location's), and a read that can read
// no value (its address is never a location).
// It runs on the events after the value analysis: an access counts at
// every address it may use.
func CheckAccessSizes(t *litmus.Test, u *Unfolding, lay Layout) error {
	// first[sym][shape] is the first access of that shape, in the order
	// of the unfolding; shapes[sym] lists them in that order.
	first := map[string]map[shape]sizedAccess{}
	shapes := map[string][]shape{}
	initial := map[outcome.Value]outcome.Value{} // each cell's initial value
	stored := map[string]map[shape]sizedAccess{} // the first store of each shape
	var noValue error                            // the first read that can read nothing
	for _, e := range u.Events {
		if e.Kind == KindInit {
			initial[e.Addr.Dom[0]] = e.Val.Dom[0]
		}
		if !e.IsMem() || e.Kind == KindInit || e.Seg.Dead || e.Seg.Cut {
			continue
		}
		a := sizedAccess{e.Pos, t.Program.Procs[e.Thread].Instr(e.Code).Text}
		if a.what == "" {
			a.what = map[bool]string{true: "a read", false: "a write"}[e.IsRead()]
		}
		for _, v := range e.Addr.Dom {
			if isCode(v) {
				return source.Errorf(a.pos, "%s may access the code at %s: purr has no semantics for instruction fetch or self-modifying code", a.what, v)
			}
			if !v.IsAddr() && withoutReads(e.Addr, map[*Term]bool{}) {
				return nonSymbolic(a, v)
			}
		}
		if e.IsRead() && len(e.Val.Dom) == 0 && noValue == nil {
			// No write, not even an initial one, is at any address the
			// read may use: taking it that the path cannot run would be
			// an answer about something purr does not model. Reported
			// after the shapes: a read inside a location, where no cell
			// starts, is mixed-size (herd7: "mixed-size test rejected").
			noValue = source.Errorf(a.pos, "%s can read no value: its address %v is never a location of the test", a.what, e.Addr.Dom)
		}
		for _, v := range e.Addr.Dom {
			if !v.IsAddr() || isCode(v) {
				continue
			}
			if lay.Length[v.Sym] > 0 && outside(lay, v) {
				// An array's bounds are declared: herd7 refuses an access
				// past them rather than take it for another location.
				return source.Errorf(a.pos, "%s may access %s, outside the array %s (herd7: %q)",
					a.what, v, v.Sym, "Out of bounds access on array "+v.Sym)
			}
			if e.IsWrite() && !e.IsRead() && outside(lay, v) {
				// herd7 without -variant mixed: an address off the
				// location's storage ([y+-1] of a scalar y) is a location
				// of its own, which a write may create (C-basic-02); a
				// read there has no value and is refused above.
				continue
			}
			size := e.Size
			if size == 0 {
				size = lay.size(v.Sym) // the location's own size
			}
			s := shape{v.Off, size}
			if first[v.Sym] == nil {
				first[v.Sym] = map[shape]sizedAccess{}
			}
			if _, ok := first[v.Sym][s]; !ok {
				first[v.Sym][s] = a
				shapes[v.Sym] = append(shapes[v.Sym], s)
			}
			if e.IsWrite() {
				if stored[v.Sym] == nil {
					stored[v.Sym] = map[shape]sizedAccess{}
				}
				if _, ok := stored[v.Sym][s]; !ok {
					stored[v.Sym][s] = a
				}
			}
		}
	}
	decls := map[string]declaration{}
	for _, in := range t.Init {
		if in.Loc.Kind == litmus.GlobalLoc && in.Type != "" && !in.Pointer {
			d := declaration{pos: in.Pos, text: in.Type + " " + in.Loc.Name, size: outcome.TypeSize(in.Type), cells: max(in.ArrayLen, 1)}
			if in.ArrayLen > 0 {
				d.text += fmt.Sprintf("[%d]", in.ArrayLen)
			}
			decls[in.Loc.Name] = d
		}
	}
	syms := make([]string, 0, len(shapes))
	for sym := range shapes {
		syms = append(syms, sym)
	}
	sort.Strings(syms)
	const unsupported = "purr does not support mixed-size accesses yet"
	for _, sym := range syms {
		ss := shapes[sym]
		for j := range ss {
			for i := 0; i < j; i++ {
				if !ss[i].overlaps(ss[j]) {
					continue
				}
				a, b, sa, sb := first[sym][ss[i]], first[sym][ss[j]], ss[i], ss[j]
				if a.pos == b.pos {
					return mixedSize(a.pos, "mixed-size accesses to %s: %s may access %s or %s; %s",
						sym, a.what, sa, sb, unsupported)
				}
				if b.pos.Before(a.pos) {
					a, b, sa, sb = b, a, sb, sa
				}
				return mixedSize(a.pos, "mixed-size accesses to %s: %s (%s) and %s: %s (%s); %s",
					sym, a.what, sa, b.pos, b.what, sb, unsupported)
			}
		}
		d, declared := decls[sym]
		for _, s := range ss {
			a := first[sym][s]
			if declared && s.overlaps(shape{0, d.size * d.cells}) && (s.off%int64(d.size) != 0 || s.size > d.size) {
				return mixedSize(a.pos, "mixed-size accesses to %s: %s (%s) and %s: the declaration %s (cells of %s); %s",
					sym, a.what, s, d.pos, d.text, byteCount(d.size), unsupported)
			}
			init, isCell := initial[outcome.Value{Sym: sym, Off: s.off}]
			if !isCell {
				return mixedSize(a.pos, "%s may access %s at offset %d, where no cell of %s starts; %s",
					a.what, sym, s.off, sym, unsupported)
			}
			if w, ok := stored[sym][s]; ok && declared && s.size < d.size && !fits(init, s.size) {
				cell := sym
				if lay.Length[sym] > 0 {
					cell = fmt.Sprintf("%s[%d]", sym, s.off/int64(d.size))
				}
				return mixedSize(w.pos, "mixed-size accesses to %s: %s (%s) and %s: the initial value %s of %s, wider than %s; %s",
					sym, w.what, s, d.pos, init, cell, byteCount(s.size), unsupported)
			}
		}
	}
	return noValue
}

// MixedSizeError is CheckAccessSizes's refusal of accesses of different
// sizes to one location, which purr has no semantics for. herd7 may stop
// on such a test for another reason first (an operation on an address:
// the engines' hazards).
type MixedSizeError struct{ Err error }

func (e *MixedSizeError) Error() string { return e.Err.Error() }
func (e *MixedSizeError) Unwrap() error { return e.Err }

func mixedSize(pos source.Pos, format string, args ...any) error {
	return &MixedSizeError{source.Errorf(pos, format, args...)}
}

// nonSymbolic refuses an access whose address may be a number rather
// than the address of a location: a register never given a location
// (its line of the initial state lost) holds 0, and herd7 stops on such
// an access rather than take the number for a location of its own. herd7
// checks the addresses it knows before it pairs reads with writes (those
// withoutReads computes). A write whose address comes from memory is
// refused by the engines when a candidate execution makes it a number
// (NumericAddressWrites); a read at such an address reads nothing and
// its pairing is dropped, as herd7 answers LKMM's C-PPO000-019rcu.
func nonSymbolic(a sizedAccess, addr outcome.Value) error {
	return source.Errorf(a.pos, "%s may access memory at %s, a number and not the address of a location (herd7: %q)",
		a.what, addr, fmt.Sprintf("Non-symbolic memory access found on '[%s]'", addr))
}

// withoutReads tells whether a term's value is known without the value of
// any read: from constants and the initial registers only, or x^x (herd7
// makes it zero before x is known). seen marks the terms visited.
func withoutReads(t *Term, seen map[*Term]bool) bool {
	if t == nil || seen[t] || t.Op == TermConst || t.Cancels() {
		return true
	}
	seen[t] = true
	if t.Op == TermRead {
		return false
	}
	for _, a := range t.Args {
		if !withoutReads(a, seen) {
			return false
		}
	}
	return true
}

// outside tells whether address a lies off its location's storage: before
// it or past its last cell.
func outside(lay Layout, a outcome.Value) bool {
	return a.Off < 0 || a.Off >= int64(lay.size(a.Sym)*max(lay.Length[a.Sym], 1))
}

// fits tells whether an integer's bits, past the low size bytes, are all
// zero: a store of size bytes over a cell holding it leaves the rest of
// the cell as purr's whole-cell store does.
func fits(v outcome.Value, size int) bool {
	return !v.IsAddr() && uint64(v.Off)>>(8*size) == 0
}
