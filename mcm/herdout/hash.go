package herdout

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// InitItem is one entry of a test's initial state, for Hash: its location
// as herd7's parser prints it ("0:X1", "x", "x[1]") and the entry as
// herd7's digest prints it: "loc=value" for untyped entries ("0:X1=x"),
// "type loc=value" when typed ("int x=0"), "*loc=value" for an untyped
// pointer, "_Atomic type loc=value", "type *loc=value", "type loc[size]".
type InitItem struct {
	Loc, Text string
}

// Hash computes the Hash= line herd7 prints for a test that carries no
// Hash of its own (lib/testHash.ml): the hex MD5 of
// MD5(init) ‖ MD5(code) ‖ MD5(observed), where
//
//   - init is the initial state's entries sorted by location (herd7's
//     parser order: registers by thread then name, as strings, before
//     memory), duplicates dropped, joined by "; ";
//   - code is the program laid out in columns as herd7 prints it: each
//     thread's instructions in herd7's canonical syntax, with labels
//     renamed L00, L01, ... in order of first appearance in herd7's label
//     set (the caller's job), each line " cell " padded to the column's
//     width, cells joined by "|", the line ended by ";\n";
//   - observed is the condition's locations (and those of a locations
//     clause), sorted as init, joined by "; ".
//
// The hash depends on herd7's exact printing of every instruction, which
// only the litmus front end can reproduce: callers pass threads[t][i] in
// that canonical form.
func Hash(init []InitItem, threads [][]string, observed []string) string {
	items := slices.Clone(init)
	slices.SortStableFunc(items, func(a, b InitItem) int { return compareParsedLocations(a.Loc, b.Loc) })
	items = slices.CompactFunc(items, func(a, b InitItem) bool { return compareParsedLocations(a.Loc, b.Loc) == 0 })
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.Text
	}
	locs := slices.Clone(observed)
	slices.SortFunc(locs, compareParsedLocations)
	locs = slices.Compact(locs)

	digest := func(s string) []byte { d := md5.Sum([]byte(s)); return d[:] }
	var all []byte
	all = append(all, digest(strings.Join(texts, "; "))...)
	all = append(all, digest(ProgramColumns(threads))...)
	all = append(all, digest(strings.Join(locs, "; "))...)
	sum := md5.Sum(all)
	return hex.EncodeToString(sum[:])
}

// ProgramColumns lays threads out side by side as herd7's
// Misc.string_of_prog does.
func ProgramColumns(threads [][]string) string {
	widths := make([]int, len(threads))
	rows := 0
	for t, code := range threads {
		for _, ins := range code {
			widths[t] = max(widths[t], len(ins))
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

// compareParsedLocations is the location order of herd7's parser
// (MiscParser.location_compare): registers first, by thread then by name
// as a string; then memory by symbol.
func compareParsedLocations(a, b string) int {
	pa, ra, aReg := splitRegister(a)
	pb, rb, bReg := splitRegister(b)
	switch {
	case aReg && bReg:
		if pa != pb {
			return pa - pb
		}
		return strings.Compare(ra, rb)
	case aReg:
		return -1
	case bReg:
		return 1
	}
	return strings.Compare(a, b)
}

func splitRegister(loc string) (proc int, reg string, ok bool) {
	colon := strings.IndexByte(loc, ':')
	if colon <= 0 {
		return 0, "", false
	}
	p, err := strconv.Atoi(loc[:colon])
	if err != nil {
		return 0, "", false
	}
	return p, loc[colon+1:], true
}
