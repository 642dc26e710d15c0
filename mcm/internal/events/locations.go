package events

import (
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/xcfa"
)

// ObservedLocations are the locations a state shows: those of the
// locations clause, then those the condition names, each once.
func ObservedLocations(t *litmus.Test) []litmus.Loc {
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
	litmus.EachLoc(t.Cond, add)
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
	case xcfa.Mark:
		expr(op.Addr)
		if op.Value != nil {
			expr(op.Value)
		}
	}
}

// ObservedAddrs are the memory addresses of the observed locations
// (ObservedLocations), every cell of an array named whole: those whose
// final write herd7 tells executions apart by.
func ObservedAddrs(t *litmus.Test, lay Layout) []outcome.Value {
	var out []outcome.Value
	seen := map[outcome.Value]bool{}
	add := func(a outcome.Value) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, loc := range ObservedLocations(t) {
		switch loc.Kind {
		case litmus.GlobalLoc:
			if n, isArray := lay.Length[loc.Name]; isArray {
				for i := 0; i < n; i++ {
					add(lay.Cell(loc.Name, i))
				}
			} else {
				add(outcome.Addr(loc.Name))
			}
		case litmus.IndexLoc:
			add(lay.Cell(loc.Name, loc.Index))
		}
	}
	return out
}
