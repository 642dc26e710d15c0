package events

import (
	"context"
	"fmt"
)

// maxDomain bounds the values one term may take; a test whose value
// analysis goes past it is refused (values that grow through a loop of
// reads and writes have no finite domain).
const maxDomain = 512

// AnalyseValues computes every term's domain: the values it can take in
// some candidate execution. A read may return what any write that may
// touch its location writes; operations are applied pointwise. It iterates
// to a fixpoint, which exists because litmus tests write finitely many
// values.
func (u *Unfolding) AnalyseValues() error { return u.AnalyseValuesContext(context.Background()) }

// AnalyseValuesContext is AnalyseValues that gives up, returning
// ctx.Err(), when ctx is done.
func (u *Unfolding) AnalyseValuesContext(ctx context.Context) error {
	var writes []*Event
	for _, e := range u.Events {
		if e.IsWrite() {
			writes = append(writes, e)
		}
	}
	for _, t := range u.Terms {
		t.Dom = nil
		t.Index = nil
		if t.Op == TermConst {
			t.Dom = []Value{t.Val}
		}
	}
	// A value that a read can really return has a derivation through at
	// most every read once; each round extends derivations by at least one
	// step, so after rounds beyond the number of reads only values of
	// circular (out-of-thin-air) derivations can still appear. herd7 never
	// produces those, so the analysis stops there.
	rounds := 0
	for _, t := range u.Terms {
		if t.Op == TermRead {
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
			switch t.Op {
			case TermConst:
				continue
			case TermRead:
				dom = readDomain(t.Read, writes)
			case TermBinary:
				for i, a := range t.Args[0].Dom {
					for j, b := range t.Args[1].Dom {
						if t.Args[0] == t.Args[1] && i != j {
							continue // one term has one value
						}
						if v, err := ApplyBinary(t.Bin, a, b); err == nil {
							dom = append(dom, v)
						}
					}
				}
			case TermUnary:
				for _, a := range t.Args[0].Dom {
					if v, err := ApplyUnary(t.Un, a); err == nil {
						dom = append(dom, v)
					}
				}
			case TermPick:
				dom = append(dom, t.Args[1].Dom...)
			case TermIte:
				c := t.Args[0].Dom
				if anyTruth(c, true) {
					dom = append(dom, t.Args[1].Dom...)
				}
				if anyTruth(c, false) {
					dom = append(dom, t.Args[2].Dom...)
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
		t.Index = make(map[Value]int, len(t.Dom))
		for i, v := range t.Dom {
			t.Index[v] = i
		}
	}
	return nil
}

func readDomain(r *Event, writes []*Event) []Value {
	var dom []Value
	if r.IsReceive() {
		dom = append(dom, Nothing)
	}
	for _, w := range writes {
		if MayAlias(w.Addr, r.Addr) {
			dom = append(dom, w.Val.Dom...)
		}
	}
	return dom
}

// MayAlias tells whether two address terms may hold the same address.
func MayAlias(a, b *Term) bool {
	for _, v := range a.Dom {
		if containsValue(b.Dom, v) {
			return true
		}
	}
	return false
}

func anyTruth(dom []Value, want bool) bool {
	for _, v := range dom {
		if Truth(v) == want {
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
