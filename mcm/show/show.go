package show

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// Relations are the relations to present: po, rf, co and fr, then those
// the model shows and those asked for (herd7's -doshow), less those
// herd7's -unshow removes, each once, in that order.
func Relations(shown, doshow, unshow []string) []string {
	var out []string
	for _, list := range [][]string{outcome.BaseRelations, shown, doshow} {
		for _, name := range list {
			if !slices.Contains(out, name) && !slices.Contains(unshow, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// edges are the pairs of a relation as pictures and listings show them:
// po and co without the edges their transitivity implies, as herd7 draws
// them.
func edges(x *outcome.Execution, rel string) ([]outcome.Edge, bool) {
	es, ok := x.Relations[rel]
	if !ok {
		return nil, false
	}
	if rel == "po" || rel == "co" {
		es = outcome.Reduce(es)
	}
	return es, true
}

// EventText is an event as herd7 labels it: "c: W[x]=1", "e: R[y]=0",
// "g: F".
func EventText(e outcome.Event) string {
	if e.Kind == "F" {
		return e.Label + ": F"
	}
	return fmt.Sprintf("%s: %s[%s]=%s", e.Label, e.Kind, e.Loc, e.Value)
}

// detail is what an event's instruction says of it, or its tags when the
// instruction is unknown.
func detail(e outcome.Event) string {
	if e.Instr != "" {
		return e.Instr
	}
	return strings.Join(e.Tags, ",")
}

// stateText prints a final state as herd7 prints a line of States.
func stateText(st outcome.State) string {
	var b strings.Builder
	for _, x := range st {
		fmt.Fprintf(&b, "%s=%s; ", x.LocString(), x.ValueString(false))
	}
	return strings.TrimSpace(b.String())
}

// threads are the P-numbers of an execution's threads, in order.
func threads(x *outcome.Execution) []int {
	var out []int
	for _, e := range x.Events {
		if e.Thread >= 0 && !slices.Contains(out, e.Thread) {
			out = append(out, e.Thread)
		}
	}
	return out
}

// setsOf lists the shown sets an event belongs to.
func setsOf(x *outcome.Execution, id int, rels []string) []string {
	var out []string
	for _, name := range rels {
		if members, ok := x.Sets[name]; ok && slices.Contains(members, id) {
			out = append(out, name)
		}
	}
	return out
}

// Listing writes the executions as text: per execution its number, the
// events of each thread (values and instruction), the edges of each
// relation in rels (see Relations) and of the sets in rels its events,
// its final state and whether the condition holds.
func Listing(w io.Writer, test string, xs []outcome.Execution, rels []string) error {
	var b strings.Builder
	for i := range xs {
		x := &xs[i]
		holds := "does not hold"
		if x.Holds {
			holds = "holds"
		}
		fmt.Fprintf(&b, "Execution %d of %s: the condition %s\n", x.Index, test, holds)
		var init []string
		for _, e := range x.Events {
			if e.Thread < 0 {
				init = append(init, EventText(e))
			}
		}
		fmt.Fprintf(&b, "  init: %s\n", strings.Join(init, "  "))
		for _, th := range threads(x) {
			head := fmt.Sprintf("  P%d:", th)
			for _, e := range x.Events {
				if e.Thread != th {
					continue
				}
				fmt.Fprintf(&b, "%-7s %-14s %s\n", head, EventText(e), detail(e))
				head = ""
			}
		}
		for _, rel := range rels {
			if es, ok := edges(x, rel); ok {
				var parts []string
				for _, e := range es {
					parts = append(parts, x.Events[e.From].Label+"->"+x.Events[e.To].Label)
				}
				fmt.Fprintf(&b, "%s\n", strings.TrimRight(fmt.Sprintf("  %s: %s", rel, strings.Join(parts, " ")), " "))
			} else if members, ok := x.Sets[rel]; ok {
				var parts []string
				for _, id := range members {
					parts = append(parts, x.Events[id].Label)
				}
				fmt.Fprintf(&b, "  %s: {%s}\n", rel, strings.Join(parts, ","))
			}
		}
		fmt.Fprintf(&b, "  final: %s\n", stateText(x.State))
		if len(x.Flags) > 0 {
			fmt.Fprintf(&b, "  flags: %s\n", strings.Join(x.Flags, " "))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
