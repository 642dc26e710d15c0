package herdout

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Quantifier is the quantifier of a litmus test's final condition.
type Quantifier int

// The three quantifiers, printed as in the Condition line.
const (
	Exists    Quantifier = iota // exists
	NotExists                   // ~exists
	Forall                      // forall
)

func (q Quantifier) String() string {
	switch q {
	case Exists:
		return "exists"
	case NotExists:
		return "~exists"
	case Forall:
		return "forall"
	}
	return fmt.Sprintf("Quantifier(%d)", int(q))
}

// Kind is the word after the test name. herd7 derives it from the
// quantifier alone (ConstrGen.dump_as_kind), not from the verdict.
type Kind int

// The three kinds.
const (
	Allowed   Kind = iota // exists
	Forbidden             // ~exists
	Required              // forall
)

func (k Kind) String() string {
	switch k {
	case Allowed:
		return "Allowed"
	case Forbidden:
		return "Forbidden"
	case Required:
		return "Required"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Kind returns the kind herd7 prints for a condition quantified by q.
func (q Quantifier) Kind() Kind { return Kind(q) }

// Verdict is herd7's answer to the condition.
type Verdict int

// The verdicts.
const (
	Ok    Verdict = iota // the condition's claim holds
	No                   // it does not
	Undef                // an execution raised the undefined-behaviour flag
)

func (v Verdict) String() string {
	switch v {
	case Ok:
		return "Ok"
	case No:
		return "No"
	case Undef:
		return "Undef"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Observation summarises how often the proposition holds.
type Observation int

// The observations.
const (
	Never     Observation = iota // in no execution
	Sometimes                    // in some executions
	Always                       // in every execution
)

func (o Observation) String() string {
	switch o {
	case Never:
		return "Never"
	case Sometimes:
		return "Sometimes"
	case Always:
		return "Always"
	}
	return fmt.Sprintf("Observation(%d)", int(o))
}

// UndefFlag is the flag herd7 raises for undefined behaviour; it turns the
// verdict into Undef.
const UndefFlag = "*undef*"

// Binding is one `loc=value;` of a final state, both as herd7 prints them
// (for example "0:X0" or "[x]", and "1", "0x1", "x" or `instr:"B .+4"`).
type Binding struct {
	Loc, Value string
}

// State is one final state: its bindings in herd7's location order and the
// faults it records, each as printed without the ';' (for example
// "Fault(P0:L0,UndefinedInstruction)", or "~Fault(...)" for an expected
// fault that did not happen).
type State struct {
	Bindings []Binding
	Faults   []string
}

// String returns the state's line as herd7 prints it.
func (s State) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

// lineWriter is what a state's line is written to: a strings.Builder, or
// the buffer of a result block (no string per state in between).
type lineWriter interface {
	io.StringWriter
	io.ByteWriter
}

// write writes the state's line as herd7 prints it.
func (s State) write(b lineWriter) {
	for i, bd := range s.Bindings {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(bd.Loc)
		b.WriteByte('=')
		b.WriteString(bd.Value)
		b.WriteByte(';')
	}
	if len(s.Faults) == 0 {
		return
	}
	// herd7: bindings ^ " " ^ faults joined by " " ^ concat (" ~fault;").
	b.WriteByte(' ')
	first := true
	for _, f := range s.Faults {
		if !strings.HasPrefix(f, "~") {
			if !first {
				b.WriteByte(' ')
			}
			b.WriteString(f)
			b.WriteByte(';')
			first = false
		}
	}
	for _, f := range s.Faults {
		if strings.HasPrefix(f, "~") {
			b.WriteByte(' ')
			b.WriteString(f)
			b.WriteByte(';')
		}
	}
}

// SizeHint estimates the bytes Write prints: a buffer grown to it first
// is not grown again and again by a block of many states.
func (r *Result) SizeHint() int {
	n := 512
	if len(r.States) > 0 {
		n += len(r.States) * (len(r.States[0].String()) + 1)
	}
	return n
}

// Result is herd7's result block for one test.
type Result struct {
	Name       string
	Quantifier Quantifier
	// Condition is the condition's proposition as printed after the
	// quantifier, for example "(1:X0=1 /\ 1:X2=0)".
	Condition string
	// States are the distinct final states, in herd7's order (SortStates).
	States  []State
	Verdict Verdict
	// Loop is set when a loop bound was reached: herd7 then prints
	// "Loop " before the verdict.
	Loop bool
	// Positive and Negative count the executions in which the proposition
	// holds and fails, as printed on the Positive line: swapped for
	// ~exists, where Positive counts the executions that fail it.
	Positive, Negative int
	// Flags are the flags raised, in herd7's order (UndefFlag first, then
	// by name).
	Flags       []string
	Observation Observation
	// Time is printed ("Time NAME %.2f") only when HasTime is set.
	Time    float64
	HasTime bool
	// Hash is printed ("Hash=...") only when not empty.
	Hash string
}

// Kind returns the kind printed after the test name.
func (r *Result) Kind() Kind { return r.Quantifier.Kind() }

// Counts returns the executions in which the proposition holds and fails
// (the numbers of the Observation line).
func (r *Result) Counts() (holds, fails int) {
	if r.Quantifier == NotExists {
		return r.Negative, r.Positive
	}
	return r.Positive, r.Negative
}

// NewResult builds the result herd7 prints for a test whose consistent
// executions satisfy the proposition holds times and fail it fails times;
// it sorts the states and flags as herd7 does and derives the verdict,
// witnesses and observation.
func NewResult(name string, q Quantifier, condition string, states []State, holds, fails int, flags []string, loop bool) Result {
	states = slices.Clone(states)
	SortStates(states)
	flags = slices.Clone(flags)
	slices.SortFunc(flags, compareFlags)
	flags = slices.Compact(flags)
	r := Result{
		Name:        name,
		Quantifier:  q,
		Condition:   condition,
		States:      states,
		Loop:        loop,
		Flags:       flags,
		Verdict:     verdict(q, holds, fails, slices.Contains(flags, UndefFlag)),
		Observation: observation(holds, fails),
		Positive:    holds,
		Negative:    fails,
	}
	if q == NotExists {
		r.Positive, r.Negative = fails, holds
	}
	return r
}

// compareFlags is herd7's order of flags: Undef first (a constant
// constructor), then the named flags by name.
func compareFlags(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == UndefFlag:
		return -1
	case b == UndefFlag:
		return 1
	}
	return strings.Compare(a, b)
}

// verdict is herd7's check_cond, overridden by undefined behaviour.
func verdict(q Quantifier, holds, fails int, undef bool) Verdict {
	if undef {
		return Undef
	}
	ok := false
	switch q {
	case Exists:
		ok = holds > 0
	case NotExists:
		ok = holds == 0
	case Forall:
		ok = fails == 0
	}
	if ok {
		return Ok
	}
	return No
}

// observation is herd7's, without speedcheck.
func observation(holds, fails int) Observation {
	switch {
	case holds == 0:
		return Never
	case fails == 0:
		return Always
	}
	return Sometimes
}

// Write prints r exactly as herd7 does, ending with the empty line that
// separates blocks.
func (r *Result) Write(w io.Writer) error {
	switch w := w.(type) {
	case *bytes.Buffer: // in memory already: no buffer on top
		r.write(w)
		return nil
	case *strings.Builder:
		r.write(w)
		return nil
	}
	bw := bufio.NewWriter(w)
	r.write(bw)
	return bw.Flush()
}

// blockWriter is what Write writes a block to: a buffer in memory.
type blockWriter interface {
	io.Writer
	lineWriter
}

func (r *Result) write(bw blockWriter) {
	fmt.Fprintf(bw, "Test %s %s\n", r.Name, r.Kind())
	fmt.Fprintf(bw, "States %d\n", len(r.States))
	for _, s := range r.States {
		s.write(bw)
		bw.WriteByte('\n')
	}
	if r.Loop {
		bw.WriteString("Loop ")
	}
	fmt.Fprintf(bw, "%s\nWitnesses\n", r.Verdict)
	fmt.Fprintf(bw, "Positive: %d Negative: %d\n", r.Positive, r.Negative)
	for _, f := range r.Flags {
		fmt.Fprintf(bw, "Flag %s\n", f)
	}
	fmt.Fprintf(bw, "Condition %s %s\n", r.Quantifier, r.Condition)
	holds, fails := r.Counts()
	fmt.Fprintf(bw, "Observation %s %s %d %d\n", r.Name, r.Observation, holds, fails)
	if r.HasTime {
		fmt.Fprintf(bw, "Time %s %.2f\n", r.Name, r.Time)
	}
	if r.Hash != "" {
		fmt.Fprintf(bw, "Hash=%s\n", r.Hash)
	}
	bw.WriteByte('\n')
}

// String returns the block Write prints.
func (r *Result) String() string {
	var b strings.Builder
	r.Write(&b)
	return b.String()
}
