package mcm

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/sat"
	"github.com/purr-mcm/purr/stdlib"
	"github.com/purr-mcm/purr/xcfa"
)

// Options tune one check.
type Options struct {
	Unroll        int      // loop iterations (herd's -unroll; default 2)
	Variants      []string // enabled model variants
	Speedcheck    bool     // stop at the first execution that decides the condition
	MaxExecutions int      // stop enumerating after this many executions (0: all)
	// MaxVars and MaxClauses bound the SAT formula of a test, which is
	// refused with a *sat.LimitError past them, before it exhausts memory
	// (0: DefaultMaxVars and DefaultMaxClauses; negative: no bound).
	MaxVars, MaxClauses int
	// Engine chooses how to decide: "sat" (the default), "explicit"
	// (herd7's enumeration of candidate executions: the oracle of the
	// differential tests).
	Engine string
	// CheckModels re-checks every execution the SAT engine accepts by
	// evaluating the model on it concretely, and fails on a disagreement.
	CheckModels bool

	// skipWellFormed leaves purr's well-formedness rules out, so that tests
	// can check that the encoding of rf and co meets them by itself.
	skipWellFormed bool
}

// Binding is one location's final value in a state.
type Binding struct {
	Loc   litmus.Loc
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
		return format(b.Type, b.Value, hex)
	}
	parts := make([]string, len(b.Array))
	for i, v := range b.Array {
		parts[i] = format(b.Type, v, hex)
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
}

// Library files, parsed once.
var (
	libOnce           sync.Once
	libPrelude, libWF *cat.File
	libErr            error
)

func library() (*cat.File, *cat.File, error) {
	libOnce.Do(func() {
		read := func(name string) *cat.File {
			src, err := stdlib.FS.ReadFile(name)
			if err != nil {
				libErr = err
				return nil
			}
			f, err := cat.Parse(name, src)
			if err != nil {
				libErr = err
			}
			return f
		}
		libPrelude = read("prelude.cat")
		libWF = read("wellformed.cat")
	})
	return libPrelude, libWF, libErr
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
func Check(m *cat.Model, t *litmus.Test, opt Options) (*Outcome, error) {
	return CheckContext(context.Background(), m, t, opt)
}

// CheckContext is Check that gives up when ctx is done, returning an error
// that wraps ctx.Err(). The work stops between the steps of the unfolding,
// of the model's evaluation, of the formula's construction and of the
// enumeration; a single call to the SAT solver cannot be interrupted.
func CheckContext(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options) (out *Outcome, err error) {
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
			err = fmt.Errorf("%s: test refused: %w", t.File, err)
		} else if err == ctx.Err() {
			err = fmt.Errorf("%s: %w", t.File, err)
		}
	}()
	defer sat.Catch(&err) // the formula's bounds and ctx abort by panicking
	prelude, wf, err := library()
	if err != nil {
		return nil, fmt.Errorf("purr's library: %v", err)
	}
	lay, initRegs, initMem, err := initialState(t)
	if err != nil {
		return nil, err
	}
	u, err := unfold(ctx, t.Program, opt.Unroll, initRegs, initMem)
	if err != nil {
		return nil, err
	}
	if err := u.analyseValuesContext(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", t.File, err)
	}
	if err := checkAccessSizes(t, u, lay); err != nil {
		return nil, err
	}
	if explicit, err := useExplicit(opt); err != nil || explicit {
		if err != nil {
			return nil, err
		}
		return checkExplicit(ctx, m, t, opt, u, lay)
	}
	en := encodeLimited(u, sat.Limits{MaxVars: bound(opt.MaxVars, DefaultMaxVars),
		MaxClauses: bound(opt.MaxClauses, DefaultMaxClauses), Context: ctx})
	sets, rels := en.predefined()
	top, err := predefinedEnv(en.al, sets, rels)
	if err != nil {
		return nil, err
	}
	ev := &evaluator{ctx: ctx, al: en.al, variants: map[string]bool{}, included: map[string]bool{}, co: en.co}
	for _, v := range opt.Variants {
		ev.variants[v] = true
	}
	sc, err := ev.run(prelude.Stmts, top)
	if err != nil {
		return nil, err
	}
	if _, err := ev.run(m.Stmts, sc); err != nil {
		return nil, err
	}
	if !opt.skipWellFormed {
		if _, err := ev.run(wf.Stmts, sc); err != nil {
			return nil, err
		}
	}

	s := en.s
	var consistent []sat.Lit
	var lazy []Rel
	flags := map[string][]sat.Lit{}
	for _, c := range ev.checks {
		switch c.mode {
		case cat.Require, cat.Assert:
			if c.acyclic != nil {
				lazy = append(lazy, c.acyclic)
				continue
			}
			consistent = append(consistent, c.lit)
		case cat.Flag:
			flags[c.name] = append(flags[c.name], c.lit)
		case cat.UndefinedUnless:
			// herd7 raises its undefined-behaviour flag when the check fails.
			flags[herdout.UndefFlag] = append(flags[herdout.UndefFlag], -c.lit)
		}
	}
	s.AddClause(s.And(consistent...))
	lazy = append(lazy, en.derivation())
	procIDs := make([]int, len(t.Program.Procs))
	for i, p := range t.Program.Procs {
		procIDs[i] = p.ID
	}
	fs := newFinalState(en, procIDs, lay)
	if t.Filter != nil {
		f, err := fs.propLit(t.Filter)
		if err != nil {
			return nil, err
		}
		s.AddClause(f)
	}
	cond, err := fs.propLit(t.Cond)
	if err != nil {
		return nil, err
	}
	observed := observedLocations(t)
	flagNames := make([]string, 0, len(flags))
	for name := range flags {
		flagNames = append(flagNames, name)
	}
	sort.Strings(flagNames)
	flagLits := map[string]sat.Lit{}
	for _, name := range flagNames {
		flagLits[name] = s.Or(flags[name]...)
	}

	var recheck *concreteChecker
	var failure error
	if opt.CheckModels {
		recheck = newConcreteChecker(ctx, m, t, opt, u, lay)
	}
	out = &Outcome{Loop: u.Cut}
	seen := map[string]bool{}
	raised := map[string]bool{}
	out.Complete = enumerate(s, en.projection, lazy, opt.MaxExecutions, func() bool {
		holds := s.Value(cond)
		if holds {
			out.Positive++
		} else {
			out.Negative++
		}
		st := make(State, 0, len(observed))
		for _, loc := range observed {
			if n, isArray := lay.length[loc.Name]; isArray && loc.Kind == litmus.GlobalLoc {
				b := Binding{Loc: loc, Type: lay.typeOf(loc), Array: make([]Value, n)}
				for i := range b.Array {
					b.Array[i], _ = fs.valueOf(litmus.Loc{Kind: litmus.IndexLoc, Name: loc.Name, Index: i})
				}
				st = append(st, b)
				continue
			}
			v, _ := fs.valueOf(loc)
			st = append(st, Binding{Loc: loc, Type: lay.typeOf(loc), Value: v})
		}
		if key := stateKey(st); !seen[key] {
			seen[key] = true
			out.States = append(out.States, st)
		}
		for _, name := range flagNames {
			if s.Value(flagLits[name]) {
				raised[name] = true
			}
		}
		if recheck != nil {
			if failure = recheck.verify(en, holds, st, flagNames, flagLits); failure != nil {
				return false
			}
		}
		if opt.Speedcheck && decisive(t.Quant, holds) {
			return false
		}
		return true
	})
	if failure != nil {
		return nil, failure
	}
	for _, name := range flagNames {
		if raised[name] {
			out.Flags = append(out.Flags, name)
		}
	}
	return out, nil
}

// bound is a formula bound as Options gives it: 0 for the default, a
// negative number for none.
func bound(opt, def int) int {
	switch {
	case opt == 0:
		return def
	case opt < 0:
		return 0
	}
	return opt
}

// decisive tells whether one execution settles the condition: a witness
// for exists, a counter-example for ~exists and forall.
func decisive(q litmus.Quantifier, holds bool) bool {
	if q == litmus.Forall {
		return !holds
	}
	return holds
}

func stateKey(st State) string {
	var b strings.Builder
	for _, x := range st {
		fmt.Fprintf(&b, "%s=%s;", x.LocString(), x.ValueString(false))
	}
	return b.String()
}

// observedLocations are the locations a state shows: those of the
// locations clause, then those the condition names, each once.
func observedLocations(t *litmus.Test) []litmus.Loc {
	var out []litmus.Loc
	seen := map[litmus.Loc]bool{}
	add := func(l litmus.Loc) {
		if k := l.Key(); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, it := range t.Locations {
		if it.Fault == nil {
			add(it.Loc)
		}
	}
	var walk func(p litmus.Prop)
	walk = func(p litmus.Prop) {
		switch p := p.(type) {
		case litmus.Not:
			walk(p.X)
		case litmus.And:
			walk(p.X)
			walk(p.Y)
		case litmus.Or:
			walk(p.X)
			walk(p.Y)
		case litmus.Implies:
			walk(p.X)
			walk(p.Y)
		case litmus.Eq:
			add(p.Loc)
		case litmus.LocEq:
			add(p.X)
			add(p.Y)
		}
	}
	walk(t.Cond)
	return out
}

// forEachSym calls f with every location an operation names.
func forEachSym(op xcfa.Op, f func(string)) {
	var expr func(x xcfa.Expr)
	expr = func(x xcfa.Expr) {
		switch x := x.(type) {
		case xcfa.Sym:
			f(x.Name)
		case xcfa.Binary:
			expr(x.X)
			expr(x.Y)
		case xcfa.Unary:
			expr(x.X)
		case xcfa.Ite:
			expr(x.Cond)
			expr(x.X)
			expr(x.Y)
		case xcfa.Pick:
			expr(x.Cond)
			expr(x.X)
		}
	}
	switch op := op.(type) {
	case xcfa.Assign:
		expr(op.Value)
	case xcfa.Assume:
		expr(op.Cond)
	case xcfa.Load:
		expr(op.Addr)
	case xcfa.Store:
		expr(op.Addr)
		expr(op.Value)
	}
}
