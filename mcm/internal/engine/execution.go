package engine

import (
	"slices"
	"sort"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// Occurrence is an event as one execution has it: its address and value
// there.
type Occurrence struct {
	Event     *events.Event
	Addr, Val outcome.Value
}

// Occur is e's occurrence in an execution whose terms have the values
// val gives: its address when it has a location, its value when it
// carries one.
func Occur(e *events.Event, val func(*events.Term) outcome.Value) Occurrence {
	o := Occurrence{Event: e}
	if e.HasLoc() {
		o.Addr = val(e.Addr)
	}
	if e.Val != nil {
		o.Val = val(e.Val)
	}
	return o
}

// Builder assembles one execution from an engine's events, whatever the
// engine: it numbers and labels the events in herd7's order, and maps the
// unfolding's event IDs onto the execution's.
type Builder struct {
	x   *outcome.Execution
	ids map[int]int // unfolding event ID → execution event ID
}

// NewBuilder lays out the executed events of t (herd's branches are left
// out): init writes first, then thread by thread in program order.
//
// A read-modify-write that herd7 makes one event (events.Event.OneEvent)
// is one event here too, of kind RMW: its write half's ID maps onto it.
func NewBuilder(t *litmus.Test, lay events.Layout, occ []Occurrence) *Builder {
	var keep []Occurrence
	written := map[int]Occurrence{} // a one-event RMW's read half ID → its write half
	for _, o := range occ {
		if e := o.Event; e.OneEvent && e.RMW != nil {
			written[e.RMW.ID] = o
			continue
		}
		if Listed(o.Event) {
			keep = append(keep, o)
		}
	}
	sort.SliceStable(keep, func(i, j int) bool {
		a, b := keep[i].Event, keep[j].Event
		if a.Thread != b.Thread {
			return a.Thread < b.Thread // init writes (-1) first
		}
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		return a.ID < b.ID
	})
	b := &Builder{x: &outcome.Execution{Relations: map[string][]outcome.Edge{}, Sets: map[string][]int{}}, ids: map[int]int{}}
	for i, o := range keep {
		e := o.Event
		ev := outcome.Event{ID: i, Label: outcome.Label(i), Thread: -1, Tags: append([]string(nil), e.Tags...)}
		if e.Thread >= 0 {
			ev.Thread = t.Program.Procs[e.Thread].ID
			ev.Instr = t.Program.Procs[e.Thread].Instr(e.Code).Text
			ev.Pos = e.Pos.String()
		}
		switch {
		case e.IsRead():
			ev.Kind = "R"
		case e.IsWrite():
			ev.Kind = "W"
		case e.Kind == events.KindMark:
			ev.Kind = "M"
		default:
			ev.Kind = "F"
		}
		if e.HasLoc() {
			ev.Loc = lay.CellName(o.Addr)
		}
		if e.IsMem() || e.Val != nil {
			ev.Value = formatValue(lay, o)
		}
		b.ids[e.ID] = i
		if w, ok := written[e.ID]; ok {
			ev.Kind, ev.Value = "RMW", ev.Value+">"+formatValue(lay, w)
			b.ids[w.Event.ID] = i
		}
		b.x.Events = append(b.x.Events, ev)
	}
	// Immediate program order: po (events.POOrdered) with no kept event
	// between. The events of one instruction instance, or of parallel
	// parts of a C statement, are not ordered among themselves.
	for i, o := range keep {
		a := o.Event
		if a.Thread < 0 {
			continue
		}
		for j, p := range keep[i+1:] {
			c := p.Event
			if c.Thread != a.Thread {
				break
			}
			if !events.POOrdered(a, c) {
				continue
			}
			between := false
			for _, q := range keep[i+1 : i+1+j] {
				if events.POOrdered(a, q.Event) && events.POOrdered(q.Event, c) {
					between = true
					break
				}
			}
			if !between {
				b.add("po", a.ID, c.ID)
			}
		}
	}
	return b
}

// formatValue prints an occurrence's value as herd7 prints it.
func formatValue(lay events.Layout, o Occurrence) string {
	return outcome.Format(lay.TypeOf(litmus.Loc{Kind: litmus.GlobalLoc, Name: o.Addr.Sym}), o.Val, false)
}

// Listed tells whether executions list the event: memory accesses,
// fences and marks (the kernel's lock and SRCU events) do, herd's
// branches and register events do not.
func Listed(e *events.Event) bool {
	return e.IsMem() || e.Kind == events.KindFence || e.Kind == events.KindMark
}

// add puts the pair (from, to), by unfolding event IDs, in a relation; a
// pair with an event the execution does not list is left out.
func (b *Builder) add(rel string, from, to int) {
	f, ok1 := b.ids[from]
	t, ok2 := b.ids[to]
	if ok1 && ok2 && (f != t || from == to) { // not a one-event RMW's halves
		b.x.Relations[rel] = append(b.x.Relations[rel], outcome.Edge{From: f, To: t})
	}
}

// relation makes sure a relation exists, even empty.
func (b *Builder) relation(rel string) {
	if _, ok := b.x.Relations[rel]; !ok {
		b.x.Relations[rel] = []outcome.Edge{}
	}
}

// member puts an event, by unfolding event ID, in a set.
func (b *Builder) member(set string, id int) {
	if i, ok := b.ids[id]; ok {
		b.x.Sets[set] = append(b.x.Sets[set], i)
	}
}

// set makes sure a set exists, even empty.
func (b *Builder) set(set string) {
	if _, ok := b.x.Sets[set]; !ok {
		b.x.Sets[set] = []int{}
	}
}

// Fail records that the execution fails a check, shown by the events
// the execution lists: a witness that passes over others (branches) goes
// from one listed event to the next.
func (b *Builder) Fail(f Failure) {
	var nodes []int
	for _, id := range f.Nodes {
		if i, ok := b.ids[id]; ok && (len(nodes) == 0 || nodes[len(nodes)-1] != i || len(f.Nodes) <= 2) {
			nodes = append(nodes, i)
		}
	}
	out := outcome.Failure{Check: f.Check, Kind: f.Kind}
	for i := 1; i < len(nodes); i++ {
		out.Witness = append(out.Witness, outcome.Edge{From: nodes[i-1], To: nodes[i]})
	}
	b.x.Fails = append(b.x.Fails, out)
}

// Finish sorts the edges and members and returns the execution.
func (b *Builder) Finish(index int, st outcome.State, holds bool, flags []string) outcome.Execution {
	x := b.x
	for _, rel := range outcome.BaseRelations {
		b.relation(rel)
	}
	for name, edges := range x.Relations {
		sort.Slice(edges, func(i, j int) bool {
			if edges[i].From != edges[j].From {
				return edges[i].From < edges[j].From
			}
			return edges[i].To < edges[j].To
		})
		x.Relations[name] = dedupEdges(edges)
	}
	for name, ids := range x.Sets {
		sort.Ints(ids)
		x.Sets[name] = ids
	}
	x.Index, x.State, x.Holds, x.Flags = index, st, holds, flags
	return *x
}

func dedupEdges(edges []outcome.Edge) []outcome.Edge {
	out := edges[:0]
	for i, e := range edges {
		if i == 0 || e != edges[i-1] {
			out = append(out, e)
		}
	}
	return out
}

// StaticallyEmpty lists, sorted, the sets and relations the model
// captured that no candidate execution of unfolding u fills with events
// executions list: each of their members or pairs has a literal false in
// every candidate (isFalse), or an event no execution lists (Listed:
// branches, register events). Such names mean nothing for the test
// (emptyset, the barriers' sets of a test without barriers, the
// dependencies of a test without any), and executions leave them out
// (LeaveOut). Those asked for are kept, listed empty: the names the
// model shows, as herd7's pictures name them, and those capture names
// (-doshow).
func StaticallyEmpty[L comparable](captured *eval.Captured[L], capture []string, u *events.Unfolding, isFalse func(L) bool) []string {
	if captured == nil {
		return nil
	}
	kept := func(name string) bool {
		return slices.Contains(captured.Shown, name) || slices.Contains(capture, name) || slices.Contains(outcome.BaseRelations, name)
	}
	var out []string
	for name, x := range captured.Sets {
		filled := slices.ContainsFunc(u.Events, func(e *events.Event) bool { return Listed(e) && !isFalse(x[e.ID]) })
		if !kept(name) && !filled {
			out = append(out, name)
		}
	}
	for name, r := range captured.Rels {
		filled := false
		for k, in := range r {
			if !isFalse(in) && Listed(u.Events[k.A]) && Listed(u.Events[k.B]) {
				filled = true
				break
			}
		}
		if !kept(name) && !filled {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// LeaveOut removes the named sets and relations from what the model
// captured (StaticallyEmpty's, for executions to leave out).
func LeaveOut[L comparable](captured *eval.Captured[L], names []string) {
	if captured == nil {
		return
	}
	for _, name := range names {
		delete(captured.Sets, name)
		delete(captured.Rels, name)
	}
}

// AddRelations puts in b rf, co and fr, the relations and sets the model
// captured (none when captured is nil), and the predefined ones capture
// names, whichever engine holds them: holds tells whether a literal holds
// in the execution.
func AddRelations[L comparable](b *Builder, rels map[string]eval.Rel[L], sets map[string]eval.Set[L],
	captured *eval.Captured[L], capture []string, holds func(L) bool) {
	rel := func(name string, r eval.Rel[L]) {
		b.relation(name)
		for k, in := range r {
			if holds(in) {
				b.add(name, int(k.A), int(k.B))
			}
		}
	}
	set := func(name string, x eval.Set[L]) {
		b.set(name)
		for id, in := range x {
			if holds(in) {
				b.member(name, id)
			}
		}
	}
	for _, name := range []string{"rf", "co", "fr"} {
		rel(name, rels[name])
	}
	if captured == nil {
		return
	}
	for name, r := range captured.Rels {
		if !slices.Contains(outcome.BaseRelations, name) {
			rel(name, r)
		}
	}
	for name, x := range captured.Sets {
		set(name, x)
	}
	for _, name := range capture {
		if slices.Contains(outcome.BaseRelations, name) {
			continue
		}
		if r, ok := rels[name]; ok {
			rel(name, r)
		} else if x, ok := sets[name]; ok {
			set(name, x)
		}
	}
}
