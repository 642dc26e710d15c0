package herdout

import (
	"cmp"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// herd7 keeps final states in an OCaml set of maps from locations to
// values, and prints both in their order: bindings by location, states by
// comparing their bindings in turn (location, then value; a state that is a
// prefix of another comes first), then their faults.

// SortStates puts each state's bindings in herd7's location order and the
// states in herd7's order, dropping duplicates.
func SortStates(states []State) []State {
	// The states of a test list the same locations in the same order, as
	// a rule: sort the first's, and put the next in the same order while
	// they list the same.
	var locs []string // of the last state sorted, as it listed them
	var order []int   // its sorted bindings, as indices into that list
	var sorted []Binding
	for _, s := range states {
		if !sameLocations(s.Bindings, locs) {
			locs = locs[:0]
			for _, b := range s.Bindings {
				locs = append(locs, b.Loc)
			}
			order = order[:0]
			for i := range s.Bindings {
				order = append(order, i)
			}
			slices.SortStableFunc(order, func(i, j int) int { return CompareLocations(locs[i], locs[j]) })
		}
		sorted = sorted[:0]
		for _, j := range order {
			sorted = append(sorted, s.Bindings[j])
		}
		copy(s.Bindings, sorted)
	}
	slices.SortStableFunc(states, CompareStates)
	return slices.CompactFunc(states, func(a, b State) bool { return CompareStates(a, b) == 0 })
}

func sameLocations(bs []Binding, locs []string) bool {
	if len(bs) != len(locs) {
		return false
	}
	for i, b := range bs {
		if b.Loc != locs[i] {
			return false
		}
	}
	return true
}

// CompareStates orders two states (with sorted bindings) as herd7 does.
func CompareStates(a, b State) int {
	for i := range min(len(a.Bindings), len(b.Bindings)) {
		x, y := a.Bindings[i], b.Bindings[i]
		if c := CompareLocations(x.Loc, y.Loc); c != 0 {
			return c
		}
		if c := CompareValues(x.Value, y.Value); c != 0 {
			return c
		}
	}
	if c := len(a.Bindings) - len(b.Bindings); c != 0 {
		return c
	}
	return slices.Compare(a.Faults, b.Faults)
}

// location is a printed location split for comparison.
type location struct {
	reg      bool
	proc     int
	regRank  int    // registers: XZR, then X0..X30 (RISC-V's x0..x31) by number, then others
	regNum   int    // number of Xn/Wn/xn
	name     string // register name, or the global's symbol
	index    int    // array element, -1 for the whole location
	original string
}

func parseLocation(s string) location {
	l := location{original: s, index: -1}
	if colon := strings.IndexByte(s, ':'); colon > 0 {
		if p, err := strconv.Atoi(s[:colon]); err == nil {
			l.reg, l.proc, l.name = true, p, s[colon+1:]
			l.regRank = 2
			switch {
			case l.name == "XZR" || l.name == "WZR":
				l.regRank = 0
			case len(l.name) > 1 && (l.name[0] == 'X' || l.name[0] == 'W' || l.name[0] == 'x'):
				if n, err := strconv.Atoi(l.name[1:]); err == nil && n >= 0 {
					l.regRank, l.regNum = 1, n
				}
			}
			return l
		}
	}
	name := s
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1]
	}
	if open := strings.IndexByte(name, '['); open > 0 && strings.HasSuffix(name, "]") {
		if i, err := strconv.Atoi(name[open+1 : len(name)-1]); err == nil {
			name, l.index = name[:open], i
		}
	}
	l.name = name
	return l
}

// CompareLocations orders printed locations as herd7 does: whole
// locations before array elements (u[0]); registers before memory;
// registers by thread, then (AArch64) XZR, X0..X30 by number (RISC-V's
// x0..x31 too), then other names; memory by symbol, then element.
func CompareLocations(a, b string) int {
	if a == b {
		return 0
	}
	x, y := parseLocation(a), parseLocation(b)
	// herd7's rlocation: whole locations (Loc) before array elements (Deref).
	if xd, yd := x.index >= 0, y.index >= 0; xd != yd {
		if xd {
			return 1
		}
		return -1
	}
	if x.reg != y.reg {
		if x.reg {
			return -1
		}
		return 1
	}
	if x.reg {
		if c := x.proc - y.proc; c != 0 {
			return c
		}
		if c := x.regRank - y.regRank; c != 0 {
			return c
		}
		if x.regRank == 1 {
			if c := x.regNum - y.regNum; c != 0 {
				return c
			}
		}
		return strings.Compare(x.name, y.name)
	}
	if c := strings.Compare(x.name, y.name); c != 0 {
		return c
	}
	if c := x.index - y.index; c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// ParseInt reads a value as herd7 prints it: a decimal or 0x-prefixed
// hexadecimal integer, possibly negative.
func ParseInt(s string) (*big.Int, bool) {
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	base := 10
	if h, found := strings.CutPrefix(digits, "0x"); found {
		digits, base = h, 16
	}
	if digits == "" {
		return nil, false
	}
	n, ok := new(big.Int).SetString(digits, base)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// parseInt64 reads the integers that fit 64 bits as ParseInt and
// asSigned64 do, without their allocations: the common case of sorting.
func parseInt64(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	if h, found := strings.CutPrefix(s, "0x"); found {
		if n, err := strconv.ParseUint(h, 16, 64); err == nil {
			return int64(n), true
		}
	}
	return 0, false
}

var two64 = new(big.Int).Lsh(big.NewInt(1), 64)
var two63 = new(big.Int).Lsh(big.NewInt(1), 63)

// asSigned64 maps an integer to the signed 64-bit value herd7 stores.
func asSigned64(n *big.Int) *big.Int {
	if n.Cmp(two63) >= 0 {
		return new(big.Int).Sub(n, two64)
	}
	return n
}

// CompareValues orders printed values as herd7 does: integers (as signed
// 64-bit numbers, whatever their spelling) before symbolic values, which
// are ordered by name.
func CompareValues(a, b string) int {
	if a == b {
		return 0
	}
	if x, ok := parseInt64(a); ok {
		if y, ok := parseInt64(b); ok {
			return cmp.Compare(x, y)
		}
	}
	x, xInt := ParseInt(a)
	y, yInt := ParseInt(b)
	switch {
	case xInt && yInt:
		return asSigned64(x).Cmp(asSigned64(y))
	case xInt:
		return -1
	case yInt:
		return 1
	}
	return strings.Compare(a, b)
}
