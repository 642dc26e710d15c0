package satengine

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/predef"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// WellFormedByConstruction are the rules of stdlib/wellformed.cat that the
// formula's rf and co meet by construction (encodeRF, encodeCO): rf
// relates a write to a read of its location, at most one per read; co is
// a strict total order of each location's writes, initial writes first.
// The rules on reads that read nothing (receives) are evaluated.
var WellFormedByConstruction = []string{"rf-shape", "rf-functional",
	"co-shape", "co-irreflexive", "co-transitive", "co-total", "co-init-first"}

// Accepted is an execution the engine accepts: the solver's current model,
// as Check's recheck sees it.
type Accepted struct {
	en    *encoding
	Holds bool          // the condition
	State outcome.State // the final state
	Flags []string      // the flags it raises, sorted
}

// Paths are the leaves of the paths the threads take, one per thread.
func (a Accepted) Paths() ([]*events.Segment, error) {
	u, s := a.en.u, a.en.s
	leaves := make([]*events.Segment, len(u.Roots))
	for th := range u.Roots {
		for _, leaf := range u.Leaves[th] {
			if s.Value(a.en.seg[leaf.ID]) {
				if leaves[th] != nil {
					return nil, fmt.Errorf("thread %d takes two paths", th)
				}
				leaves[th] = leaf
			}
		}
		if leaves[th] == nil {
			return nil, fmt.Errorf("thread %d takes no path", th)
		}
	}
	return leaves, nil
}

// ReadsFrom lists the pairs (write, read) of rf, in a fixed order.
func (a Accepted) ReadsFrom() [][2]*events.Event { return a.pairs(a.en.rf) }

// Coherence lists the pairs of writes of co, in a fixed order.
func (a Accepted) Coherence() [][2]*events.Event { return a.pairs(a.en.co) }

func (a Accepted) pairs(r Rel) [][2]*events.Event {
	var out [][2]*events.Event
	for _, k := range eval.SortedPairs(r) {
		if a.en.s.Value(r[k]) {
			out = append(out, [2]*events.Event{a.en.u.Events[k.A], a.en.u.Events[k.B]})
		}
	}
	return out
}

// Check decides test t, unfolded into u (after its value analysis), under
// the model m, and enumerates its consistent executions; recheck, when
// not nil, re-checks every execution the engine accepts (an error stops
// the enumeration, and Check returns it). The formula's bounds
// (opt.MaxVars, opt.MaxClauses) and ctx stop it with an error (a
// *sat.LimitError, or one that wraps the context's).
func Check(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout, opt engine.Options,
	recheck func(Accepted) error) (out *outcome.Outcome, err error) {
	defer sat.Catch(&err) // the formula's bounds and ctx abort by panicking
	showing := opt.Showing()
	f, err := build(ctx, m, t, u, lay, opt, showing)
	if err != nil {
		return nil, err
	}
	en, al, sets, rels, captured := f.en, f.al, f.sets, f.rels, f.captured
	s := en.s
	consistent, lazy := f.required(opt.Through)
	flags := map[string][]sat.Lit{}
	for _, c := range f.checks {
		switch c.Mode {
		case ast.Flag:
			flags[c.Name] = append(flags[c.Name], c.Lit)
		case ast.UndefinedUnless:
			// herd7 raises its undefined-behaviour flag when the check fails.
			flags[herdout.UndefFlag] = append(flags[herdout.UndefFlag], -c.Lit)
		}
	}
	tally := engine.NewTally(t, opt, u.Cut)
	if err := tally.RefuseFlags(len(flags) > 0); err != nil {
		return nil, err
	}
	if err := en.refuseHazards(t, f.derivation); err != nil {
		return nil, err
	}
	s.AddClause(s.And(consistent...))
	lazy = append(lazy, f.derivation)
	fs, cond, err := f.finalState(t, lay)
	if err != nil {
		return nil, err
	}
	observed := events.ObservedLocations(t)
	flagNames := make([]string, 0, len(flags))
	for name := range flags {
		flagNames = append(flagNames, name)
	}
	sort.Strings(flagNames)
	flagLits := map[string]sat.Lit{}
	for _, name := range flagNames {
		flagLits[name] = s.Or(flags[name]...)
	}

	var failure error
	if showing {
		tally.Shown(captured.Shown)
	}
	var raw []byte
	var vals []outcome.Value
	var slab []outcome.Binding
	slabStates := 2 // states in the last slab
	types := make([]string, len(observed))
	arrayLen := make([]int, len(observed)) // an array's length, or -1
	for i, loc := range observed {
		types[i] = lay.TypeOf(loc)
		arrayLen[i] = -1
		if n, isArray := lay.Length[loc.Name]; isArray && loc.Kind == litmus.GlobalLoc {
			arrayLen[i] = n
		}
	}
	// herd7 tells executions apart by paths, rf and co, or, for a model
	// that builds no co of its own from the engine's, by the final writes
	// of the observed locations instead of co; and by the choices of the
	// model's "with x from S".
	projection := en.projection
	tally.CountsCo(engine.CountsCo(opt.Distinct, al.ReadsCo() || en.marksInCo()))
	switch {
	case opt.Distinct != nil:
		projection = en.distinctProjection(opt.Distinct)
	case !al.ReadsCo() && !en.marksInCo():
		projection = en.distinctProjection([]string{"rf"})
		for _, l := range sets["FW"] {
			if l != sat.False && l != sat.True {
				projection = append(projection, l)
			}
		}
	}
	if opt.Distinct == nil {
		// --distinct counts classes of executions, whatever the choices.
		projection = append(projection[:len(projection):len(projection)], al.Choices()...)
	}
	complete := enumerate(s, projection, lazy, opt.MaxExecutions, func() bool {
		holds := s.Value(cond)
		// Key the states by their values, cast to their locations' types,
		// and build one only when it is new (or an execution needs it).
		// Format prints cast values injectively, so equal keys are equal
		// states.
		vals = vals[:0]
		raw = raw[:0]
		for i, loc := range observed {
			if n := arrayLen[i]; n >= 0 {
				for j := range n {
					v, _ := fs.valueOf(litmus.Loc{Kind: litmus.IndexLoc, Name: loc.Name, Index: j})
					vals = append(vals, v)
					raw = appendValue(raw, outcome.Cast(types[i], v))
				}
				continue
			}
			v, _ := fs.valueOf(loc)
			vals = append(vals, v)
			raw = appendValue(raw, outcome.Cast(types[i], v))
		}
		var st outcome.State
		state := func() outcome.State {
			if st == nil {
				// Cut from a slab: one allocation for many states. The
				// slabs grow, most tests having a handful of states.
				if len(slab) < len(observed) {
					slabStates = min(2*slabStates, 256)
					slab = make([]outcome.Binding, slabStates*len(observed))
				}
				st, slab = slab[:0:len(observed)], slab[len(observed):]
				rest := vals
				for i := range observed {
					b := outcome.Binding{Loc: &observed[i], Type: types[i]}
					if n := arrayLen[i]; n >= 0 {
						b.Array = slices.Clone(rest[:n])
						rest = rest[n:]
					} else {
						b.Value = rest[0]
						rest = rest[1:]
					}
					st = append(st, b)
				}
			}
			return st
		}
		var these []string
		for _, name := range flagNames {
			if s.Value(flagLits[name]) {
				these = append(these, name)
			}
		}
		index := tally.Count(1, holds, raw, state, these)
		if tally.Selects(holds) {
			build := func(brief bool) outcome.Execution {
				b := en.builder(t, lay, sets, rels, captured, opt.Capture, brief)
				if opt.Through {
					for _, fail := range engine.Fails(f.checks, s.Value) {
						b.Fail(fail)
					}
				}
				return b.Finish(index, state(), holds, these)
			}
			if !tally.Keep(outcome.Visited{Index: index, Holds: holds, State: state(), Flags: these, Build: build}) {
				return false
			}
		}
		if recheck != nil {
			if failure = recheck(Accepted{en: en, Holds: holds, State: state(), Flags: these}); failure != nil {
				return false
			}
		}
		return !tally.Decided(holds)
	})
	if failure != nil {
		return nil, failure
	}
	return tally.Outcome(complete), nil
}

// StaticallyEmpty lists the sets and relations the model captures for
// executions that no candidate execution of the test fills (see
// engine.StaticallyEmpty), decided on the test's formula: for the
// explicit engine, which cannot tell them from one execution, to leave
// out the names the SAT engine leaves out.
func StaticallyEmpty(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout,
	opt engine.Options) (empty []string, err error) {
	defer sat.Catch(&err)
	f, err := build(ctx, m, t, u, lay, opt, true)
	if err != nil {
		return nil, err
	}
	return f.empty, nil
}

// formula is a test's encoding with the model evaluated on it, where
// Check and Why start.
type formula struct {
	en         *encoding
	al         *eval.Algebra[sat.Lit]
	sets       map[string]Set
	rels       map[string]Rel
	checks     []eval.Check[sat.Lit]
	captured   *eval.Captured[sat.Lit] // when capturing, less empty
	empty      []string                // the captured names no candidate fills (engine.StaticallyEmpty)
	derivation Rel                     // the values' derivation, which must be acyclic
}

// build encodes the unfolding and evaluates the model on it, capturing
// what the model binds and shows when asked (for executions to show).
func build(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout, opt engine.Options,
	capture bool) (*formula, error) {
	en := encodeLimited(u, sat.Limits{MaxVars: opt.MaxVars, MaxClauses: opt.MaxClauses, Context: ctx})
	f := &formula{en: en, al: en.al}
	f.sets, f.rels = en.predefined(events.ObservedAddrs(t, lay))
	if pairs := en.u.OneEventPairs(); pairs != nil {
		f.al, f.sets, f.rels = f.al.Fuse(pairs, f.sets, f.rels, predef.Reflexive)
	}
	var err error
	if capture {
		f.checks, f.captured, err = eval.RunCapturing(ctx, m, f.al, f.sets, f.rels)
	} else {
		f.checks, err = eval.Run(ctx, m, f.al, f.sets, f.rels)
	}
	if err != nil {
		return nil, err
	}
	// The gates fold constants as the model is evaluated: a captured
	// name whose literals all came out false is empty in every candidate.
	f.empty = engine.StaticallyEmpty(f.captured, opt.Capture, u, func(l sat.Lit) bool { return l == sat.False })
	engine.LeaveOut(f.captured, f.empty)
	f.derivation = en.derivation()
	return f, nil
}

// finalState reads the final state off the formula, holds its filter
// and returns the literal of the condition's proposition.
func (f *formula) finalState(t *litmus.Test, lay events.Layout) (*finalState, sat.Lit, error) {
	procIDs := make([]int, len(t.Program.Procs))
	for i, p := range t.Program.Procs {
		procIDs[i] = p.ID
	}
	fs := newFinalState(f.en, procIDs, lay)
	if t.Filter != nil {
		filter, err := fs.propLit(t.Filter)
		if err != nil {
			return nil, sat.False, err
		}
		f.en.s.AddClause(filter)
	}
	cond, err := fs.propLit(t.Cond)
	return fs, cond, err
}

// marksInCo tells whether co orders marks too: then the final writes do
// not determine the final values, and executions are told apart by co.
func (en *encoding) marksInCo() bool {
	for _, e := range en.u.Events {
		if e.InCoherence() && !e.IsWrite() {
			return true
		}
	}
	return false
}

// appendValue appends an encoding of v that tells it from every other
// value.
func appendValue(b []byte, v outcome.Value) []byte {
	b = binary.AppendUvarint(b, uint64(len(v.Sym)))
	b = append(b, v.Sym...)
	return binary.AppendVarint(b, v.Off)
}

// builder lays out the solver's current model as an execution, for
// Finish to complete.
func (en *encoding) builder(t *litmus.Test, lay events.Layout, sets map[string]Set, rels map[string]Rel,
	captured *eval.Captured[sat.Lit], capture []string, brief bool) *engine.Builder {
	s := en.s
	var occ []engine.Occurrence
	for _, e := range en.u.Events {
		if !s.Value(en.al.Exec[e.ID]) {
			continue
		}
		occ = append(occ, engine.Occur(e, func(t *events.Term) outcome.Value {
			v, _ := en.termValue(t)
			return v
		}))
	}
	b := engine.NewBuilder(t, lay, occ)
	if brief {
		captured, capture = nil, nil
	}
	engine.AddRelations(b, rels, sets, captured, capture, s.Value)
	return b
}

// Hazards refuses the test when a candidate execution does what herd7
// stops on (see refuseHazards), whatever the model: for a test refused
// for something else (mixed sizes), whose refusal herd7 would not reach.
func Hazards(ctx context.Context, t *litmus.Test, u *events.Unfolding, opt engine.Options) (err error) {
	defer sat.Catch(&err)
	en := encodeLimited(u, sat.Limits{MaxVars: opt.MaxVars, MaxClauses: opt.MaxClauses, Context: ctx})
	return en.refuseHazards(t, en.derivation())
}

// refuseHazards refuses the test when a candidate execution, whatever
// the model, does what herd7 stops on: a write takes a number for its
// address (events.NumericAddressWrites), or an instruction computes an
// operation that has no value on the addresses it gets
// (events.IllegalOps). A candidate is one herd7 builds: any pairing of
// reads with writes (but an instruction's own, which no engine pairs:
// herd7's -optace iico, its default for Cat models) whose values derive
// from none of themselves (derivation acyclic).
func (en *encoding) refuseHazards(t *litmus.Test, derivation Rel) error {
	ws, ops := en.u.NumericAddressWrites(), en.u.IllegalOps()
	if len(ws) == 0 && len(ops) == 0 {
		return nil
	}
	s := en.s
	var goal []sat.Lit
	for _, w := range ws {
		for i, v := range w.Addr.Dom {
			if !v.IsAddr() {
				goal = append(goal, s.And(en.al.Exec[w.ID], en.val[w.Addr.ID][i]))
			}
		}
	}
	illegal := make([]sat.Lit, len(ops)) // the site computes its operation on an address
	for k, op := range ops {
		var combos []sat.Lit
		for _, c := range events.IllegalOperands(op.Term) {
			lits := []sat.Lit{en.seg[op.Seg.ID]}
			for a, i := range c {
				lits = append(lits, en.val[op.Term.Args[a].ID][i])
			}
			combos = append(combos, s.And(lits...))
		}
		illegal[k] = s.Or(combos...)
		goal = append(goal, illegal[k])
	}
	query := s.NewVar()
	s.AddClause(append([]sat.Lit{-query}, goal...)...)
	defer s.AddClause(-query)
	cycles := newCycleFinder([]Rel{derivation})
	if cycles.solve(s, query) {
		for _, w := range ws {
			for i, v := range w.Addr.Dom {
				if !v.IsAddr() && s.Value(en.al.Exec[w.ID]) && s.Value(en.val[w.Addr.ID][i]) {
					return events.NonSymbolicWrite(t, w, v)
				}
			}
		}
		for k, op := range ops {
			if s.Value(illegal[k]) {
				return events.IllegalOp(t, op, en.valuesOf(op.Term.Args))
			}
		}
		panic("satengine: the query holds with no hazard")
	}
	return nil
}

// valuesOf reads the terms' values off the solver's model.
func (en *encoding) valuesOf(terms []*events.Term) []outcome.Value {
	vals := make([]outcome.Value, len(terms))
	for a, arg := range terms {
		for i, v := range arg.Dom {
			if en.s.Value(en.val[arg.ID][i]) {
				vals[a] = v
			}
		}
	}
	return vals
}

// required splits the checks an execution must pass (required and
// asserted ones; with letThrough, purr's well-formedness rules only) into
// the literals that must hold and the relations that must be acyclic,
// which the solver checks lazily.
func (f *formula) required(letThrough bool) (consistent []sat.Lit, lazy []Rel) {
	for _, c := range f.checks {
		if c.Mode != ast.Require && c.Mode != ast.Assert {
			continue
		}
		if letThrough && !c.WellFormed {
			continue // let through: Fails shows it
		}
		if c.Acyclic != nil {
			lazy = append(lazy, c.Acyclic)
			continue
		}
		consistent = append(consistent, c.Lit)
	}
	return consistent, lazy
}

// Reaches tells whether some execution of u that the model's checks
// accept executes one of the segments goal: the checks that filter
// executions (not flags, not undefined_unless) hold, rf's values derive
// from none of themselves, and the test's condition and filter play no
// part. With an unfolding of partial executions (events.UnfoldOptions.
// Prefixes) and its cut leaves as goal, it asks whether a consistent
// partial execution goes as far as the unrolling bound.
func Reaches(ctx context.Context, m eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout, opt engine.Options,
	goal []*events.Segment) (reached bool, err error) {
	defer sat.Catch(&err)
	if len(goal) == 0 {
		return false, nil
	}
	f, err := build(ctx, m, t, u, lay, opt, false)
	if err != nil {
		return false, err
	}
	s := f.en.s
	consistent, lazy := f.required(false)
	lazy = append(lazy, f.derivation)
	s.AddClause(s.And(consistent...))
	var some []sat.Lit
	for _, g := range goal {
		some = append(some, f.en.seg[g.ID])
	}
	s.AddClause(some...)
	cycles := newCycleFinder(lazy)
	cycles.forbidShortCycles(s)
	return cycles.solve(s), nil
}
