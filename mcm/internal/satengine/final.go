package satengine

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
)

// finalState reads the final values of a test's locations off the
// encoding: registers at the end of each thread's path, memory as written
// by the co-last write.
type finalState struct {
	en      *encoding
	lay     events.Layout
	threads map[int]int // process number → thread index of the unfolding
	writes  []*events.Event
	coOut   map[int][]sat.Lit // write → its co literals to later writes, read per execution
}

func newFinalState(en *encoding, procIDs []int, lay events.Layout) *finalState {
	fs := &finalState{en: en, lay: lay, threads: map[int]int{}}
	for i, id := range procIDs {
		fs.threads[id] = i
	}
	fs.writes = en.u.Writes()
	fs.coOut = map[int][]sat.Lit{}
	for _, k := range eval.SortedPairs(en.co) {
		fs.coOut[int(k.A)] = append(fs.coOut[int(k.A)], en.co[k])
	}
	return fs
}

// regTerm is the term a thread's register holds at the end of a leaf.
func (fs *finalState) regTerm(leaf *events.Segment, reg string) *events.Term {
	if t, ok := leaf.Regs[reg]; ok {
		return t
	}
	return nil // never written: zero
}

// valueLit is the literal "loc's final value is v", compared as loc's
// type (herd7 compares 0:X0=-1 and 0xffffffff equal in an int register).
func (fs *finalState) valueLit(loc litmus.Loc, v outcome.Value) (sat.Lit, error) {
	s := fs.en.s
	typ := fs.lay.TypeOf(loc)
	v = outcome.Cast(typ, v)
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := fs.threads[loc.Proc]
		if !ok {
			return sat.False, source.Errorf(loc.Pos, "there is no thread P%d", loc.Proc)
		}
		var lits []sat.Lit
		for _, leaf := range fs.en.u.Leaves[th] {
			t := fs.regTerm(leaf, loc.Name)
			var is sat.Lit
			if t == nil {
				is = sat.False
				if v == outcome.Int(0) {
					is = sat.True
				}
			} else {
				is = fs.en.valueIsAs(t, typ, v)
			}
			lits = append(lits, s.And(fs.en.seg[leaf.ID], is))
		}
		return s.Or(lits...), nil
	case litmus.GlobalLoc:
		return fs.memLit(outcome.Addr(loc.Name), typ, v), nil
	case litmus.IndexLoc:
		return fs.memLit(fs.lay.Cell(loc.Name, loc.Index), typ, v), nil
	}
	return sat.False, source.Errorf(loc.Pos, "unsupported location %s in a condition", loc)
}

// memLit is "the co-last write to address a writes v" (as type typ).
func (fs *finalState) memLit(a outcome.Value, typ string, v outcome.Value) sat.Lit {
	s := fs.en.s
	var lits []sat.Lit
	for _, w := range fs.writes {
		at := fs.en.valueIs(w.Addr, a)
		if at == sat.False {
			continue
		}
		last := []sat.Lit{fs.en.al.Exec[w.ID], at, fs.en.valueIsAs(w.Val, typ, v)}
		for _, k := range eval.SortedPairs(fs.en.co) {
			if int(k.A) == w.ID && fs.en.u.Events[k.B].IsWrite() { // marks co orders carry no value
				last = append(last, -fs.en.co[k])
			}
		}
		lits = append(lits, s.And(last...))
	}
	return s.Or(lits...)
}

// propLit encodes a condition.
func (fs *finalState) propLit(p litmus.Prop) (sat.Lit, error) {
	s := fs.en.s
	switch p := p.(type) {
	case litmus.Bool:
		if p.Value {
			return sat.True, nil
		}
		return sat.False, nil
	case litmus.Not:
		x, err := fs.propLit(p.X)
		return -x, err
	case litmus.And, litmus.Or, litmus.Implies:
		var a, b litmus.Prop
		switch p := p.(type) {
		case litmus.And:
			a, b = p.X, p.Y
		case litmus.Or:
			a, b = p.X, p.Y
		case litmus.Implies:
			a, b = p.X, p.Y
		}
		x, err := fs.propLit(a)
		if err != nil {
			return 0, err
		}
		y, err := fs.propLit(b)
		if err != nil {
			return 0, err
		}
		switch p.(type) {
		case litmus.And:
			return s.And(x, y), nil
		case litmus.Or:
			return s.Or(x, y), nil
		}
		return s.Implies(x, y), nil
	case litmus.Eq:
		if p.Value.Kind == litmus.ArrayValue && p.Loc.Kind == litmus.GlobalLoc {
			// x={1,2}: every element has its value.
			var lits []sat.Lit
			for i, e := range p.Value.Elems {
				v, err := fs.lay.ValueOf(e)
				if err != nil {
					return 0, err
				}
				lits = append(lits, fs.memLit(fs.lay.Cell(p.Loc.Name, i), fs.lay.TypeOf(p.Loc), outcome.Cast(fs.lay.TypeOf(p.Loc), v)))
			}
			return s.And(lits...), nil
		}
		v, err := fs.lay.ValueOf(p.Value)
		if err != nil {
			return 0, err
		}
		return fs.valueLit(p.Loc, v)
	case litmus.LocEq:
		return fs.locEqLit(p)
	}
	return 0, fmt.Errorf("unsupported condition %s", litmus.FormatProp(p))
}

// locEqLit is "X and Y end with the same value", each read as its own
// type (herd compares the two final values: 0:r1=0:r4).
func (fs *finalState) locEqLit(p litmus.LocEq) (sat.Lit, error) {
	s := fs.en.s
	dom, err := fs.finalDomain(p.X)
	if err != nil {
		return sat.False, err
	}
	typX, typY := fs.lay.TypeOf(p.X), fs.lay.TypeOf(p.Y)
	seen := map[outcome.Value]bool{}
	var lits []sat.Lit
	for _, d := range dom {
		v := outcome.Cast(typX, d)
		if seen[v] || outcome.Cast(typY, v) != v { // Y, as its type, never holds v
			continue
		}
		seen[v] = true
		x, err := fs.valueLit(p.X, v)
		if err != nil {
			return sat.False, err
		}
		y, err := fs.valueLit(p.Y, v)
		if err != nil {
			return sat.False, err
		}
		lits = append(lits, s.And(x, y))
	}
	return s.Or(lits...), nil
}

// finalDomain lists the values loc may hold at the end (a superset).
func (fs *finalState) finalDomain(loc litmus.Loc) ([]outcome.Value, error) {
	var out []outcome.Value
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := fs.threads[loc.Proc]
		if !ok {
			return nil, source.Errorf(loc.Pos, "there is no thread P%d", loc.Proc)
		}
		for _, leaf := range fs.en.u.Leaves[th] {
			if t := fs.regTerm(leaf, loc.Name); t != nil {
				out = append(out, t.Dom...)
			} else {
				out = append(out, outcome.Int(0))
			}
		}
	case litmus.GlobalLoc, litmus.IndexLoc:
		a := outcome.Addr(loc.Name)
		if loc.Kind == litmus.IndexLoc {
			a = fs.lay.Cell(loc.Name, loc.Index)
		}
		for _, w := range fs.writes {
			if fs.en.valueIs(w.Addr, a) != sat.False {
				out = append(out, w.Val.Dom...)
			}
		}
	default:
		return nil, source.Errorf(loc.Pos, "unsupported location %s in a condition", loc)
	}
	return out, nil
}

// valueOf reads loc's final value in the solver's current model.
func (fs *finalState) valueOf(loc litmus.Loc) (outcome.Value, bool) {
	en := fs.en
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := fs.threads[loc.Proc]
		if !ok {
			return outcome.Value{}, false
		}
		for _, leaf := range en.u.Leaves[th] {
			if !en.s.Value(en.seg[leaf.ID]) {
				continue
			}
			t := fs.regTerm(leaf, loc.Name)
			if t == nil {
				return outcome.Int(0), true
			}
			return en.termValue(t)
		}
	case litmus.GlobalLoc, litmus.IndexLoc:
		a := outcome.Addr(loc.Name)
		if loc.Kind == litmus.IndexLoc {
			a = fs.lay.Cell(loc.Name, loc.Index)
		}
		for _, w := range fs.writes {
			if !en.s.Value(en.al.Exec[w.ID]) || !en.s.Value(en.valueIs(w.Addr, a)) {
				continue
			}
			last := true
			for _, later := range fs.coOut[w.ID] {
				if en.s.Value(later) {
					last = false
					break
				}
			}
			if last {
				return en.termValue(w.Val)
			}
		}
	}
	return outcome.Value{}, false
}

// termValue reads a term's value in the solver's current model.
func (en *encoding) termValue(t *events.Term) (outcome.Value, bool) {
	for i, v := range t.Dom {
		if en.s.Value(en.val[t.ID][i]) {
			return v, true
		}
	}
	return outcome.Value{}, false
}

// valueIsAs is "term t's value, as type typ, is v" (v already of typ).
func (en *encoding) valueIsAs(t *events.Term, typ string, v outcome.Value) sat.Lit {
	var lits []sat.Lit
	for i, d := range t.Dom {
		if outcome.Cast(typ, d) == v {
			lits = append(lits, en.val[t.ID][i])
		}
	}
	return en.s.Or(lits...)
}
