package mcm

import (
	"context"
	"fmt"
)

// maxDomain bounds the values one term may take; a test whose value
// analysis goes past it is refused (values that grow through a loop of
// reads and writes have no finite domain).
const maxDomain = 512

// analyseValues computes every term's domain: the values it can take in
// some candidate execution. A read may return what any write that may
// touch its location writes; operations are applied pointwise. It iterates
// to a fixpoint, which exists because litmus tests write finitely many
// values.
func (u *Unfolding) analyseValues() error { return u.analyseValuesContext(context.Background()) }

// analyseValuesContext is analyseValues that gives up, returning
// ctx.Err(), when ctx is done.
func (u *Unfolding) analyseValuesContext(ctx context.Context) error {
	var writes []*Event
	for _, e := range u.Events {
		if e.IsWrite() {
			writes = append(writes, e)
		}
	}
	for _, t := range u.Terms {
		t.Dom = nil
		t.index = nil
		if t.op == termConst {
			t.Dom = []Value{t.val}
		}
	}
	// A value that a read can really return has a derivation through at
	// most every read once; each round extends derivations by at least one
	// step, so after rounds beyond the number of reads only values of
	// circular (out-of-thin-air) derivations can still appear. herd7 never
	// produces those, so the analysis stops there.
	rounds := 0
	for _, t := range u.Terms {
		if t.op == termRead {
			rounds++
		}
	}
	rounds += 2
	for changed := true; changed && rounds > 0; rounds-- {
		changed = false
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, t := range u.Terms {
			var dom []Value
			switch t.op {
			case termConst:
				continue
			case termRead:
				dom = readDomain(t.read, writes)
			case termBinary:
				for i, a := range t.args[0].Dom {
					for j, b := range t.args[1].Dom {
						if t.args[0] == t.args[1] && i != j {
							continue // one term has one value
						}
						if v, err := applyBinary(t.bin, a, b); err == nil {
							dom = append(dom, v)
						}
					}
				}
			case termUnary:
				for _, a := range t.args[0].Dom {
					if v, err := applyUnary(t.un, a); err == nil {
						dom = append(dom, v)
					}
				}
			case termPick:
				dom = append(dom, t.args[1].Dom...)
			case termIte:
				c := t.args[0].Dom
				if anyTruth(c, true) {
					dom = append(dom, t.args[1].Dom...)
				}
				if anyTruth(c, false) {
					dom = append(dom, t.args[2].Dom...)
				}
			}
			dom = uniqueValues(dom)
			if len(dom) > maxDomain {
				return fmt.Errorf("the value of %v may take more than %d values", t, maxDomain)
			}
			if !equalValues(dom, t.Dom) {
				t.Dom = dom
				changed = true
			}
		}
	}
	for _, t := range u.Terms {
		t.index = make(map[Value]int, len(t.Dom))
		for i, v := range t.Dom {
			t.index[v] = i
		}
	}
	return nil
}

func readDomain(r *Event, writes []*Event) []Value {
	var dom []Value
	for _, w := range writes {
		if mayAlias(w.Addr, r.Addr) {
			dom = append(dom, w.Val.Dom...)
		}
	}
	return dom
}

// mayAlias tells whether two address terms may hold the same address.
func mayAlias(a, b *Term) bool {
	for _, v := range a.Dom {
		if containsValue(b.Dom, v) {
			return true
		}
	}
	return false
}

func anyTruth(dom []Value, want bool) bool {
	for _, v := range dom {
		if truth(v) == want {
			return true
		}
	}
	return false
}

func containsValue(sorted []Value, v Value) bool {
	lo, hi := 0, len(sorted)
	for lo < hi {
		m := (lo + hi) / 2
		if lessValue(sorted[m], v) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(sorted) && sorted[lo] == v
}

func uniqueValues(vs []Value) []Value {
	if len(vs) == 0 {
		return nil
	}
	sortValues(vs)
	out := vs[:1]
	for _, v := range vs[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

func equalValues(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
