package mcm

import (
	"context"
	"errors"
	"fmt"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/explicit"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/internal/satengine"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// Options tune one check.
type Options struct {
	Unroll        int      // loop iterations (herd's -unroll; default 2)
	Variants      []string // enabled model variants
	Speedcheck    bool     // stop at the first execution that decides the condition
	MaxExecutions int      // stop enumerating after this many executions (0: all)
	// MaxVars and MaxClauses bound the SAT formula of a test, which is
	// refused with a *LimitError past them, before it exhausts memory
	// (0: no bound, as for the command line's --max-sat-vars and
	// --max-sat-clauses, whose defaults are DefaultMaxVars and
	// DefaultMaxClauses).
	MaxVars, MaxClauses int
	// Engine chooses how to decide: "sat" (the default), "explicit"
	// (herd7's enumeration of candidate executions: the oracle of the
	// differential tests).
	Engine string
	// CheckModels re-checks every execution the SAT engine accepts by
	// evaluating the model on it concretely, and fails on a disagreement.
	CheckModels bool
	// SkipChecks names the model's checks to leave out (herd's
	// -skipchecks).
	SkipChecks []string
	// Through is herd7's -through: "invalid" or "all" let through the
	// executions the model's checks forbid (counted, kept with the checks
	// they fail in outcome.Execution.Fails); "" or "none" do not.
	Through string
	// Distinct, when not nil, counts executions up to these relations (rf,
	// co; ParseDistinct reads them) and the paths the threads take:
	// executions that differ only in other relations are one. nil counts as
	// herd7 does (paths, rf and co). A test whose condition, filter or
	// locations the named relations do not determine is refused.
	Distinct []string
	// Show selects the consistent executions outcome.Outcome.Executions keeps
	// (herd7's -show; "" keeps none), with their events, rf, co, fr, po
	// and the sets and relations the model binds at its top level and
	// shows; Capture names predefined sets and relations (addr, data,
	// rmw, ...) to keep in them too.
	Show    outcome.Show
	Capture []string
	// Visit, when not nil, is given the executions Show selects one by
	// one, in order, as they are found, instead of keeping them in
	// outcome.Outcome.Executions, and before they are built: it builds
	// those it needs, in full or briefly (page executions by the
	// thousand), so that a caller that writes them out or pages them
	// holds one at a time, however many a test has. Returning false stops
	// the enumeration there (Outcome.Complete is then false).
	Visit func(outcome.Visited) bool

	// skipWellFormed leaves purr's well-formedness rules out, so that tests
	// can check that the encoding of rf and co meets them by itself.
	skipWellFormed bool
	// wellFormedInFull evaluates even the well-formedness rules that the
	// SAT engine meets by construction, so that tests can check it does.
	wellFormedInFull bool
	// failingChecks: the check asks about executions that fail the
	// model's checks (Why), whose facts it may not lean on.
	failingChecks bool
}

// LimitError says that a test's formula outgrew Options.MaxVars or
// Options.MaxClauses: the test is refused.
type LimitError struct {
	What  string // "variables" or "clauses"
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the formula needs more than %d SAT %s", e.Limit, e.What)
}

// The default bounds of a test's formula: about ten times what the
// largest test of purr's corpora needs (dat3m-c11's TSan: 51,660
// variables, 202,373 clauses), and a few hundred MB of memory at most.
const (
	DefaultMaxVars    = 500_000
	DefaultMaxClauses = 2_000_000
)

// Check decides a test under a model and enumerates its consistent
// executions.
func Check(m *cat.Model, t *litmus.Test, opt Options) (*outcome.Outcome, error) {
	return CheckContext(context.Background(), m, t, opt)
}

// CheckContext is Check that gives up when ctx is done, returning an error
// that wraps ctx.Err(). The work stops between the steps of the unfolding,
// of the model's evaluation, of the formula's construction and of the
// enumeration; a single call to the SAT solver cannot be interrupted.
func CheckContext(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options) (out *outcome.Outcome, err error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", t.File, err)
	}
	defer func() {
		if err == nil {
			return
		}
		out = nil
		var limit *sat.LimitError
		if errors.As(err, &limit) && err == error(limit) {
			err = fmt.Errorf("%s: test refused: %w", t.File, &LimitError{What: limit.What, Limit: limit.Limit})
		} else if err == ctx.Err() {
			err = fmt.Errorf("%s: %w", t.File, err)
		}
	}()
	if err := checkDistinct(t, opt.Distinct); err != nil {
		return nil, err
	}
	model, u, lay, bound, err := prepare(ctx, m, t, opt)
	var undecided *undecidedLoop
	if errors.As(err, &undecided) {
		return settleByWitness(ctx, m, t, opt, model, undecided)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if out != nil {
			out.Bound = bound
			if bound != nil && bound.Unroll == Unbounded {
				out.Loop = false // the bound cut only what no consistent execution reaches
			}
			if bound != nil && !bound.Exact && !mayRaiseFlags(model, t) {
				bound.Witnessed = settled(t.Quant, out)
			}
		}
	}()
	through, err := parseThrough(opt.Through)
	if err != nil {
		return nil, err
	}
	eopt := engine.Options{Through: through, Speedcheck: opt.Speedcheck, MaxExecutions: opt.MaxExecutions, Distinct: opt.Distinct,
		Show: opt.Show, Capture: opt.Capture, MaxVars: opt.MaxVars, MaxClauses: opt.MaxClauses, Visit: opt.Visit}
	if explicitly, err := useExplicit(opt); err != nil || explicitly {
		if err != nil {
			return nil, err
		}
		if eopt.Showing() {
			if eopt.StaticallyEmpty, err = staticallyEmpty(ctx, model, t, u, lay, eopt); err != nil {
				return nil, err
			}
		}
		return explicit.Check(ctx, model, t, u, lay, eopt)
	}
	var recheck func(satengine.Accepted) error
	if opt.CheckModels {
		c := explicit.NewChecker(ctx, model, t, u, lay)
		c.LetThrough(through)
		recheck = func(a satengine.Accepted) error {
			leaves, err := a.Paths()
			if err != nil {
				return fmt.Errorf("%s: check-models: %v", t.File, err)
			}
			return c.Verify(leaves, a.ReadsFrom(), a.Coherence(), a.Holds, a.State, a.Flags)
		}
	}
	satModel := model
	if !opt.wellFormedInFull {
		satModel.ByConstruction = satengine.WellFormedByConstruction
	}
	res, err := satengine.Check(ctx, satModel, t, u, lay, eopt, recheck)
	if err != nil && opt.Engine == "" && eval.NeedsConcreteExecutions(err) && explicit.Candidates(u) <= maxFallbackCandidates {
		// The model walks sets that differ between executions, otherwise
		// than to choose among their members (which the SAT engine does:
		// lock.cat's choices for failed trylocks): the explicit engine
		// has each execution concretely.
		return explicit.Check(ctx, model, t, u, lay, eopt)
	}
	return res, err
}

// staticallyEmpty has the SAT engine decide which of the sets and
// relations the model captures no candidate execution fills, for the
// explicit engine to leave out the same names. When the formula cannot
// be built (a model that needs concrete executions, a formula past its
// bounds), there is no SAT engine's answer to match: every name is kept.
func staticallyEmpty(ctx context.Context, model eval.Model, t *litmus.Test, u *events.Unfolding, lay events.Layout,
	eopt engine.Options) ([]string, error) {
	model.ByConstruction = satengine.WellFormedByConstruction // capture does not reach the rules
	empty, err := satengine.StaticallyEmpty(ctx, model, t, u, lay, eopt)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	return empty, nil
}

// parseThrough reads Options.Through: herd7 lets the same executions
// through for invalid and all under a Cat model (its check_through; the
// two differ only for its built-in models' uniproc check).
func parseThrough(through string) (bool, error) {
	switch through {
	case "", "none":
		return false, nil
	case "invalid", "all":
		return true, nil
	}
	return false, fmt.Errorf("-through must be none, invalid or all, not %q", through)
}

// prepare unfolds a test into events, analyses their values and checks
// its accesses, for an engine to decide it under the model.
func prepare(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options) (model eval.Model, u *events.Unfolding, lay events.Layout, bound *outcome.Bound, err error) {
	lc, err := newLoopCheck(ctx, m, t, opt)
	if err != nil {
		return model, nil, lay, nil, err
	}
	switch {
	case opt.Unroll == Unbounded:
		u, bound, err = lc.unbounded()
	case opt.Unroll < 0:
		err = fmt.Errorf("the unrolling bound must be a number of iterations or none, not %d", opt.Unroll)
	default:
		u, err = lc.unfoldBounded()
		if err == nil && u.Cut {
			bound, err = lc.bounded()
		}
	}
	if err != nil {
		return lc.model, nil, lc.lay, nil, err
	}
	if err := lc.analyse(u); err != nil {
		var mixed *events.MixedSizeError
		if errors.As(err, &mixed) {
			// herd7 stops on an operation on an address before it looks
			// at sizes (its regression test A178: a 32-bit load of one).
			eopt := engine.Options{MaxVars: opt.MaxVars, MaxClauses: opt.MaxClauses}
			if hazard := satengine.Hazards(ctx, t, u, eopt); hazard != nil {
				return lc.model, nil, lc.lay, nil, hazard
			}
		}
		return lc.model, nil, lc.lay, nil, err
	}
	return lc.model, u, lc.lay, bound, nil
}

// maxFallbackCandidates bounds the candidate executions (as
// explicit.Candidates estimates them) for which the default engine hands a
// test the SAT engine refuses to the explicit engine.
const maxFallbackCandidates = 1e6
