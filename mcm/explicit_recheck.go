package mcm

import (
	"fmt"
	"sort"
	"strings"

	"github.com/purr-mcm/purr/mcm/sat"
)

// verify re-checks the execution of the solver's current model
// concretely (Options.CheckModels): its paths and rf, read off the
// formula, must determine the values and co the formula chose, the model
// evaluated on it must accept it, and it must give the same condition,
// final state and flags.
func (c *concreteChecker) verify(en *encoding, holds bool, st State, flagNames []string, flagLits map[string]sat.Lit) error {
	x, err := executionOf(en)
	if err == nil {
		err = sameCoherence(en, x)
	}
	if err != nil {
		return fmt.Errorf("%s: check-models: %v", c.test.File, err)
	}
	j, err := c.judge(x)
	if err != nil {
		return err
	}
	var flags []string
	for _, name := range flagNames {
		if en.s.Value(flagLits[name]) {
			flags = append(flags, name)
		}
	}
	var diffs []string
	if !j.consistent {
		diffs = append(diffs, "the model evaluated on it rejects it")
	}
	if j.holds != holds {
		diffs = append(diffs, fmt.Sprintf("the condition is %v, the SAT engine says %v", j.holds, holds))
	}
	if a, b := stateKey(j.state), stateKey(st); a != b {
		diffs = append(diffs, fmt.Sprintf("the final state is %s, the SAT engine says %s", a, b))
	}
	if a, b := strings.Join(j.flags, ","), strings.Join(flags, ","); a != b {
		diffs = append(diffs, fmt.Sprintf("the flags are {%s}, the SAT engine says {%s}", a, b))
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s: check-models: the SAT engine accepted %s, but %s", c.test.File, x, strings.Join(diffs, "; "))
	}
	return nil
}

// executionOf reads the paths and rf of the solver's current model, and
// computes the execution's values concretely.
func executionOf(en *encoding) (*execution, error) {
	u, s := en.u, en.s
	leaves := make([]*Segment, len(u.Roots))
	for th := range u.Roots {
		for _, leaf := range u.Leaves[th] {
			if s.Value(en.seg[leaf.ID]) {
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
	x := newExecution(u, leaves)
	for _, k := range sortedPairs(en.rf) {
		if !s.Value(en.rf[k]) {
			continue
		}
		w, r := u.Events[k.a], u.Events[k.b]
		switch {
		case !x.executed[r.ID] || !x.executed[w.ID]:
			return nil, fmt.Errorf("rf relates %v to %v, which do not both execute", w, r)
		case x.rf[r.ID] != nil:
			return nil, fmt.Errorf("%v reads from both %v and %v", r, x.rf[r.ID], w)
		}
		x.rf[r.ID] = w
	}
	for _, r := range x.reads {
		if x.rf[r.ID] == nil {
			return nil, fmt.Errorf("%v reads from no write", r)
		}
		if x.sameInstr(x.rf[r.ID], r) {
			return nil, fmt.Errorf("%v reads from its own instruction's write %v", r, x.rf[r.ID])
		}
	}
	if !x.determined() {
		return nil, fmt.Errorf("%s has undetermined values, a read of another address, or a failed assumption", x)
	}
	return x, nil
}

// sameCoherence orders the execution's co as the formula does, and checks
// that the formula's co is exactly that order.
func sameCoherence(en *encoding, x *execution) error {
	s := en.s
	related := func(a, b *Event) bool {
		l, ok := en.co[pair{int32(a.ID), int32(b.ID)}]
		return ok && s.Value(l)
	}
	pos := map[*Event]int{}
	for _, a := range x.locs {
		ws := x.co[a]
		preds := map[*Event]int{}
		for _, w := range ws {
			for _, v := range ws {
				if v != w && related(v, w) {
					preds[w]++
				}
			}
		}
		sort.SliceStable(ws, func(i, j int) bool { return preds[ws[i]] < preds[ws[j]] })
		for i, w := range ws {
			pos[w] = i
			for _, v := range ws[i+1:] {
				if !related(w, v) {
					return fmt.Errorf("%s: co does not order %v before %v", x, w, v)
				}
			}
		}
	}
	for _, k := range sortedPairs(en.co) {
		if !s.Value(en.co[k]) {
			continue
		}
		a, b := en.u.Events[k.a], en.u.Events[k.b]
		if !x.executed[a.ID] || !x.executed[b.ID] || x.val[a.Addr.ID] != x.val[b.Addr.ID] || pos[a] >= pos[b] {
			return fmt.Errorf("%s: co relates %v to %v", x, a, b)
		}
	}
	return nil
}

// String describes an execution: its reads-from and coherence orders.
func (x *execution) String() string {
	var b strings.Builder
	b.WriteString("the execution {rf:")
	for _, r := range x.reads {
		fmt.Fprintf(&b, " %v→%v", x.rf[r.ID], r)
	}
	b.WriteString("; co:")
	for _, a := range x.locs {
		if x.co == nil {
			break
		}
		fmt.Fprintf(&b, " %v:", a)
		for i, w := range x.co[a] {
			if i > 0 {
				b.WriteString("<")
			}
			fmt.Fprint(&b, w)
		}
	}
	b.WriteString("}")
	return b.String()
}
