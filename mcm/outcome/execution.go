package outcome

import (
	"sort"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// Show selects the executions a check keeps for people to read, with
// herd7's -show meanings.
type Show string

// The selections of herd7's -show.
const (
	ShowNone Show = "none" // keep none (the default)
	ShowAll  Show = "all"  // every consistent execution
	ShowProp Show = "prop" // those where the condition's proposition holds
	ShowNeg  Show = "neg"  // those where it does not
	ShowCond Show = "cond" // prop for exists and forall, neg for ~exists
	ShowWit  Show = "wit"  // prop for exists and ~exists, neg for forall
)

// Shows are the selections, in herd7's order.
var Shows = []Show{ShowProp, ShowAll, ShowNeg, ShowCond, ShowNone, ShowWit}

// Selects tells whether the selection keeps an execution of a test with
// quantifier q in which the condition's proposition holds or not, as
// herd7 decides it.
func (s Show) Selects(q litmus.Quantifier, holds bool) bool {
	switch s {
	case ShowAll:
		return true
	case ShowProp:
		return holds
	case ShowNeg:
		return !holds
	case ShowCond:
		return holds == (q != litmus.NotExists)
	case ShowWit:
		return holds == (q != litmus.Forall)
	}
	return false
}

// Execution is one consistent execution, as listings, pictures, JSON and
// the page show it. Event IDs index Events.
//
// Events are the memory accesses and fences (not the branches); po holds
// the immediate program order (each event to the next of its thread, as
// herd7 draws it: the full po is its transitive closure); rf, co and fr
// are complete; the model's relations and sets are those its top level
// binds or shows (and those named in the check's options), restricted to
// the events listed. Edges are sorted.
type Execution struct {
	Index     int               // 1-based, among the consistent executions, in the order the engine found them
	Events    []Event           // init writes first, then by thread and program order
	Relations map[string][]Edge // rf, co, fr, po, and the relations the model defines
	Sets      map[string][]int  // the event sets the model defines (W, R, F, ...)
	State     State             // its final state
	Holds     bool              // the condition's proposition holds on it
	Flags     []string          // the flags it raises
}

// Event is one event of an execution.
type Event struct {
	ID     int
	Label  string   // herd7's name: a, b, c, ... (init writes too)
	Thread int      // the thread's P-number; -1 for an init write
	Kind   string   // R, W or F
	Loc    string   // the location accessed ("x", "y[1]"); "" for a fence
	Value  string   // the value read or written, as herd7 prints it
	Tags   []string // annotations: A, L, X, ACQ, DMB.SY, ...
	Instr  string   // the instruction or statement as written ("LDR W0,[X1]")
	Pos    string   // where it is written, file:line:col
}

// Edge is a pair of a relation, by event ID.
type Edge struct{ From, To int }

// The relations every execution has, in the order pictures draw them.
var BaseRelations = []string{"po", "rf", "co", "fr"}

// Occurrence is an event as one execution has it: its address and value
// there.
type Occurrence struct {
	Event     *events.Event
	Addr, Val events.Value
}

// Builder assembles one execution from an engine's events, whatever the
// engine: it numbers and labels the events in herd7's order, and maps the
// unfolding's event IDs onto the execution's.
type Builder struct {
	x   *Execution
	ids map[int]int // unfolding event ID → execution event ID
}

// NewBuilder lays out the executed events of t (herd's branches are left
// out): init writes first, then thread by thread in program order.
func NewBuilder(t *litmus.Test, lay events.Layout, occ []Occurrence) *Builder {
	var keep []Occurrence
	for _, o := range occ {
		if o.Event.IsMem() || o.Event.Kind == events.KindFence {
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
	b := &Builder{x: &Execution{Relations: map[string][]Edge{}, Sets: map[string][]int{}}, ids: map[int]int{}}
	for i, o := range keep {
		e := o.Event
		ev := Event{ID: i, Label: Label(i), Thread: -1, Tags: append([]string(nil), e.Tags...)}
		if e.Thread >= 0 {
			ev.Thread = t.Program.Procs[e.Thread].ID
			ev.Instr = t.Program.Source[e.Pos]
			ev.Pos = e.Pos.String()
		}
		switch {
		case e.IsRead():
			ev.Kind = "R"
		case e.IsWrite():
			ev.Kind = "W"
		default:
			ev.Kind = "F"
		}
		if e.IsMem() {
			ev.Loc = lay.CellName(o.Addr)
			ev.Value = events.Format(lay.TypeOf(litmus.Loc{Kind: litmus.GlobalLoc, Name: o.Addr.Sym}), o.Val, false)
		}
		b.ids[e.ID] = i
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
				b.Add("po", a.ID, c.ID)
			}
		}
	}
	return b
}

// Add puts the pair (from, to), by unfolding event IDs, in a relation; a
// pair with an event the execution does not list is left out.
func (b *Builder) Add(rel string, from, to int) {
	f, ok1 := b.ids[from]
	t, ok2 := b.ids[to]
	if ok1 && ok2 {
		b.x.Relations[rel] = append(b.x.Relations[rel], Edge{f, t})
	}
}

// Relation makes sure a relation exists, even empty.
func (b *Builder) Relation(rel string) {
	if _, ok := b.x.Relations[rel]; !ok {
		b.x.Relations[rel] = []Edge{}
	}
}

// Member puts an event, by unfolding event ID, in a set.
func (b *Builder) Member(set string, id int) {
	if i, ok := b.ids[id]; ok {
		b.x.Sets[set] = append(b.x.Sets[set], i)
	}
}

// Set makes sure a set exists, even empty.
func (b *Builder) Set(set string) {
	if _, ok := b.x.Sets[set]; !ok {
		b.x.Sets[set] = []int{}
	}
}

// Finish sorts the edges and members and returns the execution.
func (b *Builder) Finish(index int, st State, holds bool, flags []string) Execution {
	x := b.x
	for _, rel := range BaseRelations {
		b.Relation(rel)
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

func dedupEdges(edges []Edge) []Edge {
	out := edges[:0]
	for i, e := range edges {
		if i == 0 || e != edges[i-1] {
			out = append(out, e)
		}
	}
	return out
}

// Label is herd7's name of the i-th event (from 0): a, b, ..., z, aa, ab, ...
func Label(i int) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append([]byte{byte('a' + (i-1)%26)}, b...)
	}
	return string(b)
}

// Canonical is the execution's identity, for comparing engines: its
// events (thread, kind, location, value, instruction), rf and co.
func (x *Execution) Canonical() string {
	var b strings.Builder
	for _, e := range x.Events {
		b.WriteString(e.Label + ":" + strings.Join([]string{itoa(e.Thread), e.Kind, e.Loc, e.Value, e.Instr, strings.Join(e.Tags, ".")}, ",") + ";")
	}
	for _, rel := range []string{"rf", "co"} {
		b.WriteString(rel + "=")
		for _, e := range x.Relations[rel] {
			b.WriteString(x.Events[e.From].Label + ">" + x.Events[e.To].Label + " ")
		}
		b.WriteString(";")
	}
	return b.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// Reduce is the transitive reduction of an acyclic relation: the edges
// that no path of two edges or more implies (pictures draw co so).
func Reduce(edges []Edge) []Edge {
	succ := map[int][]int{}
	for _, e := range edges {
		succ[e.From] = append(succ[e.From], e.To)
	}
	var out []Edge
	for _, e := range edges {
		if !reachesAvoiding(succ, e.From, e.To) {
			out = append(out, e)
		}
	}
	return out
}

// reachesAvoiding tells whether to is reachable from from by a path of at
// least two edges.
func reachesAvoiding(succ map[int][]int, from, to int) bool {
	seen := map[int]bool{}
	var stack []int
	for _, m := range succ[from] {
		if m != to {
			stack = append(stack, m)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, succ[n]...)
	}
	return false
}
