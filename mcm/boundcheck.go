package mcm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/internal/satengine"
	"github.com/purr-mcm/purr/source"
)

// Is the bound enough? Loops whose repeated iterations write (Dekker's
// back-off) are no retries, yet in a litmus test they usually run a
// bounded number of times in every consistent execution. cutReachable
// asks the SAT engine whether some consistent partial execution of the
// bounded unfolding (retries cut off) reaches a cut of the bound; when
// none does, no complete execution goes past the bound, and the bounded
// answer (states, verdict) holds for every bound. Dartagnan's bound
// check, made sound:
//
// Let E be a consistent complete execution of the program (its retries
// cut off) that goes past the bound in some thread; a thread's cut point
// is where the bounded unfolding cuts its path. Let A be the events at or
// after a cut point in their thread, and K the events of E not reachable
// from A by (path order ∪ rf)*. K is downward closed under path order
// (each thread of K is a prefix of its path: a partial execution of the
// unfolding with Prefixes) and under rf (every kept read keeps its
// write; the first event of a thread outside K is a read, reached by rf,
// or the thread's cut). If path order ∪ rf is acyclic in E, some cut thread t0 has no
// event before its cut reachable from A (otherwise following, from each
// cut thread, a cut that reaches into it would close a cycle through the
// cut points), so E restricted to K is a partial execution in which t0
// reaches its cut. It is consistent when the model's checks cannot start
// failing as events are removed. So, when no consistent partial
// execution reaches a cut, no complete one goes past the bound.
//
// The two conditions on the model are the caller's: (1) it is closed
// under such restrictions, which unlike retries remove writes too (the
// engine's FW on a partial execution is its co-last executed write, not
// E's, and where a cut falls inside an instruction a read-modify-write's
// read may run without its write: in RMW, in no rmw pair); and (2) every
// consistent execution has
// po ∪ rf acyclic (eval.ImpliesAcyclicPoRf shows it syntactically).
// Path order orders more than po, the parallel parts of an instruction
// too; a cycle of path order ∪ rf that is none of po ∪ rf runs through
// a read and a later write of one instruction that po leaves unordered
// (events.Unfolding.UnorderedReadWrite). cutReachable refuses an
// unfolding that has such a pair unless one acyclic check of the model
// orders every read before every later write of path order, those pairs
// too (orderedInInstructions: ARMv8's ob holds a SWP's or a CAS's rmw).

// cutReachable tells whether, with loops unrolled n times and retries cut
// off as --unroll none cuts them (loopCheck.retries), some partial execution of
// t that the model m's checks accept reaches a place where the bound cuts
// a loop. The test's condition and filter are ignored (the filter would
// only remove executions), and so are flags; the SAT engine decides,
// whatever opt.Engine says. false, when the model meets the two
// conditions above, means that no consistent complete execution of the
// program (retries cut off) goes past the bound n: the answer at bound n
// is that of every bound. An error refuses the question: a model that
// needs the explicit engine, an instruction whose read and later write
// po leaves unordered, a cut inside a read-modify-write, the formula's
// limits (opt.MaxVars, opt.MaxClauses), ctx.
func cutReachable(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options, n int) (reached bool, err error) {
	lc, err := newLoopCheck(ctx, m, t, opt)
	if err != nil {
		return false, err
	}
	return lc.cutReachable(n)
}

// cutReachable is cutReachable on the unfolding of the loop check's
// retryOptions at bound n, every retry cut off (see boundEnough).
func (lc *loopCheck) cutReachable(n int) (reached bool, err error) {
	t := lc.t
	if n < 0 {
		return false, fmt.Errorf("the unrolling bound must be a number of iterations, not %d", n)
	}
	defer func() {
		var limit *sat.LimitError
		if errors.As(err, &limit) && err == error(limit) {
			err = fmt.Errorf("%s: the question whether the bound %d is enough refused: %w", t.File, n, &LimitError{What: limit.What, Limit: limit.Limit})
		}
	}()
	uopt := lc.retryOptions(n)
	uopt.Retries, uopt.Prefixes = 0, true
	u, err := events.UnfoldWith(lc.ctx, t.Program, uopt, lc.initRegs, lc.initMem)
	if err != nil {
		return false, err
	}
	goal := u.CutLeaves()
	if len(goal) == 0 {
		return false, nil // the bound cuts no loop
	}
	if r, w, ok := u.UnorderedReadWrite(); ok && !lc.orderedInInstructions() {
		what := t.Program.Procs[w.Thread].Instr(w.Code).Text
		if what == "" {
			what = "instruction"
		}
		return false, source.Errorf(w.Pos, "purr cannot tell whether the bound %d is enough: %s's %s reads (at %s) and writes memory in parts that program order leaves unordered and no acyclic check of the model orders (purr's sc and tso do with --variant atomic-rmw), and the argument needs path order and rf acyclic",
			n, threadName(t, w.Thread), what, r.Pos)
	}
	if err := lc.analyse(u); err != nil {
		return false, err
	}
	model := lc.model
	if !lc.opt.wellFormedInFull {
		model.ByConstruction = satengine.WellFormedByConstruction
	}
	eopt := engine.Options{MaxVars: lc.opt.MaxVars, MaxClauses: lc.opt.MaxClauses}
	reached, err = satengine.Reaches(lc.ctx, model, t, u, lc.lay, eopt, goal)
	if err != nil && eval.NeedsConcreteExecutions(err) {
		return false, fmt.Errorf("%s: purr cannot tell whether the bound %d is enough: the model needs the explicit engine (%w), and only the SAT engine asks for partial executions", t.File, n, err)
	}
	return reached, err
}

// acyclicPoRf tells why the model may let an execution of t have a cycle
// of po ∪ rf, "" when it cannot: the model requires it acyclic
// (eval.ImpliesAcyclicPoRf), or it orders, by one of its acyclic checks
// that contains rfe, every read before every write program order puts
// after it in t (eval.ReadWriteOrders has the argument): ARMv8's ob, for
// a program whose reads are acquires or have branches on them before the
// writes that follow, and whose writes after plain reads are releases or
// dependent on them.
func acyclicPoRf(model eval.Model, t *litmus.Test) string {
	if eval.ImpliesAcyclicPoRf(model) {
		return ""
	}
	why, _ := orderedReadWrites(model, t, false)
	return why
}

// orderedInInstructions tells whether one acyclic check of the model
// that contains rfe orders every read of t before every write path order
// puts after it, the parts of one instruction too (a SWP's or a
// successful CAS's read and write, by rmw: ARMv8's ob holds it). Then
// path order ∪ rf is acyclic (an instruction never reads its own write),
// which a model's acyclic po | rf does not give (cutReachable).
func (lc *loopCheck) orderedInInstructions() bool {
	if lc.instrOrdered == nil {
		why, _ := orderedReadWrites(lc.model, lc.t, false)
		ordered := why == ""
		lc.instrOrdered = &ordered
	}
	return *lc.instrOrdered
}

// acyclicJustification tells why the model may let an execution of t
// justify a value by itself, "" when it cannot: when rf and the
// dependencies of t's writes on its reads (through registers, addresses,
// stores a later read may read, branches: events.ReadWrite's MayDepend)
// are acyclic in every consistent execution, every value a read reads is
// computed, along an acyclic chain, from the initial values (cutsByValues
// needs it). That holds when po | rf is acyclic, or when one of the
// model's acyclic checks that contains rfe orders each read before each
// write that may depend on it (a cycle of rf and such dependencies is one
// of rfe and such pairs, rfi following po): on every path, or, for a
// pair whose dependency herd records wherever there is one
// (!MayUnrecorded), by holding every kind of dependency. ARMv8's ob
// does, by ctrl; [W] and its pick dependencies (which include data and
// addr), for a program whose values reach its writes through registers.
// unordered, when a check orders all but some pair, says which: "its
// check external does not order P0's read at T.litmus:8:2 before its
// write at T.litmus:9:2, which may depend on it".
func acyclicJustification(model eval.Model, t *litmus.Test) (why, unordered string) {
	if eval.ImpliesAcyclicPoRf(model) {
		return "", ""
	}
	return orderedReadWrites(model, t, true)
}

// orderedReadWrites is the argument by one of the model's acyclic checks
// of acyclicPoRf, or of acyclicJustification when dependentOnly: only
// the pairs whose write may depend on the read need be ordered.
func orderedReadWrites(model eval.Model, t *litmus.Test, dependentOnly bool) (why, unordered string) {
	rws, err := events.ReadWrites(t.Program)
	if err != nil {
		return fmt.Sprintf("%s, and purr cannot tell whether it orders each read before the writes after it: %v", poRfMayCycle, err), ""
	}
	if dependentOnly {
		rws = slices.DeleteFunc(rws, func(rw events.ReadWrite) bool { return !rw.MayDepend })
		if len(rws) == 0 {
			return "", "" // no write depends on a read: rf alone makes no cycle
		}
	}
	var classes eventClassSet
	type classified struct {
		rw     events.ReadWrite
		r, w   int
		fences []int
	}
	pairs := make([]classified, len(rws))
	for i, rw := range rws {
		pairs[i] = classified{rw: rw, r: classes.add('R', rw.ReadTags...), w: classes.add('W', rw.WriteTags...)}
		for _, f := range rw.Fences {
			pairs[i].fences = append(pairs[i].fences, classes.add('F', strings.Fields(f)...))
		}
	}
	orders := eval.ReadWriteOrders(model, classes.classes)
	if len(orders) == 0 {
		return poRfMayCycle, ""
	}
	// The check that orders the most pairs names the first it leaves
	// out in a refusal.
	var left *classified
	best, bestOrdered := "", -1
	for _, o := range orders {
		var first *classified
		ordered := 0
		for i := range pairs {
			p := &pairs[i]
			k := [2]int{p.r, p.w}
			var holds bool
			if p.rw.Same {
				// Parts of one instruction: no po, fence or dependency
				// between them, only the atomic pair's rmw.
				holds = p.rw.RMW && o.Rmw[k]
			} else {
				holds = o.Po[k] || p.rw.Ctrl && o.Ctrl[k] || p.rw.Data && o.Data[k] || p.rw.Addr && o.Addr[k] ||
					p.rw.PickCtrl && o.PickCtrl[k] || p.rw.PickData && o.PickData[k] || p.rw.PickAddr && o.PickAddr[k] ||
					// Either dependency on each path, and O holds both.
					p.rw.CtrlOrData && o.Ctrl[k] && o.Data[k] || p.rw.CtrlOrAddr && o.Ctrl[k] && o.Addr[k] ||
					p.rw.PickCtrlOrData && o.PickCtrl[k] && o.PickData[k] || p.rw.PickCtrlOrAddr && o.PickCtrl[k] && o.PickAddr[k] ||
					p.rw.SameLoc && o.PoLoc[k] ||
					// Wherever the write depends on the read it has a
					// dependency on it, and O holds every kind.
					dependentOnly && !p.rw.MayUnrecorded && o.PickCtrl[k] && o.PickData[k] && o.PickAddr[k] ||
					slices.ContainsFunc(p.fences, func(f int) bool { return o.Fence[[3]int{p.r, f, p.w}] })
			}
			switch {
			case holds:
				ordered++
			case first == nil:
				first = p
			}
		}
		if first == nil {
			return "", ""
		}
		if ordered > bestOrdered {
			best, bestOrdered, left = o.Check, ordered, first
		}
	}
	rw := left.rw
	if dependentOnly {
		unordered = fmt.Sprintf("its check %s does not order %s's read at %s before its write at %s, which may depend on it",
			best, threadName(t, rw.Thread), rw.Read.Pos, rw.Write.Pos)
		return poRfMayCycle + ", and " + unordered, unordered
	}
	return fmt.Sprintf("%s, nor does its check %s order %s's read at %s before its write at %s", poRfMayCycle, best,
		threadName(t, rw.Thread), rw.Read.Pos, rw.Write.Pos), ""
}

// poRfMayCycle begins the reasons acyclicPoRf and acyclicJustification
// give.
const poRfMayCycle = "the model does not require po | rf to be acyclic"
