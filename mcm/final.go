package mcm

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/sat"
)

// finalState reads the final values of a test's locations off the
// encoding: registers at the end of each thread's path, memory as written
// by the co-last write.
type finalState struct {
	en      *encoding
	threads map[int]int // process number → thread index of the unfolding
	writes  []*Event
}

func newFinalState(en *encoding, procIDs []int) *finalState {
	fs := &finalState{en: en, threads: map[int]int{}}
	for i, id := range procIDs {
		fs.threads[id] = i
	}
	for _, e := range en.u.Events {
		if e.IsWrite() {
			fs.writes = append(fs.writes, e)
		}
	}
	return fs
}

// regTerm is the term a thread's register holds at the end of a leaf.
func (fs *finalState) regTerm(leaf *Segment, reg string) *Term {
	if t, ok := leaf.Regs[reg]; ok {
		return t
	}
	return nil // never written: zero
}

// valueLit is the literal "loc's final value is v".
func (fs *finalState) valueLit(loc litmus.Loc, v Value) (sat.Lit, error) {
	s := fs.en.s
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := fs.threads[loc.Proc]
		if !ok {
			return sat.False, fmt.Errorf("%s: there is no thread P%d", loc.Pos, loc.Proc)
		}
		var lits []sat.Lit
		for _, leaf := range fs.en.u.Leaves[th] {
			t := fs.regTerm(leaf, loc.Name)
			var is sat.Lit
			if t == nil {
				is = sat.False
				if v == Int(0) {
					is = sat.True
				}
			} else {
				is = fs.en.valueIs(t, v)
			}
			lits = append(lits, s.And(fs.en.seg[leaf.ID], is))
		}
		return s.Or(lits...), nil
	case litmus.GlobalLoc:
		return fs.memLit(Addr(loc.Name), v), nil
	case litmus.IndexLoc:
		return fs.memLit(Value{Sym: loc.Name, Off: int64(loc.Index)}, v), nil
	}
	return sat.False, fmt.Errorf("%s: unsupported location %s in a condition", loc.Pos, loc)
}

// memLit is "the co-last write to address a writes v".
func (fs *finalState) memLit(a Value, v Value) sat.Lit {
	s := fs.en.s
	var lits []sat.Lit
	for _, w := range fs.writes {
		at := fs.en.valueIs(w.Addr, a)
		if at == sat.False {
			continue
		}
		last := []sat.Lit{fs.en.al.exec[w.ID], at, fs.en.valueIs(w.Val, v)}
		for _, k := range sortedPairs(fs.en.co) {
			if int(k.a) == w.ID {
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
		v, err := fromLitmus(p.Value)
		if err != nil {
			return 0, err
		}
		return fs.valueLit(p.Loc, v)
	}
	return 0, fmt.Errorf("unsupported condition %s", litmus.FormatProp(p))
}

// fromLitmus converts a value of a test's text.
func fromLitmus(v litmus.Value) (Value, error) {
	switch v.Kind {
	case litmus.IntValue:
		return Int(v.Int), nil
	case litmus.AddrValue:
		return Value{Sym: v.Sym, Off: int64(v.Index)}, nil
	}
	return Value{}, fmt.Errorf("%s: unsupported value %s", v.Pos, v)
}

// valueOf reads loc's final value in the solver's current model.
func (fs *finalState) valueOf(loc litmus.Loc) (Value, bool) {
	en := fs.en
	switch loc.Kind {
	case litmus.RegLoc:
		th, ok := fs.threads[loc.Proc]
		if !ok {
			return Value{}, false
		}
		for _, leaf := range en.u.Leaves[th] {
			if !en.s.Value(en.seg[leaf.ID]) {
				continue
			}
			t := fs.regTerm(leaf, loc.Name)
			if t == nil {
				return Int(0), true
			}
			return en.termValue(t)
		}
	case litmus.GlobalLoc, litmus.IndexLoc:
		a := Addr(loc.Name)
		if loc.Kind == litmus.IndexLoc {
			a.Off = int64(loc.Index)
		}
		for _, w := range fs.writes {
			if !en.s.Value(en.al.exec[w.ID]) || !en.s.Value(en.valueIs(w.Addr, a)) {
				continue
			}
			last := true
			for _, k := range sortedPairs(en.co) {
				if int(k.a) == w.ID && en.s.Value(en.co[k]) {
					last = false
					break
				}
			}
			if last {
				return en.termValue(w.Val)
			}
		}
	}
	return Value{}, false
}

// termValue reads a term's value in the solver's current model.
func (en *encoding) termValue(t *Term) (Value, bool) {
	for i, v := range t.Dom {
		if en.s.Value(en.val[t.ID][i]) {
			return v, true
		}
	}
	return Value{}, false
}
