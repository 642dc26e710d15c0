package asm

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// ProcNumber reads a thread's name P0, P1, ...: its number.
func ProcNumber(name string) (int, bool) {
	if len(name) < 2 || name[0] != 'P' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	return n, err == nil && n >= 0 && strconv.Itoa(n) == name[1:]
}

// Flow builds one thread's control flow in the order of its code: the
// location the next instruction starts at, and the code labels, which a
// jump may name before the label is defined.
type Flow struct {
	P    *xcfa.Process
	Cur  *xcfa.Location
	Dead bool // Cur follows an unconditional jump: nothing reaches it
	// Instr is the instruction being translated (xcfa.Edge.Instr): the
	// edges Emit, Jump and Branch add belong to it.
	Instr int

	labels  map[string]*xcfa.Location
	defined map[string]bool
	refs    map[string]source.Pos // the first use of each label
}

// NewFlow starts the flow of p at its initial location.
func NewFlow(p *xcfa.Process) *Flow {
	return &Flow{P: p, Cur: p.Init, labels: map[string]*xcfa.Location{}, defined: map[string]bool{}, refs: map[string]source.Pos{}}
}

// Emit adds an edge doing op from the current location to a new one.
func (f *Flow) Emit(op xcfa.Op, pos source.Pos) {
	next := f.P.NewLoc("")
	f.P.AddEdge(f.Cur, next, op, pos, f.Instr)
	f.Cur = next
}

// Target returns the location of a label, creating it when the label is
// used before it is defined.
func (f *Flow) Target(name string, pos source.Pos) *xcfa.Location {
	if l, ok := f.labels[name]; ok {
		return l
	}
	l := f.P.NewLoc(name)
	f.labels[name] = l
	f.refs[name] = pos
	return l
}

// Jump jumps to the label: the code after it is dead until a label.
func (f *Flow) Jump(label string, pos, labelPos source.Pos) {
	f.P.AddEdge(f.Cur, f.Target(label, labelPos), xcfa.Nop{}, pos, f.Instr)
	f.Cur, f.Dead = f.P.NewLoc(""), true
}

// Branch jumps to the label when taken is non-zero and goes on otherwise.
func (f *Flow) Branch(label string, taken xcfa.Expr, pos, labelPos source.Pos) {
	to := f.Target(label, labelPos)
	next := f.P.NewLoc("")
	f.P.AddEdge(f.Cur, to, xcfa.Assume{Cond: taken}, pos, f.Instr)
	f.P.AddEdge(f.Cur, next, xcfa.Assume{Cond: xcfa.Unary{Op: xcfa.Not, X: taken}}, pos, f.Instr)
	f.Cur = next
}

// Define defines a label at the current location.
func (f *Flow) Define(name string, pos source.Pos) error {
	if f.defined[name] {
		return source.Errorf(pos, "label %s is defined twice in %s", name, f.P.Name)
	}
	f.defined[name] = true
	if l, ok := f.labels[name]; ok {
		if !f.Dead {
			f.P.AddEdge(f.Cur, l, xcfa.Nop{}, pos, 0) // a label is no instruction
		}
		f.Cur, f.Dead = l, false
		return nil
	}
	if f.Cur.Label == "" {
		f.Cur.Label = name
	}
	f.labels[name] = f.Cur
	f.Dead = false
	return nil
}

// Finish ends the thread at the current location; a label used but never
// defined is an error (the first in the code).
func (f *Flow) Finish() error {
	var undefined []string
	for name := range f.labels {
		if !f.defined[name] {
			undefined = append(undefined, name)
		}
	}
	if len(undefined) > 0 {
		first := slices.MinFunc(undefined, func(a, b string) int {
			pa, pb := f.refs[a], f.refs[b]
			return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
		})
		return source.Errorf(f.refs[first], "label %s is not defined in %s", first, f.P.Name)
	}
	f.P.Final = f.Cur
	return nil
}
