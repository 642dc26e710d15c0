package outcome

import (
	"strings"

	"github.com/purr-mcm/purr/litmus"
)

// Binding is one location's final value in a state.
type Binding struct {
	// Loc points into the test's observed locations, which the states of
	// an outcome share: a state is built per execution, and a location is
	// several times the size of the rest of a binding.
	Loc   *litmus.Loc
	Type  string // the declared type, which says how the value prints
	Value Value
	Array []Value // a whole array's elements, when Loc names an array
}

// LocString prints the location as herd7 prints it in states: [x], x[1],
// 0:X0, and a whole array bare (x={1,2}).
func (b Binding) LocString() string {
	if b.Array != nil {
		return b.Loc.Name
	}
	return b.Loc.String()
}

// ValueString prints the value as herd7 does (hex: as herd7 -hexa does).
func (b Binding) ValueString(hex bool) string {
	if b.Array == nil {
		return Format(b.Type, b.Value, hex)
	}
	parts := make([]string, len(b.Array))
	for i, v := range b.Array {
		parts[i] = Format(b.Type, v, hex)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// State is a final state: the observed locations' values.
type State []Binding

// Outcome is what a model says of a test.
type Outcome struct {
	States   []State // distinct final states of the consistent executions
	Positive int     // consistent executions satisfying the condition
	Negative int     // consistent executions not satisfying it
	Flags    []string
	Loop     bool // some path was cut by the unrolling bound
	Complete bool // every consistent execution was enumerated
	// Executions are the consistent executions the check's Show selects
	// (none unless asked), in the order they were found.
	Executions []Execution
	// Shown are the relations and sets the model's show statements select
	// (show r, show X as r; less the unshown), in order: pictures draw
	// them by default.
	Shown []string
	// CoArbitrary says that co told no executions apart (the model does
	// not read it, or --distinct leaves it out): the co of a listed
	// execution is one of several, which listings of messages leave out.
	CoArbitrary bool
}

// Decisive tells whether one execution settles the condition: a witness
// for exists, a counter-example for ~exists and forall.
func Decisive(q litmus.Quantifier, holds bool) bool {
	if q == litmus.Forall {
		return !holds
	}
	return holds
}

// StateKey identifies a state, so that states are counted once.
func StateKey(st State) string {
	var b strings.Builder
	for _, x := range st {
		b.WriteString(x.LocString())
		b.WriteByte('=')
		b.WriteString(x.ValueString(false))
		b.WriteByte(';')
	}
	return b.String()
}
