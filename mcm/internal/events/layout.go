package events

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
)

// Layout says how a test's memory is laid out: the element size of each
// array (a scalar is an array of one element), so that x[i] is the
// address x plus i elements.
type Layout struct {
	elemSize map[string]int // bytes
	Length   map[string]int // arrays only
	// types are the declared types of registers and locations (by
	// Loc.Key(); an array's under its name): values are compared and
	// printed as that type, as herd7 does; undeclared ones are int.
	types map[litmus.Loc]string
}

// TypeOf is the declared type of a location; an array element has its
// array's type.
func (l Layout) TypeOf(loc litmus.Loc) string {
	if loc.Kind == litmus.IndexLoc {
		loc = litmus.Loc{Kind: litmus.GlobalLoc, Name: loc.Name}
	}
	return l.types[loc.Key()]
}

func (l Layout) size(sym string) int {
	if n, ok := l.elemSize[sym]; ok {
		return n
	}
	return 4
}

// Cell is the address of element index of sym.
func (l Layout) Cell(sym string, index int) outcome.Value {
	return outcome.Value{Sym: sym, Off: int64(index * l.size(sym))}
}

// CellName names the cell at address a as herd7 does: x, or y[1] for an
// element of an array; other addresses print as values.
func (l Layout) CellName(a outcome.Value) string {
	if _, isArray := l.Length[a.Sym]; isArray && a.Off%int64(l.size(a.Sym)) == 0 {
		return fmt.Sprintf("%s[%d]", a.Sym, a.Off/int64(l.size(a.Sym)))
	}
	return a.String()
}

// ValueOf converts a scalar value of a test's text.
func (l Layout) ValueOf(v litmus.Value) (outcome.Value, error) {
	switch v.Kind {
	case litmus.IntValue:
		return outcome.Int(v.Int), nil
	case litmus.AddrValue:
		if v.Tag != "" {
			// herd7 keeps the tag in its symbolic address; purr has no
			// tags to keep, so two tagged pointers could compare otherwise.
			return outcome.Value{}, source.Errorf(v.Pos, "unsupported tagged address %s: memory tags are herd7's Memory Tagging Extension, which purr does not model", v)
		}
		return l.Cell(v.Sym, v.Index), nil
	case litmus.LabelValue:
		return codeAddr(v.Index, v.Sym), nil
	}
	return outcome.Value{}, source.Errorf(v.Pos, "unsupported value %s", v)
}

// InitialState collects the registers' and memory cells' initial values.
// Every location the test names exists, initially zero unless the test
// says otherwise; an array has one cell per element.
func InitialState(t *litmus.Test) (Layout, map[int]map[string]outcome.Value, map[outcome.Value]outcome.Value, error) {
	lay := Layout{elemSize: map[string]int{}, Length: map[string]int{}, types: map[litmus.Loc]string{}}
	regs := map[int]map[string]outcome.Value{}
	mem := map[outcome.Value]outcome.Value{}
	touch := func(a outcome.Value) {
		if _, ok := mem[a]; !ok {
			mem[a] = outcome.Int(0)
		}
	}
	for _, in := range t.Init {
		if in.Loc.Kind == litmus.GlobalLoc && in.Type != "" && !in.Pointer {
			lay.elemSize[in.Loc.Name] = outcome.TypeSize(in.Type)
		}
		if in.ArrayLen > 0 {
			lay.Length[in.Loc.Name] = in.ArrayLen
		}
		if in.Type != "" && !in.Pointer {
			lay.types[in.Loc.Key()] = in.Type
		}
	}
	for _, p := range t.Program.Procs {
		regs[p.ID] = map[string]outcome.Value{}
		for _, name := range p.Params {
			regs[p.ID][name] = outcome.Addr(name)
			touch(outcome.Addr(name))
		}
	}
	for _, in := range t.Init {
		if in.ArrayLen > 0 {
			if in.Loc.Kind != litmus.GlobalLoc {
				return lay, nil, nil, source.Errorf(in.Pos, "unsupported array %s", in.Loc)
			}
			var elems []litmus.Value
			if in.Value != nil {
				if in.Value.Kind != litmus.ArrayValue || len(in.Value.Elems) > in.ArrayLen {
					return lay, nil, nil, source.Errorf(in.Pos, "%s does not fit %s[%d]", in.Value, in.Loc.Name, in.ArrayLen)
				}
				elems = in.Value.Elems
			}
			for i := 0; i < in.ArrayLen; i++ {
				v := outcome.Int(0)
				if i < len(elems) {
					var err error
					if v, err = lay.ValueOf(elems[i]); err != nil {
						return lay, nil, nil, err
					}
				}
				mem[lay.Cell(in.Loc.Name, i)] = outcome.Cast(in.Type, v)
			}
			continue
		}
		v := outcome.Int(0)
		if in.Value != nil {
			var err error
			if v, err = lay.ValueOf(*in.Value); err != nil {
				return lay, nil, nil, err
			}
			if v.IsAddr() && !isCode(v) {
				touch(outcome.Addr(v.Sym))
			}
			if in.Type != "" && !in.Pointer {
				v = outcome.Cast(in.Type, v)
			}
		}
		switch in.Loc.Kind {
		case litmus.RegLoc:
			if regs[in.Loc.Proc] == nil {
				regs[in.Loc.Proc] = map[string]outcome.Value{}
			}
			regs[in.Loc.Proc][in.Loc.Name] = v
		case litmus.GlobalLoc:
			mem[outcome.Addr(in.Loc.Name)] = v
		case litmus.IndexLoc:
			mem[lay.Cell(in.Loc.Name, in.Loc.Index)] = v
		default:
			return lay, nil, nil, source.Errorf(in.Pos, "unsupported initial location %s", in.Loc)
		}
	}
	for _, p := range t.Program.Procs {
		for _, e := range p.Edges {
			forEachSym(e.Op, func(name string) { touch(outcome.Addr(name)) })
		}
	}
	for _, loc := range ObservedLocations(t) {
		switch loc.Kind {
		case litmus.GlobalLoc:
			if _, isArray := lay.Length[loc.Name]; !isArray {
				touch(outcome.Addr(loc.Name))
			}
		case litmus.IndexLoc:
			touch(lay.Cell(loc.Name, loc.Index))
		}
	}
	return lay, regs, mem, nil
}
