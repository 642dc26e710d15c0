package engine

import (
	"fmt"
	"slices"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// Options are what the engines take of mcm.Options (see there).
type Options struct {
	Speedcheck    bool
	MaxExecutions int
	Distinct      []string
	Show          outcome.Show
	Capture       []string
	// MaxVars and MaxClauses bound the SAT engine's formula (0: no bound).
	MaxVars, MaxClauses int
	// Through lets through the executions the model's checks forbid
	// (herd7's -through invalid or all): they count, and the executions
	// kept carry the checks they fail (outcome.Execution.Fails).
	Through bool
	// Visit, when not nil, gets the executions Show selects instead of
	// the outcome (see mcm.Options.Visit).
	Visit func(outcome.Visited) bool
	// StaticallyEmpty names the sets and relations the model captures
	// that no candidate execution fills (see StaticallyEmpty), for the
	// explicit engine to leave out of executions: it sees one execution
	// at a time and cannot tell, so mcm has the SAT engine decide, for
	// both engines to show the same names. The SAT engine decides on
	// its own formula and ignores this.
	StaticallyEmpty []string
}

// Showing tells whether the options keep executions for people to read.
func (o Options) Showing() bool { return o.Show != "" && o.Show != outcome.ShowNone }

// Tally is the bookkeeping of one check, whichever engine enumerates its
// consistent executions: it counts them and keeps their distinct final
// states, the flags they raise and the executions -show selects.
type Tally struct {
	test       *litmus.Test
	opt        Options
	out        *outcome.Outcome
	candidates int             // the candidates counted, as MaxExecutions bounds them
	states     map[string]bool // the states met, by the engine's keys
	raised     map[string]bool
}

// CountsCo tells whether co tells executions apart: when distinct names
// it, or by herd7's counting (nil distinct) when the model reads co
// (readsCo, or marks among the events co orders).
func CountsCo(distinct []string, readsCo bool) bool {
	if distinct != nil {
		return slices.Contains(distinct, "co")
	}
	return readsCo
}

// NewTally starts the tally of test t; loop says that the unrolling bound
// cut some path.
func NewTally(t *litmus.Test, opt Options, loop bool) *Tally {
	return &Tally{test: t, opt: opt, out: &outcome.Outcome{Loop: loop}, states: map[string]bool{}, raised: map[string]bool{}}
}

// RefuseFlags refuses, under --distinct, a model that has flags: the
// executions of a class may raise different ones.
func (ta *Tally) RefuseFlags(hasFlags bool) error {
	if ta.opt.Distinct != nil && hasFlags {
		return fmt.Errorf("%s: --distinct: the model has flags, which executions counted as one may raise differently", ta.test.File)
	}
	return nil
}

// CountsCo records whether co tells executions apart (Outcome.CoArbitrary).
func (ta *Tally) CountsCo(counts bool) { ta.out.CoArbitrary = !counts }

// Full tells whether the candidates counted reach MaxExecutions: the
// enumeration stops there, incomplete.
func (ta *Tally) Full() bool {
	return ta.opt.MaxExecutions > 0 && ta.candidates == ta.opt.MaxExecutions
}

// Count records a consistent candidate execution that stands for n
// executions (the model's choices), in which the condition holds or not,
// with the flags it raises. Its final state is counted once per key: state
// builds it only when the key is new (printing a state costs more than
// the rest of an execution); equal keys must be equal states. Count
// returns the index of the first of the n executions among all counted
// (from 1).
func (ta *Tally) Count(n int, holds bool, key []byte, state func() outcome.State, flags []string) int {
	first := ta.out.Positive + ta.out.Negative + 1
	ta.candidates++
	if holds {
		ta.out.Positive += n
	} else {
		ta.out.Negative += n
	}
	if !ta.states[string(key)] {
		ta.states[string(key)] = true
		ta.out.States = append(ta.out.States, state())
	}
	for _, f := range flags {
		ta.raised[f] = true
	}
	return first
}

// Selects tells whether -show keeps an execution in which the condition
// holds or not.
func (ta *Tally) Selects(holds bool) bool {
	return ta.opt.Showing() && ta.opt.Show.Selects(ta.test.Quant, holds)
}

// Keep keeps an execution -show selects, or gives it to Options.Visit;
// it tells whether to go on enumerating.
func (ta *Tally) Keep(v outcome.Visited) bool {
	if ta.opt.Visit != nil {
		return ta.opt.Visit(v)
	}
	ta.out.Executions = append(ta.out.Executions, v.Build(false))
	return true
}

// Shown records the relations and sets the model's show statements
// select.
func (ta *Tally) Shown(names []string) { ta.out.Shown = names }

// Decided tells whether speedcheck stops at an execution in which the
// condition holds or not: it settles the condition.
func (ta *Tally) Decided(holds bool) bool {
	return ta.opt.Speedcheck && outcome.Decisive(ta.test.Quant, holds)
}

// Outcome is the tally's outcome; complete says that every consistent
// execution was enumerated.
func (ta *Tally) Outcome(complete bool) *outcome.Outcome {
	out := ta.out
	out.Complete = complete
	out.Flags = nil
	for f := range ta.raised {
		out.Flags = append(out.Flags, f)
	}
	slices.Sort(out.Flags)
	return out
}
