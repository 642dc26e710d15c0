package litmus

import (
	"fmt"

	"github.com/purr-mcm/purr/xcfa"
)

// checkInitOnce refuses a location or register given two initial values
// ({ x=1; x=2; }, { 1:X1=y; 1:X1=x; }): herd7 refuses such a test
// ("Location x is initialized more than once") rather than choose one of
// the values, and so does purr. Before the dialect renames registers,
// names compare as written, as herd7 compares them; after it (renamed),
// two views of one register (0:X1 and 0:W1) are the same register too.
func checkInitOnce(init []InitEntry, renamed bool) error {
	first := make(map[Loc]InitEntry, len(init))
	for _, in := range init {
		k := in.Loc.Key()
		prev, twice := first[k]
		if !twice {
			first[k] = in
			continue
		}
		name, pos, prevPos := herdLocName(in.Loc), in.Loc.Pos, prev.Loc.Pos
		at := fmt.Sprintf("%d:%d", prevPos.Line, prevPos.Col)
		if renamed {
			return Errorf(pos, "%s is initialised twice, under two names of one register, first at %s", name, at)
		}
		return Errorf(pos, "%s is initialised twice, first at %s (herd7: %q)",
			name, at, "Location "+name+" is initialized more than once")
	}
	return nil
}

// herdLocName prints a location of the initial state as herd7's messages
// do: 1:X1, x.
func herdLocName(l Loc) string {
	if l.Kind == GlobalLoc {
		if l.Tag != "" {
			return l.Name + ":" + l.Tag
		}
		return l.Name
	}
	return l.String()
}

// RowMismatch refuses a row of an assembly program with more or fewer
// cells than the program has threads: a line cut short or run together
// with the next would give some thread another program than written
// (herd7: "mismatch in instruction lines").
func RowMismatch(pos xcfa.Pos, cells, threads int) error {
	noun := "cells"
	if cells == 1 {
		noun = "cell"
	}
	return Errorf(pos, "this row has %d %s but the program has %d threads (herd7: %q)", cells, noun, threads, "mismatch in instruction lines")
}
