package show

import (
	"fmt"
	"io"
	"slices"
	"sort"
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
// "g: F"; a mark by its first tag, what it is: "d: LKW[s]", "h: LF[s]",
// "k: Srcu-lock[s]=1231".
func EventText(e outcome.Event) string {
	switch e.Kind {
	case "F":
		return e.Label + ": F"
	case "M":
		s := fmt.Sprintf("%s: %s[%s]", e.Label, markName(e), e.Loc)
		if e.Value != "" {
			s += "=" + e.Value
		}
		return s
	}
	return fmt.Sprintf("%s: %s[%s]=%s", e.Label, e.Kind, e.Loc, e.Value)
}

// markName is what a mark is: its first tag (herd's LKR, LKW, UL, LF, RL,
// RU, Srcu-lock, ...).
func markName(e outcome.Event) string {
	if len(e.Tags) == 0 {
		return "M"
	}
	return e.Tags[0]
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

// Messages tells whether executions are of messages alone: each of their
// accesses, but the initial writes, is a send or a receive
// (docs/protocols.md).
func Messages(xs []outcome.Execution) bool {
	for i := range xs {
		if !messages(&xs[i]) {
			return false
		}
	}
	return len(xs) > 0
}

func messages(x *outcome.Execution) bool {
	some := false
	for _, e := range x.Events {
		if e.Thread < 0 || e.Kind == "F" {
			continue
		}
		if !slices.Contains(e.Tags, "SEND") && !slices.Contains(e.Tags, "RECV") {
			return false
		}
		some = true
	}
	return some
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
		// Initial writes are no messages: no receive gets them, and a
		// listing of messages leaves them and their edges out.
		hideInit := messages(x)
		if !hideInit {
			fmt.Fprintf(&b, "  init: %s\n", strings.Join(init, "  "))
		}
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
					if hideInit && (x.Events[e.From].Thread < 0 || x.Events[e.To].Thread < 0) {
						continue
					}
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
		for _, f := range x.Fails {
			fmt.Fprintf(&b, "  fails %s (%s)%s\n", f.Check, f.Kind, WitnessText(x, f))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WitnessText shows a failure's witness by the events' labels: ": a
// -rf-> b -po-> c -fr-> a" for a cycle, each edge named by the relations
// of the execution that hold it (rf, co, fr, po first), "" for none.
func WitnessText(x *outcome.Execution, f outcome.Failure) string {
	if len(f.Witness) == 0 {
		return ""
	}
	if id, ok := Member(x, f); ok {
		return ": " + x.Events[id].Label
	}
	first := f.Witness[0]
	var b strings.Builder
	b.WriteString(": ")
	b.WriteString(x.Events[first.From].Label)
	for _, e := range f.Witness {
		if names := EdgeNames(x, e); names != "" {
			fmt.Fprintf(&b, " -%s-> %s", names, x.Events[e.To].Label)
		} else {
			fmt.Fprintf(&b, " -> %s", x.Events[e.To].Label)
		}
	}
	return b.String()
}

// EdgeNames names the relations of x that hold the edge, rf, co, fr and
// po first (the model's when none of those does), joined by commas; po
// holds it when its immediate edges chain from one event to the other.
func EdgeNames(x *outcome.Execution, e outcome.Edge) string {
	var names []string
	for _, rel := range outcome.BaseRelations {
		if rel == "po" && poBefore(x, e.From, e.To) || slices.Contains(x.Relations[rel], e) {
			names = append(names, rel)
		}
	}
	var others []string
	for rel, edges := range x.Relations {
		if !slices.Contains(outcome.BaseRelations, rel) && slices.Contains(edges, e) {
			others = append(others, rel)
		}
	}
	sort.Strings(others)
	if len(names) == 0 {
		names = others
	}
	return strings.Join(names, ",")
}

// poBefore tells whether a precedes b in program order: a chain of po's
// immediate edges leads from a to b.
func poBefore(x *outcome.Execution, a, b int) bool {
	for {
		next := -1
		for _, e := range x.Relations["po"] {
			if e.From == a {
				next = e.To
				break
			}
		}
		switch next {
		case -1:
			return false
		case b:
			return true
		}
		a = next
	}
}

// Why writes why the model forbids the test's outcome (outcome.Why) as
// text: the minimal sets of checks, then each set's execution with the
// witnesses of its failures.
func Why(w io.Writer, test, model string, why *outcome.Why, rels []string) error {
	var b strings.Builder
	switch {
	case why.Allowed != nil:
		fmt.Fprintf(&b, "Test %s under %s: the outcome %s is allowed; an execution shows it:\n\n", test, model, why.Target)
	case why.Never:
		fmt.Fprintf(&b, "Test %s under %s: no candidate execution shows the outcome %s, whatever checks are left out: the program itself rules it out\n", test, model, why.Target)
	default:
		fmt.Fprintf(&b, "Test %s under %s: the outcome %s is forbidden; the smallest sets of checks whose removal allows it:\n", test, model, why.Target)
		for i, set := range why.Sets {
			fmt.Fprintf(&b, "  %d. -skipchecks %s\n", i+1, strings.Join(set.Checks, ","))
		}
		if !why.Complete {
			b.WriteString("  (more sets exist: raise --max-sets)\n")
		}
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if why.Allowed != nil {
		return Listing(w, test, []outcome.Execution{*why.Allowed}, rels)
	}
	for i, set := range why.Sets {
		x := set.Execution
		x.Index = i + 1
		if _, err := fmt.Fprintf(w, "Set %d: -skipchecks %s\n", i+1, strings.Join(set.Checks, ",")); err != nil {
			return err
		}
		if err := Listing(w, test, []outcome.Execution{x}, rels); err != nil {
			return err
		}
	}
	return nil
}
