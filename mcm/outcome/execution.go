package outcome

import (
	"strings"

	"github.com/purr-mcm/purr/litmus"
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
	// Fails are the model's checks the execution fails, with what shows
	// each failure: none for an execution the model allows (purr why
	// shows others).
	Fails []Failure
}

// Visited is an execution as an enumeration meets it (mcm.Options.Visit):
// what the count knows of it at once, and Build, which makes the rest and
// may be called during the visit only.
type Visited struct {
	Index int // as Execution.Index
	Holds bool
	State State
	Flags []string
	// Build builds the execution; brief leaves out the model's relations
	// and sets (events, po, rf, co, fr and the failed checks only), which
	// cost most of it.
	Build func(brief bool) Execution
}

// Failure is a check of the model an execution fails.
type Failure struct {
	Check string // its name, or position for an unnamed one, as -skipchecks takes it
	Kind  string // acyclic, irreflexive or empty ("~acyclic" ... when negated)
	// Witness shows the failure, by event ID: a cycle (its edges in
	// order) for acyclic, a pair (e, e) for irreflexive, a member for
	// empty (a set's as the pair (e, e)). It passes over the events the
	// execution does not list (branches); it is empty for a negated check,
	// whose failure is an absence.
	Witness []Edge
}

// Event is one event of an execution.
type Event struct {
	ID     int
	Label  string   // herd7's name: a, b, c, ... (init writes too)
	Thread int      // the thread's P-number; -1 for an init write
	Kind   string   // R, W, F, or RMW for a read-modify-write herd7 makes one event (C11's, RISC-V's AMOs)
	Loc    string   // the location accessed ("x", "y[1]"); "" for a fence
	Value  string   // the value read or written, as herd7 prints it; an RMW's is "read>written", as herd7's
	Tags   []string // annotations: A, L, X, ACQ, DMB.SY, ...
	Instr  string   // the instruction or statement as written ("LDR W0,[X1]")
	Pos    string   // where it is written, file:line:col
}

// Reads tells whether the event reads memory: R and RMW.
func (e Event) Reads() bool { return e.Kind == "R" || e.Kind == "RMW" }

// Writes tells whether the event writes memory: W and RMW.
func (e Event) Writes() bool { return e.Kind == "W" || e.Kind == "RMW" }

// Edge is a pair of a relation, by event ID.
type Edge struct{ From, To int }

// The relations every execution has, in the order pictures draw them.
var BaseRelations = []string{"po", "rf", "co", "fr"}

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
