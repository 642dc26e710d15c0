package litmus

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Hash is the test's identity as herd7 prints it on its "Hash=" line: the
// value of a Hash key of the test's own metadata when it has one (herd7
// keeps it), else the digest herd7 computes (lib/testHash.ml): the hex MD5
// of MD5(init) ‖ MD5(code) ‖ MD5(observed), where
//
//   - init is the initial state as written, entries sorted by location
//     (registers by thread then name, then memory), duplicates dropped,
//     each printed "loc=value", "type loc=value", "*loc=value", ..., joined
//     by "; ";
//   - code is the program laid out in columns (ProgramColumns) in herd7's
//     canonical syntax, which the dialect provides (HashCode);
//   - observed is the set of locations of the locations clause and of the
//     condition (not of the filter), sorted as init, joined by "; ".
//
// It returns "" when the dialect gave no canonical code.
func (t *Test) Hash() string {
	for _, kv := range t.Info {
		if strings.EqualFold(kv.Key, "Hash") {
			return kv.Value
		}
	}
	if t.HashCode == nil {
		return ""
	}
	return digest(t.hashInit, ProgramColumns(t.HashCode), t.hashObserved)
}

func digest(init, code, observed string) string {
	var all []byte
	for _, s := range []string{init, code, observed} {
		d := md5.Sum([]byte(s))
		all = append(all, d[:]...)
	}
	sum := md5.Sum(all)
	return hex.EncodeToString(sum[:])
}

// ProgramColumns lays threads out side by side as herd7's
// Misc.string_of_prog does: row by row, each cell " cell " padded to its
// column's widest cell, cells joined by "|", each row ended by ";\n".
func ProgramColumns(threads [][]string) string {
	widths := make([]int, len(threads))
	rows := 0
	for t, code := range threads {
		for _, line := range code {
			widths[t] = max(widths[t], len(line))
		}
		rows = max(rows, len(code))
	}
	var b strings.Builder
	for i := range rows {
		for t, code := range threads {
			if t > 0 {
				b.WriteByte('|')
			}
			cell := ""
			if i < len(code) {
				cell = code[i]
			}
			fmt.Fprintf(&b, " %-*s ", widths[t], cell)
		}
		b.WriteString(";\n")
	}
	return b.String()
}

// hashLoc is a location as herd7's parser keeps it: a register of a
// thread (named as written), a symbolic register, or a memory location.
type hashLoc struct {
	kind int // 0 register, 1 symbolic register, 2 memory
	proc int
	name string
	tag  string
	cell int    // an array cell x[i] of the condition: i; else -1
	text string // as the hash prints it
}

func newHashLoc(l Loc) hashLoc {
	switch l.Kind {
	case RegLoc:
		return hashLoc{kind: 0, proc: l.Proc, name: l.Name, cell: -1, text: fmt.Sprintf("%d:%s", l.Proc, l.Name)}
	case SymRegLoc:
		return hashLoc{kind: 1, name: l.Name, cell: -1, text: l.Name}
	}
	text, cell := l.Name, -1
	if l.Kind == IndexLoc {
		text += "[" + strconv.Itoa(l.Index) + "]"
		cell = l.Index
	}
	if l.Tag != "" {
		text += ":" + l.Tag
	}
	return hashLoc{kind: 2, name: l.Name, tag: l.Tag, cell: cell, text: text}
}

// compareHashLocs is herd7's order of locations (MiscParser's
// location_compare), array cells x[i] of the condition after the rest.
func compareHashLocs(a, b hashLoc) int {
	if (a.cell >= 0) != (b.cell >= 0) {
		if a.cell >= 0 {
			return 1
		}
		return -1
	}
	if a.kind != b.kind {
		return a.kind - b.kind
	}
	if a.proc != b.proc {
		return a.proc - b.proc
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	if c := strings.Compare(a.tag, b.tag); c != 0 {
		return c
	}
	return a.cell - b.cell
}

// hashValue prints a value of the state as herd7's parser keeps it:
// integers as written.
func hashValue(v *Value) string {
	if v == nil {
		return "0"
	}
	switch v.Kind {
	case IntValue:
		if v.Text != "" {
			return v.Text
		}
		return strconv.FormatInt(v.Int, 10)
	case AddrValue:
		s := v.Sym
		if v.Tag != "" {
			s += ":" + v.Tag
		}
		if v.Index != 0 {
			s += "+" + strconv.Itoa(v.Index)
		}
		return s
	case ArrayValue:
		parts := make([]string, len(v.Elems))
		for i := range v.Elems {
			parts[i] = hashValue(&v.Elems[i])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case LabelValue:
		return fmt.Sprintf("%d:%s", v.Index, v.Sym)
	}
	return v.String()
}

// hashInitText prints the initial state as herd7's digest does.
func hashInitText(init []InitEntry) string {
	type item struct {
		loc  hashLoc
		text string
	}
	items := make([]item, 0, len(init))
	for _, e := range init {
		loc := newHashLoc(e.Loc)
		val := hashValue(e.Value)
		var text string
		switch {
		case e.ArrayLen > 0:
			text = fmt.Sprintf("%s %s[%d]", e.Type, loc.text, e.ArrayLen)
		case e.Pointer && e.Type == "":
			text = "*" + loc.text + "=" + val
		case e.Pointer:
			text = e.Type + " *" + loc.text + "=" + val
		case e.Atomic:
			text = "_Atomic " + e.Type + " " + loc.text + "=" + val
		case e.Type != "":
			text = e.Type + " " + loc.text + "=" + val
		case e.Value != nil && e.Value.Kind == InstrValue:
			text = "ins_t " + loc.text + "=" + val
		default:
			text = loc.text + "=" + val
		}
		items = append(items, item{loc, text})
	}
	slices.SortStableFunc(items, func(a, b item) int { return compareHashLocs(a.loc, b.loc) })
	items = slices.CompactFunc(items, func(a, b item) bool { return compareHashLocs(a.loc, b.loc) == 0 })
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.text
	}
	return strings.Join(texts, "; ")
}

// hashObservedText prints the locations the test observes (its locations
// clause and its condition) as herd7's digest does.
func hashObservedText(locations []LocItem, cond Prop) string {
	var locs []hashLoc
	for _, it := range locations {
		if it.Fault == nil {
			locs = append(locs, newHashLoc(it.Loc))
		}
	}
	EachLoc(cond, func(l Loc) { locs = append(locs, newHashLoc(l)) })
	slices.SortFunc(locs, compareHashLocs)
	locs = slices.CompactFunc(locs, func(a, b hashLoc) bool { return compareHashLocs(a, b) == 0 })
	texts := make([]string, len(locs))
	for i, l := range locs {
		texts[i] = l.text
	}
	return strings.Join(texts, "; ")
}
