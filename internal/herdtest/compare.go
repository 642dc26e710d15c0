package herdtest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/mcm/herdout"
)

// Compare lists the differences between a reference block and ours that
// matter for agreement with herd7: a missing result, the verdict, the set of
// final states (order and hexadecimal/decimal spelling aside) and the
// Positive/Negative counts. No difference gives nil. The Hash line is not
// compared: it identifies the test (litmus.Test.Hash), whose own test
// checks it against herd7's.
func Compare(ref, got Block) []string {
	switch {
	case ref.Result == nil && got.Result == nil:
		return nil
	case ref.Result == nil:
		return []string{fmt.Sprintf("reference has no result (%s)", status(ref))}
	case got.Result == nil:
		return []string{fmt.Sprintf("no result (%s)", status(got))}
	}
	r, g := ref.Result, got.Result
	var diffs []string
	if r.Verdict != g.Verdict {
		diffs = append(diffs, fmt.Sprintf("verdict: want %s, got %s", r.Verdict, g.Verdict))
	}
	want, have := stateSet(r.States), stateSet(g.States)
	var missing, extra []string
	for k, line := range want {
		if _, ok := have[k]; !ok {
			missing = append(missing, line)
		}
	}
	for k, line := range have {
		if _, ok := want[k]; !ok {
			extra = append(extra, line)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	for _, s := range missing {
		diffs = append(diffs, "missing state: "+s)
	}
	for _, s := range extra {
		diffs = append(diffs, "extra state: "+s)
	}
	if r.Positive != g.Positive || r.Negative != g.Negative {
		diffs = append(diffs, fmt.Sprintf("witnesses: want Positive: %d Negative: %d, got Positive: %d Negative: %d",
			r.Positive, r.Negative, g.Positive, g.Negative))
	}
	return diffs
}

func status(b Block) string {
	switch {
	case b.Timeout:
		return "TIMEOUT"
	case b.Error != "":
		return "ERROR " + b.Error
	}
	return "empty"
}

// stateSet maps each state's normal form (bindings sorted by location,
// integers in decimal) to its line.
func stateSet(states []herdout.State) map[string]string {
	set := make(map[string]string, len(states))
	for _, s := range states {
		set[normalState(s)] = s.String()
	}
	return set
}

func normalState(s herdout.State) string {
	parts := make([]string, 0, len(s.Bindings)+len(s.Faults))
	for _, b := range s.Bindings {
		v := b.Value
		if n, ok := herdout.ParseInt(v); ok { // 0x10 and 16 are one value
			v = n.String()
		}
		parts = append(parts, b.Loc+"="+v+";")
	}
	slices.Sort(parts)
	faults := slices.Clone(s.Faults)
	slices.Sort(faults)
	return strings.Join(parts, " ") + "|" + strings.Join(faults, " ")
}

// CompareFlags describes how got's flags differ from ref's, which Compare
// leaves out (herd7's corpora run models whose flags purr's tests do not
// all follow); nothing when either has no result.
func CompareFlags(ref, got Block) []string {
	if ref.Result == nil || got.Result == nil {
		return nil
	}
	var diffs []string
	for _, f := range ref.Result.Flags {
		if !slices.Contains(got.Result.Flags, f) {
			diffs = append(diffs, "missing flag: "+f)
		}
	}
	for _, f := range got.Result.Flags {
		if !slices.Contains(ref.Result.Flags, f) {
			diffs = append(diffs, "extra flag: "+f)
		}
	}
	return diffs
}
