package explicit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// Verify re-checks concretely an execution the SAT engine accepted
// (--check-models): thread th takes the path ending at leaves[th], reads
// read from the writes of rf (write, read pairs), and co (pairs of writes)
// is the coherence order. These must determine the execution's values, co
// must be exactly a total order of the writes to each address, the model
// evaluated on it must accept it, and it must give the same condition
// (holds), final state and flags (sorted) as the SAT engine.
//
// The SAT engine accepts an execution once per choice of the model's that
// passes (herd's counting): when the model makes choices, Verify keeps the
// executions, conditions, states and flags it found right, and passes them
// again without evaluating the model (iriw_sc under herd's c11_orig.cat: 180
// executions, 16 candidates, each choosing among the orders of 8 events).
func (c *Checker) Verify(leaves []*events.Segment, rf, co [][2]*events.Event, holds bool, st outcome.State, flags []string) error {
	x, err := executionOf(c.u, leaves, rf)
	if err == nil {
		err = sameCoherence(co, x)
	}
	if err != nil {
		return fmt.Errorf("%s: check-models: %v", c.test.File, err)
	}
	want := strings.Join(flags, ",")
	var key strings.Builder
	for _, l := range leaves {
		fmt.Fprintf(&key, "%p ", l)
	}
	fmt.Fprintf(&key, "%s %v %s {%s}", x, holds, outcome.StateKey(st), want)
	if c.verified[key.String()] {
		return nil
	}
	if err := c.verify(x, holds, st, want); err != nil {
		return err
	}
	if c.chooses {
		if c.verified == nil {
			c.verified = map[string]bool{}
		}
		c.verified[key.String()] = true
	}
	return nil
}

// verify is Verify on the execution x of the SAT engine's, which says
// that the condition holds (holds), with final state st and flags want
// (sorted, joined with commas).
func (c *Checker) verify(x *execution, holds bool, st outcome.State, want string) error {
	// The SAT engine made one of the model's choices: one that passes
	// with its flags is enough.
	j, err := c.judgeUntil(x, func(got string) bool { return got == want })
	if err != nil {
		return err
	}
	var diffs []string
	if !j.consistent {
		diffs = append(diffs, "the model evaluated on it rejects it")
	}
	if j.holds != holds {
		diffs = append(diffs, fmt.Sprintf("the condition is %v, the SAT engine says %v", j.holds, holds))
	}
	if a, b := outcome.StateKey(j.state), outcome.StateKey(st); a != b {
		diffs = append(diffs, fmt.Sprintf("the final state is %s, the SAT engine says %s", a, b))
	}
	if a, b := strings.Join(j.flags, ","), want; j.consistent && !j.flagSets[b] {
		diffs = append(diffs, fmt.Sprintf("the flags are {%s}, the SAT engine says {%s}", a, b))
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s: check-models: the SAT engine accepted %s, but %s", c.test.File, x, strings.Join(diffs, "; "))
	}
	return nil
}

// executionOf is the execution of the given paths and reads-from, with
// its values computed concretely.
func executionOf(u *events.Unfolding, leaves []*events.Segment, rf [][2]*events.Event) (*execution, error) {
	x := newExecution(u, leaves)
	for _, k := range rf {
		w, r := k[0], k[1]
		switch {
		case !x.executed[r.ID] || !x.executed[w.ID]:
			return nil, fmt.Errorf("rf relates %v to %v, which do not both execute", w, r)
		case x.rf[r.ID] != nil:
			return nil, fmt.Errorf("%v reads from both %v and %v", r, x.rf[r.ID], w)
		}
		x.rf[r.ID] = w
	}
	for _, r := range x.reads {
		if x.rf[r.ID] == nil && r.IsReceive() {
			x.nothing[r.ID] = true
			continue
		}
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

// sameCoherence orders the execution's co as the pairs co do, and checks
// that they are exactly that order.
func sameCoherence(co [][2]*events.Event, x *execution) error {
	set := map[[2]*events.Event]bool{}
	for _, k := range co {
		set[k] = true
	}
	related := func(a, b *events.Event) bool { return set[[2]*events.Event{a, b}] }
	pos := map[*events.Event]int{}
	for _, a := range x.locs {
		ws := x.co[a]
		preds := map[*events.Event]int{}
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
	for _, k := range co {
		a, b := k[0], k[1]
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
		if x.nothing[r.ID] {
			fmt.Fprintf(&b, " nothing→%v", r)
			continue
		}
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
