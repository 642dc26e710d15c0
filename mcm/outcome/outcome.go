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
	// Bound says how loops were bounded and whether the answer holds for
	// every bound; nil when the test has no loop the bound cut.
	Bound    *Bound
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

// Bound says how a check bounded the test's loops, and whether its answer
// (verdict, states and flags; not the counts) holds for every bound.
type Bound struct {
	// Unroll is the bound on each loop's iterations; Unbounded for none
	// (--unroll none), where Iterations is the bound that sufficed for the
	// loops the test's own values end.
	Unroll, Iterations int
	// Exact: no bound changes the answer. Every loop either ends within
	// the bound by the test's own values or only retries (repeats
	// iterations that read and change nothing the rest reads), and the
	// model is one that removing a retry's events cannot make forbid an
	// execution.
	Exact bool
	// Retries are the loops whose retries were cut off: "P1 at
	// file:line:col".
	Retries []string
	// Enough: the bound cut loops whose iterations are no retries, and no
	// consistent execution goes past it: the SAT engine found none that
	// reaches it, under a model that keeps po | rf acyclic and that
	// cutting an execution short cannot make inconsistent; or, when
	// Precision is set, the values the reads may take keep every path
	// from the cuts.
	Enough bool
	// Precision, when the values the reads may take showed the bound
	// enough, names the reads the proof rests on, with those values:
	// "P0 reads y at T.litmus:8:2: 0, 1, 2".
	Precision []string
	// Abstracted: the values came from the abstraction of the refinement
	// loop (docs/loops.md), not from the bounded unfolding's value
	// analysis. Tracked is then its final precision: the locations whose
	// reads its graphs tracked (the others' were havocked); Refinements is how
	// often the precision was refined to get there.
	Abstracted  bool
	Tracked     []string
	Refinements int
	// Rounds is how many bounds --unroll none unfolded the test with (2,
	// 8, 32, 128 in turn), each raising the last's: the refinements the
	// answer took, plus one.
	Rounds int
	// Witnessed: the answer is not exact, but an execution within the
	// bound (Iterations under --unroll none) settles the verdict for every
	// larger bound: the condition's witness for exists, a counterexample
	// for ~exists and forall (a model with flags has none: a flag more
	// iterations raise could change the verdict). The states and counts
	// are the bound's.
	Witnessed bool
	// Why says, when the answer is not exact, which loop the bound cut and
	// why its iterations are no retries (or why the model does not allow
	// to remove them).
	Why string
}

// Unbounded is Bound.Unroll with no bound (--unroll none).
const Unbounded = -1
