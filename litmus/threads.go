package litmus

import (
	"fmt"

	"github.com/purr-mcm/purr/source"
)

// CheckThreadOrder refuses a thread named P<id> in place column (0 for the
// first column of an AArch64 program, the first function of a C one).
// herd7 numbers threads by their place and refuses a test whose names do
// not follow it ("Processes must be P0, P1, ...", in both its assembly and
// C parsers), so P1 | P0, a lone P1 and P0 | P2 are all refused: the
// P-number is the thread's identity in the initial state and the
// condition, and a gap or a permutation would make them name another
// thread than the reader meant.
func CheckThreadOrder(pos source.Pos, column, id int) error {
	if id == column {
		return nil
	}
	return source.Errorf(pos, "found P%d where P%d should be: herd7 requires the threads P0, P1, ... in this order (%q)",
		id, column, "Processes must be P0, P1, ...")
}

// checkThreadRefs refuses a register, label or fault of the initial
// state, the locations clause, the filter or the condition that names a
// thread the program does not have (herd7: "Bad process P5"), instead of
// ignoring it or failing later without a position.
func checkThreadRefs(t *Test) error {
	threads := map[int]bool{}
	for _, p := range t.Program.Procs {
		threads[p.ID] = true
	}
	bad := func(proc int, pos source.Pos) error {
		if threads[proc] {
			return nil
		}
		return source.Errorf(pos, "there is no thread P%d (herd7: %q)", proc, fmt.Sprintf("Bad process P%d", proc))
	}
	loc := func(l Loc) error {
		if l.Kind != RegLoc {
			return nil
		}
		return bad(l.Proc, l.Pos)
	}
	value := func(v *Value) error {
		if v == nil || v.Kind != LabelValue {
			return nil
		}
		return bad(v.Index, v.Pos)
	}
	for _, in := range t.Init {
		if err := loc(in.Loc); err != nil {
			return err
		}
		if err := value(in.Value); err != nil {
			return err
		}
	}
	for _, it := range t.Locations {
		if it.Fault != nil {
			if err := bad(it.Fault.Proc, it.Fault.Pos); err != nil {
				return err
			}
			continue
		}
		if err := loc(it.Loc); err != nil {
			return err
		}
	}
	var prop func(p Prop) error
	prop = func(p Prop) error {
		switch p := p.(type) {
		case Not:
			return prop(p.X)
		case And:
			return firstErr(prop(p.X), prop(p.Y))
		case Or:
			return firstErr(prop(p.X), prop(p.Y))
		case Implies:
			return firstErr(prop(p.X), prop(p.Y))
		case Eq:
			return firstErr(loc(p.Loc), value(&p.Value))
		case LocEq:
			return firstErr(loc(p.X), loc(p.Y))
		case *Fault:
			return bad(p.Proc, p.Pos)
		}
		return nil
	}
	if t.Filter != nil {
		if err := prop(t.Filter); err != nil {
			return err
		}
	}
	return prop(t.Cond)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
