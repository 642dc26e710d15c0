package mcm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/arg"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// Unbounded is Options.Unroll for loops without a bound (--unroll none):
// the answer is the program's whatever the number of iterations, or the
// test is refused (see events' retries and docs/loops.md).
const Unbounded = outcome.Unbounded

// unboundedRounds are the bounds --unroll none tries, in turn, on the
// loops that are no retries: a loop the test's own values end (a counter
// from a constant) ends within one of them, or one of them is shown to be
// enough (boundEnough), or the test is refused.
var unboundedRounds = []int{2, 8, 32, 128}

// maxBoundCheck is the largest bound whose sufficiency boundEnough asks
// the SAT engine about: past it, the question costs more than it answers
// (a livelock reaches every cut, and at 32 iterations Dekker's back-off
// without a turn took minutes to say so).
const maxBoundCheck = 8

// loopCheck is what checking a test needs before an engine runs, and
// what deciding its loops needs: the test, the model, the check's options,
// the initial state, and the options of the unfoldings.
type loopCheck struct {
	ctx   context.Context
	model eval.Model
	t     *litmus.Test
	opt   Options
	// uopt is the check's own unfolding at the bound: herd's, every path
	// up to it.
	uopt events.UnfoldOptions
	// retries is UnfoldOptions.Retries of the unfoldings that decide loops
	// (retryOptions): 0, or 1 where the flags or a hazard need a retry.
	// A model with flags the test may raise (mayRaiseFlags) keeps one
	// retry per loop, as a retry's read may raise a flag that no execution
	// without it raises (one is enough: a flag is raised by a pair of
	// events, and a retry writes nothing), unless removing the retries
	// keeps every flag (eval.FlagsKept). flagsKept: the test may raise the
	// flags, yet retries stays 0 while each unfolding keeps them; it turns
	// false, and retries 1, once one does not (keepRetry).
	retries   int
	flagsKept bool
	flagsWhy  error // why a retry was kept for the flags (eval.FlagsKept's refusal)
	lay       events.Layout
	initRegs  map[int]map[string]outcome.Value
	initMem   map[outcome.Value]outcome.Value
	// valued is the unfolding whose values unbounded analysed, which
	// analyse need not analyse again.
	valued *events.Unfolding
	// acyclicWhy is acyclicPoRf's answer once asked, justified
	// acyclicJustification's: the same at every bound.
	acyclicWhy *string
	justified  *justification
	// instrOrdered is orderedInInstructions's answer once asked.
	instrOrdered *bool
	// tracked is the precision of the abstraction (cutsByAbstraction):
	// the locations whose reads its graphs track; graph is the graphs
	// under it, refinements how often it was refined.
	tracked     map[outcome.Value]bool
	graph       *arg.Graph
	refinements int
	// havocked is the abstraction with every read havocked
	// (locationValues); noSilent: the model does not allow removing
	// silent retries (unfoldRetrying), for the reason silentWhy.
	havocked  *arg.Graph
	noSilent  bool
	silentWhy error
	// noAssumeSame: the model does not allow removing the retries made
	// by registers assumed to hold their old values (unfoldCutting).
	// noOwn: nor those that write locations only their thread accesses
	// (events.UnfoldOptions.OwnLatest), or the model does not make a
	// read of one read its thread's latest write (eval.ReadsOwnLatest,
	// asked once: ownAsked).
	noAssumeSame, noOwn, ownAsked bool
	// tracking are the abstractions that track one location
	// (locationValues), by the location.
	tracking map[outcome.Value]*arg.Graph
}

// justification is acyclicJustification's answer: why a value might
// justify itself ("" when none can), and the pair a check leaves
// unordered when that is why.
type justification struct{ why, unordered string }

// newLoopCheck reads the test's initial state for a check of it under m.
func newLoopCheck(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options) (*loopCheck, error) {
	model := eval.Model{Cat: m, Variants: opt.Variants, SkipWellFormed: opt.skipWellFormed, SkipChecks: opt.SkipChecks}
	if err := checkReadsMessages(m, t); err != nil {
		return nil, err
	}
	lay, initRegs, initMem, err := events.InitialState(t)
	if err != nil {
		return nil, err
	}
	// A model that computes its dependencies (herd's catdep option) reads
	// them off herd's register events.
	uopt := events.UnfoldOptions{Unroll: opt.Unroll, Registers: m.CatDep, Retries: -1, FinalRegs: finalRegs(t)}
	return &loopCheck{ctx: ctx, model: model, t: t, opt: opt, uopt: uopt, flagsKept: mayRaiseFlags(model, t),
		lay: lay, initRegs: initRegs, initMem: initMem}, nil
}

// retryOptions are the options of an unfolding that decides loops, at
// bound n: retries cut off.
func (lc *loopCheck) retryOptions(n int) events.UnfoldOptions {
	opt := lc.uopt
	opt.Unroll, opt.Retries = n, lc.retries
	if !lc.noSilent {
		opt.LocationValues = lc.locationValues
	}
	opt.AssumeSame = !lc.noAssumeSame
	if !lc.ownAsked {
		lc.noOwn, lc.ownAsked = !eval.ReadsOwnLatest(lc.model), true
	}
	if !lc.noOwn {
		shown := shownNames(lc.t)
		opt.OwnLatest, opt.Shown = true, func(a outcome.Value) bool { return shown[a.Sym] }
	}
	return opt
}

// unfoldRetrying unfolds the test at bound n with its retries cut off.
// When the model does not allow removing the silent retries the
// unfolding took (eval.SilentRetriesRemovable), it unfolds again without
// any: their loops are then loops that write, which the rounds may still
// decide, or an execution settle.
func (lc *loopCheck) unfoldRetrying(n int) (*events.Unfolding, error) {
	if lc.flagsKept {
		u, err := lc.unfoldCutting(n)
		if err != nil || len(u.Retries) == 0 {
			return u, err
		}
		if lc.flagsWhy = lc.flagsKeptBy(u); lc.flagsWhy == nil {
			return u, nil
		}
		lc.keepRetry()
	}
	return lc.unfoldCutting(n)
}

// keepRetry makes the unfoldings keep one retry a loop, for the flags
// or a hazard.
func (lc *loopCheck) keepRetry() { lc.retries, lc.flagsKept = 1, false }

// flagsKeptBy is eval.FlagsKept for the test unfolded as u: the kinds of
// access at the locations its retries access.
func (lc *loopCheck) flagsKeptBy(u *events.Unfolding) error {
	classes := map[string]eval.AccessClass{}
	// The accesses at the retries' locations: the retries' own (their
	// iterations may hold accesses no path that goes on makes), and the
	// unfolding's.
	marked := false // a mark (a message event) at one: no kind says what sets hold it
	for _, e := range append(slices.Clip(u.RetryAccesses), u.Events...) {
		if !e.HasLoc() || e.Kind == events.KindInit {
			continue
		}
		for _, d := range u.RetryAccesses {
			// The retries' paths are dead: their addresses have no
			// domain for events.MayAlias.
			if events.MayAliasStatically(e.Addr, d.Addr) {
				if !e.IsMem() {
					marked = true
					break
				}
				// rmw holds the pair whenever both halves are executed:
				// in one segment, they are.
				c := eval.AccessClass{Tags: slices.Sorted(slices.Values(e.Tags)), Write: e.IsWrite(), InRMW: e.RMW != nil && e.RMW.Seg == e.Seg}
				classes[fmt.Sprint(c)] = c
				break
			}
		}
	}
	key, tags := removableTags(lc.model, u, false)
	names := slices.Sorted(maps.Keys(classes))
	key.flagsClasses = fmt.Sprintf("flags:%v:%s", marked, strings.Join(names, ","))
	if err, ok := removable.Load(key); ok {
		e, _ := err.(error)
		return e
	}
	if !marked {
		for _, name := range names {
			tags.RetryClasses = append(tags.RetryClasses, classes[name])
		}
	}
	err := eval.FlagsKept(lc.model, tags, key.silent)
	removable.Store(key, err)
	return err
}

// unfoldCutting unfolds the test at bound n with its retries cut off
// (unfoldRetrying).
func (lc *loopCheck) unfoldCutting(n int) (*events.Unfolding, error) {
	u, err := events.UnfoldWith(lc.ctx, lc.t.Program, lc.retryOptions(n), lc.initRegs, lc.initMem)
	if err != nil {
		return nil, err
	}
	if len(u.OwnWrites) > 0 && lc.retriesRemovable(u) != nil {
		// The model may not allow removing writes, or splitting an
		// instruction: no retry that writes own locations.
		lc.noOwn = true
		return lc.unfoldCutting(n)
	}
	if u.DepsMove && lc.retriesRemovable(u) != nil {
		// The model may tell where a dependency comes from: no retry
		// by registers assumed to hold their old values.
		lc.noAssumeSame = true
		return lc.unfoldCutting(n)
	}
	if len(u.Silent) > 0 {
		if lc.silentWhy = lc.retriesRemovable(u); lc.silentWhy != nil {
			lc.noSilent = true
			return lc.unfoldCutting(n)
		}
	}
	return u, nil
}

// unfoldBounded unfolds the test for --unroll N without the paths that
// the assumptions before them rule out (a CAS that succeeded going round
// its retry loop, herd's two failures of an AArch64 CAS going on): no
// execution takes them, and they would multiply with the bound. herd7's
// Loop counts them, so when the bound cut none of the paths kept, the
// cuts are those of the unfolding with every path.
func (lc *loopCheck) unfoldBounded() (*events.Unfolding, error) {
	opt := lc.uopt
	opt.Learn = true
	u, err := events.UnfoldWith(lc.ctx, lc.t.Program, opt, lc.initRegs, lc.initMem)
	if err != nil || u.Cut {
		return u, err
	}
	every, err := events.UnfoldWith(lc.ctx, lc.t.Program, lc.uopt, lc.initRegs, lc.initMem)
	if err != nil {
		return nil, err
	}
	u.Cut, u.Cuts = every.Cut, every.Cuts
	return u, nil
}

// locationValues gives the values every write to a location may write in
// any execution, for silent retries: those of the abstraction with every
// read havocked, when it knows them (values it computes from no read
// cannot justify themselves, whatever the model); else, when the model
// lets no value justify itself (acyclicJustification), those of the
// abstraction that tracks the location's reads (a fetch-or's write of
// the value it read with the lock bit set).
func (lc *loopCheck) locationValues(addr outcome.Value) ([]outcome.Value, bool) {
	if lc.havocked == nil {
		g, err := arg.Explore(lc.ctx, lc.t.Program, lc.initRegs, lc.initMem, nil, arg.DefaultLimits)
		if err != nil {
			return nil, false
		}
		lc.havocked = g
	}
	if vals, top, _ := lc.havocked.Values(addr); !top {
		return vals, true
	}
	if lc.justification().why != "" {
		return nil, false
	}
	g := lc.tracking[addr]
	if g == nil {
		var err error
		g, err = arg.Explore(lc.ctx, lc.t.Program, lc.initRegs, lc.initMem, map[outcome.Value]bool{addr: true}, arg.DefaultLimits)
		if err != nil {
			return nil, false
		}
		if lc.tracking == nil {
			lc.tracking = map[outcome.Value]*arg.Graph{}
		}
		lc.tracking[addr] = g
	}
	vals, top, _ := g.Values(addr)
	return vals, !top
}

// justification is acyclicJustification's answer for the test, asked once.
func (lc *loopCheck) justification() justification {
	if lc.justified == nil {
		why, unordered := acyclicJustification(lc.model, lc.t)
		lc.justified = &justification{why, unordered}
	}
	return *lc.justified
}

// analyse readies an unfolding for an engine: its values, the scopes of
// its tags, the sizes of its accesses.
func (lc *loopCheck) analyse(u *events.Unfolding) error {
	if err := lc.analyseValues(u); err != nil {
		return err
	}
	if err := tagScopes(lc.t, u); err != nil {
		return err
	}
	return events.CheckAccessSizes(lc.t, u, lc.lay)
}

// analyseValues gives u's terms their values, once.
func (lc *loopCheck) analyseValues(u *events.Unfolding) error {
	return lc.analyseValuesWithin(u, 0)
}

// analyseValuesWithin is analyseValues within a budget of derived
// values (events.ValueOptions).
func (lc *loopCheck) analyseValuesWithin(u *events.Unfolding, budget int) error {
	if u == lc.valued {
		return nil
	}
	vopt := events.ValueOptions{Budget: budget, Acyclic: lc.valuesFlowAcyclic(u)}
	if err := u.AnalyseValuesWith(lc.ctx, vopt); err != nil {
		return fmt.Errorf("%s: %w", lc.t.File, err)
	}
	lc.valued = u
	return nil
}

// valuesFlowAcyclic tells whether, in every execution of u the check
// asks about, po ∪ rf holds every step by which a read's value reaches a
// read (events.ValueOptions.Acyclic) and is acyclic: the check asks only
// about consistent executions (not about those -through lets through,
// nor about those Why asks for, which fail checks); the model keeps po |
// rf acyclic (acyclicPoRf); and a value flows from a read into a write
// of its instruction, which po leaves unordered, only where one of the
// model's acyclic checks orders each read before each write after it
// (orderedInInstructions).
func (lc *loopCheck) valuesFlowAcyclic(u *events.Unfolding) bool {
	through, err := parseThrough(lc.opt.Through)
	if lc.opt.failingChecks || through || err != nil || lc.poRfMayCycle() != "" {
		return false
	}
	return !u.ParallelValueFlow() || lc.orderedInInstructions()
}

// poRfMayCycle is acyclicPoRf's answer, asked once: "" when the model
// keeps po | rf acyclic in every execution of the test.
func (lc *loopCheck) poRfMayCycle() string {
	if lc.acyclicWhy == nil {
		why := acyclicPoRf(lc.model, lc.t)
		lc.acyclicWhy = &why
	}
	return *lc.acyclicWhy
}

// unbounded unfolds a test for --unroll none: retries cut off, other
// loops unrolled until the test's own values end them or the bound is
// shown to be enough.
//
// Hazards (an operation herd7 stops on) are values' business: a retry may
// meet one with a value that the pass after the retries cut off never
// reads, so an unfolding with such a site keeps one retry.
func (lc *loopCheck) unbounded() (*events.Unfolding, *outcome.Bound, error) {
	u, b, err := lc.rounds()
	if err != nil || len(u.Retries) == 0 || lc.retries > 0 {
		return u, b, err
	}
	if err := lc.analyseValues(u); err != nil {
		return nil, nil, err
	}
	if len(u.IllegalOps()) == 0 {
		return u, b, nil
	}
	lc.keepRetry()
	return lc.rounds()
}

// rounds unfolds with the bounds of unboundedRounds in turn until none
// cuts a loop, or one is enough.
func (lc *loopCheck) rounds() (*events.Unfolding, *outcome.Bound, error) {
	t := lc.t
	var last *events.Unfolding
	lastAt := 0
	var notEnough string
	notEnoughAt := 0 // the bound notEnough is about
	for round, n := range unboundedRounds {
		u, err := lc.unfoldRetrying(n)
		if err != nil {
			if last != nil && lc.ctx.Err() == nil {
				// The unfolding outgrew its limit: refuse with the last
				// round's loop, and say where the rounds stopped.
				if notEnough != "" {
					notEnough = fmt.Sprintf("%s (at %d iterations; %d are more than purr unfolds: %v)", notEnough, notEnoughAt, n, err)
				}
				break
			}
			return nil, nil, err
		}
		if len(u.Retries) > 0 {
			if err := lc.retriesRemovable(u); err != nil {
				r := u.Retries[0]
				return nil, nil, source.Errorf(r.Pos, "--unroll none: %s's loop only retries here, but %v", threadName(t, r.Thread), err)
			}
		}
		b := &outcome.Bound{Unroll: Unbounded, Iterations: n, Exact: true, Retries: retrySites(t, u), Rounds: round + 1}
		if !u.Cut {
			return u, b, nil
		}
		if proof, ok := lc.cutsByValues(u); ok {
			u, b.Iterations, proof, err = lc.tightestByValues(lastAt+1, n, u, proof)
			proof.record(b)
			b.Enough, b.Retries = true, retrySites(t, u)
			return u, b, err
		}
		if n <= maxBoundCheck {
			enough, why, err := lc.boundEnough(u, n)
			if err != nil {
				return nil, nil, err
			}
			if enough {
				b.Enough = true
				if retried, err := lc.retried(n); err != nil || !retried {
					return u, b, err
				}
				// The kept retry is one iteration more than the bound
				// check counts (see boundEnough).
				b.Iterations = n + 1
				u, err = lc.unfoldRetrying(n + 1)
				if err != nil {
					return nil, nil, err
				}
				return u, b, nil
			}
			notEnough, notEnoughAt = why, n
		}
		last, lastAt = u, n
	}
	if j := lc.justified; j != nil && j.unordered != "" {
		// Why the values the reads may take could not show it either: a
		// value might justify itself.
		reason := "as a value might justify itself: " + j.unordered
		if notEnough == "" {
			notEnough = "the values the reads may take cannot show it, " + reason
		} else {
			notEnough += "; nor do the values the reads may take show it, " + reason
		}
	}
	c := last.Cuts[0]
	if lc.silentWhy != nil {
		// Its failed attempts would have been removed but for the model.
		c.Why += fmt.Sprintf("; its failed attempts write back what they read, but %v", lc.silentWhy)
	}
	if lc.flagsWhy != nil {
		c.Why += fmt.Sprintf("; a failed iteration is kept for the model's flags, as %v", lc.flagsWhy)
	}
	return nil, nil, newUndecidedLoop(t, c, lastAt, notEnough)
}

// undecidedLoop is the refusal of a test whose loop --unroll none cannot
// decide: the loop, why it is no retry, and why no bound was shown to be
// enough. An execution within a few iterations may still settle the
// verdict (settleByWitness).
type undecidedLoop struct {
	err error  // the refusal, at the loop
	why string // the loop and why it is undecided, for Bound.Why
}

func (e *undecidedLoop) Error() string { return e.err.Error() }
func (e *undecidedLoop) Unwrap() error { return e.err }

func newUndecidedLoop(t *litmus.Test, c events.CutSite, unrolled int, notEnough string) *undecidedLoop {
	if notEnough != "" {
		notEnough = "; nor is a bound shown to be enough: " + notEnough
	}
	undecided := fmt.Sprintf("does not end by the test's own values within %d iterations, and its iterations are no retries (%s)%s",
		unrolled, cutReason(c), notEnough)
	thread := threadName(t, c.Thread)
	return &undecidedLoop{
		err: source.Errorf(c.Pos, "--unroll none: %s's loop %s: purr cannot decide it for every number of iterations; use --unroll N", thread, undecided),
		why: fmt.Sprintf("%s's loop at %s %s", thread, c.Pos, undecided),
	}
}

// witnessRounds are the bounds at which --unroll none looks for an
// execution that settles the verdict of a test whose loop it cannot
// decide: one iteration only, as such loops grow the search fast
// (Dekker's under ARMv8: 0.3 s at 1, seconds at 2, minutes at 3; a CASA
// lock's: 7 s at 1, minutes at 2), and a refusal should come soon.
var witnessRounds = []int{1}

// settleByWitness answers --unroll none for a test whose loop it cannot
// decide when an execution within a few iterations settles the verdict
// (settled): more iterations add executions and remove none, so the
// verdict holds for every bound from there. The states and counts are
// those of that bound, which Bound says; otherwise the test is refused
// as undecided says.
func settleByWitness(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options, model eval.Model, undecided *undecidedLoop) (*outcome.Outcome, error) {
	if mayRaiseFlags(model, t) {
		return nil, undecided // a flag more iterations raise would change the verdict
	}
	for _, n := range witnessRounds {
		bounded := opt
		bounded.Unroll = n
		out, err := CheckContext(ctx, m, t, bounded)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			break // past the formula's limits: more iterations would be too
		}
		if settled(t.Quant, out) {
			out.Bound = &outcome.Bound{Unroll: Unbounded, Iterations: n, Witnessed: true, Why: undecided.why}
			return out, nil
		}
	}
	return nil, undecided
}

// settled tells whether an execution of the outcome settles its verdict
// for every larger bound: one in which an exists condition holds, or a
// ~exists or forall condition fails.
func settled(q litmus.Quantifier, out *outcome.Outcome) bool {
	if q == litmus.Forall {
		return out.Negative > 0
	}
	return out.Positive > 0
}

// cutReason says why the loop a bound cut is no retry.
func cutReason(c events.CutSite) string {
	if c.Why == "" {
		return "its iterations differ"
	}
	return c.Why
}

// retried tells whether the unfoldings of the check keep a retry at bound
// n: the model has flags, and some path retries (with none kept, some
// path is cut off as a retry).
func (lc *loopCheck) retried(n int) (bool, error) {
	if lc.retries == 0 {
		return false, nil
	}
	opt := lc.retryOptions(n)
	opt.Retries = 0
	u, err := events.UnfoldWith(lc.ctx, lc.t.Program, opt, lc.initRegs, lc.initMem)
	if err != nil {
		return false, err
	}
	return len(u.Retries) > 0, nil
}

// boundEnough tells whether no consistent execution of the test (retries
// cut off) goes past the bound n that cut u's loops: the model keeps
// po | rf acyclic, removing the end of an execution cannot make it
// inconsistent, and no consistent partial execution reaches a cut
// (cutReachable has the argument). why says what is missing when not.
//
// The question is about the program with every retry cut off: flags do
// not change which executions are consistent. A model with flags keeps a
// retry (loopCheck.retries), which adds one iteration to a loop: its answer
// needs the bound n+1.
func (lc *loopCheck) boundEnough(u *events.Unfolding, n int) (enough bool, why string, err error) {
	if why := lc.poRfMayCycle(); why != "" {
		return false, why, nil
	}
	if err := prefixesRemovable(lc.model, u); err != nil {
		return false, err.Error(), nil
	}
	reached, err := lc.cutReachable(n)
	switch {
	case lc.ctx.Err() != nil:
		return false, "", err
	case err != nil:
		return false, err.Error(), nil
	case reached:
		return false, "a consistent execution goes past the bound", nil
	}
	return true, "", nil
}

// bounded says whether the answer of a test whose loops the bound cut
// holds for every bound: it does when, with retries cut off, the bound
// cuts no loop, or is enough (see outcome.Bound).
func (lc *loopCheck) bounded() (*outcome.Bound, error) {
	t := lc.t
	n := lc.uopt.Unroll
	b := &outcome.Bound{Unroll: n}
	u, err := lc.unfoldRetrying(n)
	if err != nil {
		return nil, err
	}
	b.Retries = retrySites(t, u)
	if len(u.Retries) > 0 {
		if err := lc.retriesRemovable(u); err != nil {
			r := u.Retries[0]
			b.Why = fmt.Sprintf("%s's loop at %s only retries, but %v", threadName(t, r.Thread), r.Pos, err)
			return b, nil
		}
	}
	if u.Cut {
		if proof, ok := lc.cutsByValues(u); ok {
			proof.record(b)
			b.Exact, b.Enough = true, true
			return b, nil
		}
		c := u.Cuts[0]
		b.Why = fmt.Sprintf("%s's loop at %s is no retry: %s", threadName(t, c.Thread), c.Pos, cutReason(c))
		retried, err := lc.retried(n)
		if err != nil {
			return nil, err
		}
		asked := n
		if retried {
			asked-- // a kept retry is an iteration of the bound n (see boundEnough)
		}
		if asked > maxBoundCheck {
			return b, nil
		}
		if asked < 1 {
			b.Why += "; nor can the bound be enough: the model's flags need a retry, one iteration the bound leaves no room for"
			return b, nil
		}
		enough, notEnough, err := lc.boundEnough(u, asked)
		if err != nil {
			return nil, err
		}
		if !enough {
			b.Why += "; nor is the bound shown to be enough: " + notEnough
			return b, nil
		}
		b.Why, b.Enough = "", true
	}
	b.Exact = true
	return b, nil
}

// mayRaiseFlags tells whether an execution of t may raise a flag of the
// model (undefined_unless included): false when the model has none, or
// none the kinds and tags of t's events can raise (eval.FlagsSilent:
// RC11's data races in a program whose accesses are all atomic).
func mayRaiseFlags(model eval.Model, t *litmus.Test) bool {
	return eval.HasFlags(model.Cat.Stmts) && !eval.FlagsSilent(model, eventClasses(t, model.Cat.CatDep))
}

// eventClassSet collects event classes, each kind and tags once.
type eventClassSet struct {
	classes []eval.EventClass
	index   map[string]int
}

// add returns the index of the class, adding it if new.
func (s *eventClassSet) add(kind byte, tags ...string) int { return s.addOwn(kind, 0, tags...) }

// addOwn is add of a class of accesses whose location the thread own-1
// owns (eval.EventClass.Own).
func (s *eventClassSet) addOwn(kind byte, own int, tags ...string) int {
	k := fmt.Sprintf("%c%d %s", kind, own, events.TagsKey(tags))
	if i, ok := s.index[k]; ok {
		return i
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	s.index[k] = len(s.classes)
	s.classes = append(s.classes, eval.EventClass{Kind: kind, Tags: tags, Own: own})
	return len(s.classes) - 1
}

// eventClasses are the kinds and tags t's events may have, as
// eval.FlagsSilent takes them: each access, fence and branch of the
// program, the initial writes, herd's register events when registers, and
// an event that may carry any tag when the program has marks or messages
// (whose channels add tags). An access to a location only its thread
// accesses (events.OwnAccesses: a C test's expected value in memory) is
// of a class of its own.
func eventClasses(t *litmus.Test, registers bool) []eval.EventClass {
	var out eventClassSet
	var owned map[*xcfa.Edge]int
	if _, initRegs, _, err := events.InitialState(t); err == nil {
		owned = events.OwnAccesses(t.Program, initRegs)
	}
	ownOf := func(e *xcfa.Edge) int {
		if p, ok := owned[e]; ok {
			return p + 1
		}
		return 0
	}
	out.add('I')
	out.add('B')
	out.add('B', "BCC")
	if registers {
		out.add('G')
		out.add('G', "Rreg")
		out.add('G', "Rreg", "DATA")
	}
	for _, p := range t.Program.Procs {
		loads := map[int][]string{}
		for _, e := range p.Edges {
			if l, ok := e.Op.(xcfa.Load); ok && l.RMW != 0 {
				loads[l.RMW] = l.Tags
			}
		}
		for _, e := range p.Edges {
			var tags []string
			switch op := e.Op.(type) {
			case xcfa.Load:
				out.addOwn('R', ownOf(e), op.Tags...)
				tags = op.Tags
			case xcfa.Store:
				out.addOwn('W', ownOf(e), op.Tags...)
				if op.OneEvent {
					out.addOwn('U', ownOf(e), append(slices.Clone(loads[op.RMW]), op.Tags...)...)
				}
				tags = op.Tags
			case xcfa.Fence:
				out.add('F', op.Tags...)
			case xcfa.Mark:
				out.add('O')
			}
			if slices.Contains(tags, "SEND") || slices.Contains(tags, "RECV") {
				out.add('O')
			}
		}
	}
	return out.classes
}

// retrySites names the loops whose retries an unfolding cut off, once
// each, in the order of the source.
func retrySites(t *litmus.Test, u *events.Unfolding) []string {
	sites := slices.Clone(u.Retries)
	slices.SortFunc(sites, func(a, b events.RetrySite) int {
		switch {
		case a.Thread != b.Thread:
			return a.Thread - b.Thread
		case a.Pos.Before(b.Pos):
			return -1
		case b.Pos.Before(a.Pos):
			return 1
		}
		return 0
	})
	sites = slices.Compact(sites)
	out := make([]string, len(sites))
	for i, s := range sites {
		out[i] = fmt.Sprintf("%s at %s", threadName(t, s.Thread), s.Pos)
	}
	return out
}

// threadName is the P-name of the thread at index i of the program.
func threadName(t *litmus.Test, i int) string {
	if i >= 0 && i < len(t.Program.Procs) {
		return t.Program.Procs[i].Name
	}
	return fmt.Sprintf("thread %d", i)
}

// removable caches eval.RetriesRemovableFor by model and tags: a batch
// asks it of each test with a loop, and the answer depends on the model
// and on the tags the test's events carry alone.
var removable sync.Map // removableKey → error (nil: removable)

type removableKey struct {
	model              *cat.Model
	variants, skips    string
	skipWellFormed     bool
	carried, inRetries string
	prefixes, silent   bool
	writesInPo         bool
	silentFirst        bool
	gapFree            string // the names eval.TestTags.GapFree accepts
	flagsClasses       string // FlagsKept's: eval.TestTags.RetryClasses
	depsMove           bool
	splitInstances     bool
}

// prefixesRemovable is eval.PrefixesRemovable for the test unfolded as u.
func prefixesRemovable(model eval.Model, u *events.Unfolding) error {
	return removableFor(model, u, true)
}

// retriesRemovable is eval.RetriesRemovableFor for the test unfolded as u:
// the tags its events carry, and those a retry's events may carry (the
// tags of the iterations the unfolding cut off).
// With silent retries (a failed test-and-set),
// eval.SilentRetriesRemovable, whose removed events may be their writes
// too; and the final state must not show their locations, whose last
// write may be one of them, unless the thread writes them again after
// every failed attempt and the model orders a thread's writes to a
// location in co (events.SilentWrite.Overwritten). Retries that write
// locations only their thread accesses (u.OwnWrites, never at a location
// the final state shows) are silent ones too.
func (lc *loopCheck) retriesRemovable(u *events.Unfolding) error {
	if len(u.Silent) > 0 {
		shown := shownNames(lc.t)
		for _, w := range u.Silent {
			switch {
			case !shown[w.Addr.Sym]:
			case !w.Overwritten:
				return fmt.Errorf("the final state shows %v, whose last write may be a failed attempt's: the thread may write it no more after one", w.Addr)
			case !eval.CoherentWrites(lc.model):
				return fmt.Errorf("the final state shows %v, whose last write may be a failed attempt's: the model does not order a thread's writes to a location in co", w.Addr)
			}
		}
	}
	return removableFor(lc.model, u, false)
}

// shownNames are the names of the locations the final state shows: the
// test's condition, filter and locations, an array's cells all by its
// name.
func shownNames(t *litmus.Test) map[string]bool {
	shown := map[string]bool{}
	add := func(l litmus.Loc) {
		if l.Kind == litmus.GlobalLoc || l.Kind == litmus.IndexLoc {
			shown[l.Name] = true
		}
	}
	for _, l := range events.ObservedLocations(t) {
		add(l)
	}
	if t.Filter != nil {
		litmus.EachLoc(t.Filter, add)
	}
	return shown
}

func removableFor(model eval.Model, u *events.Unfolding, prefixes bool) error {
	key, tags := removableTags(model, u, prefixes)
	if err, ok := removable.Load(key); ok {
		e, _ := err.(error)
		return e
	}
	analysis := eval.RetriesRemovableFor
	switch {
	case prefixes:
		analysis = eval.PrefixesRemovable
	case key.silent:
		analysis = eval.SilentRetriesRemovable
	}
	err := analysis(model, tags)
	removable.Store(key, err)
	return err
}

// removableTags are the eval.TestTags of the test unfolded as u, and
// their key in the analyses' cache.
func removableTags(model eval.Model, u *events.Unfolding, prefixes bool) (removableKey, eval.TestTags) {
	silent := !prefixes && (len(u.Silent) > 0 || len(u.OwnWrites) > 0)
	carried, inRetries := map[string]bool{}, map[string]bool{}
	for _, e := range u.Events {
		for _, tag := range e.Tags {
			carried[tag] = true
		}
	}
	if !prefixes { // PrefixesRemovable takes any tag as removable
		// The retries' events, a mark that observes (a failed trylock)
		// among them.
		for tag := range u.RetryTags {
			carried[tag], inRetries[tag] = true, true
		}
	}
	if silent {
		for _, w := range u.Silent {
			for _, tag := range w.Write.Tags {
				inRetries[tag] = true
			}
		}
		for _, w := range u.OwnWrites {
			for _, tag := range w.Tags {
				inRetries[tag] = true
			}
		}
	}
	var free map[string]bool
	if silent && !u.SilentFirst {
		free = gapFree(u, carried)
	}
	key := removableKey{model.Cat, strings.Join(model.Variants, ","), strings.Join(model.SkipChecks, ","), model.SkipWellFormed,
		strings.Join(slices.Sorted(maps.Keys(carried)), ","), strings.Join(slices.Sorted(maps.Keys(inRetries)), ","), prefixes, silent, prefixes && !u.ParallelWrites(), silent && u.SilentFirst,
		strings.Join(slices.Sorted(maps.Keys(free)), ","), "", !prefixes && u.DepsMove, !prefixes && u.SplitInstances}
	return key, eval.TestTags{
		Carried:        func(tag string) bool { return carried[tag] },
		Removable:      func(tag string) bool { return inRetries[tag] },
		WritesInPo:     key.writesInPo,
		SilentFirst:    key.silentFirst,
		GapFree:        func(name string) bool { return free[name] },
		DepsMove:       key.depsMove,
		SplitInstances: key.splitInstances,
	}
}

// gapFree names the predefined sets and relations that hold no access of
// u.SilentGap, or no pair ending at one (eval.TestTags.GapFree): the
// accesses before a lock's retries whose next write to it may be a failed
// attempt's. The relations' pairs are the engines' (satengine's predef).
func gapFree(u *events.Unfolding, tags map[string]bool) map[string]bool {
	free := map[string]bool{}
	for _, name := range []string{"R", "W", "rmw", "amo", "addr", "data", "ctrl", "pick-addr-dep", "pick-data-dep", "pick-ctrl-dep", "iico_data", "iico_ctrl", "rf-reg"} {
		free[name] = true
	}
	for tag := range tags {
		free[tag] = true
	}
	for _, g := range u.SilentGap {
		// deps tells whether some read of rs is in g's instruction
		// (inside: herd's iico) or in another (a dependency).
		deps := func(inside bool, rs ...[]*events.Event) bool {
			for _, r := range rs {
				for _, d := range r {
					if events.SameInstruction(d, g) == inside {
						return true
					}
				}
			}
			return false
		}
		member := map[string]bool{
			"R": g.IsRead(), "W": g.IsWrite(), "rmw": g.RMW != nil, "amo": g.RMW != nil,
			"addr": deps(false, g.AddrDeps), "data": deps(false, g.DataDeps), "ctrl": deps(false, g.CtrlDeps),
			"pick-addr-dep": deps(false, g.AddrDeps, g.AddrPicks), "pick-data-dep": deps(false, g.DataDeps, g.DataPicks),
			"pick-ctrl-dep": deps(false, g.CtrlDeps, g.CtrlPicks),
			"iico_data":     len(g.IicoData) > 0 || deps(true, g.AddrDeps, g.DataDeps, g.CtrlDeps),
			"iico_ctrl":     len(g.IicoCtrl) > 0 || deps(true, g.AddrDeps, g.DataDeps, g.CtrlDeps, g.AddrPicks, g.DataPicks, g.CtrlPicks),
		}
		for _, tag := range g.Tags {
			member[tag] = true
		}
		for name, in := range member {
			if in {
				delete(free, name)
			}
		}
	}
	return free
}

// finalRegs tells which registers the end of a thread's path shows: those
// of the test's condition, filter and locations.
func finalRegs(t *litmus.Test) func(proc int, reg string) bool {
	shown := map[litmus.Loc]bool{}
	add := func(l litmus.Loc) {
		if l.Kind == litmus.RegLoc {
			shown[litmus.Loc{Kind: litmus.RegLoc, Proc: l.Proc, Name: l.Name}] = true
		}
	}
	for _, l := range events.ObservedLocations(t) {
		add(l)
	}
	if t.Filter != nil {
		litmus.EachLoc(t.Filter, add)
	}
	return func(proc int, reg string) bool {
		return shown[litmus.Loc{Kind: litmus.RegLoc, Proc: proc, Name: reg}]
	}
}
