package events

import (
	"fmt"
	"slices"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// NumericAddressWrites lists the writes whose address may be a number
// that comes from a read: a pointer read from a location that may hold
// 0. (An address that may be a number without any read's value is
// refused by CheckAccessSizes.) herd7 stops on a test in which such a
// write takes a number for its address in a candidate execution, before
// any model is consulted (the Linux kernel's C-JO-OOTA-7: "Non-symbolic
// memory access found on '[0]'"); each engine looks for that candidate
// among the writes listed here.
func (u *Unfolding) NumericAddressWrites() []*Event {
	var ws []*Event
	for _, e := range u.Events {
		if e.Kind != KindWrite || e.Seg.Dead || e.Seg.Cut {
			continue
		}
		if slices.ContainsFunc(e.Addr.Dom, func(v outcome.Value) bool { return !v.IsAddr() }) {
			ws = append(ws, e)
		}
	}
	return ws
}

// NonSymbolicWrite is the refusal of a test in which a candidate
// execution has the write w take the number addr for its address.
func NonSymbolicWrite(t *litmus.Test, w *Event, addr outcome.Value) error {
	what := t.Program.Procs[w.Thread].Instr(w.Code).Text
	if what == "" {
		what = "a write"
	}
	return nonSymbolic(sizedAccess{w.Pos, what}, addr)
}

// OpSite is an operation an instruction computes on a path.
type OpSite struct {
	Term *Term // a TermBinary or TermUnary
	Pos  source.Pos
	Code int // the instruction (xcfa.Edge.Instr)
	Seg  *Segment
}

// IllegalOps lists the operations that some values of their operands
// (after the value analysis) make an operation on an address that has no
// value (EOR of two addresses, the low 32 bits of one on X86_64): herd7
// stops on a test in which a candidate execution computes one ("Illegal
// operation ... on x"), before any model is consulted; each engine looks
// for that candidate among the sites listed here.
func (u *Unfolding) IllegalOps() []OpSite {
	var sites []OpSite
	for _, s := range u.Segments {
		if s.Dead || s.Cut {
			continue
		}
		for _, op := range s.Ops {
			if len(IllegalOperands(op.Term)) > 0 {
				op.Seg = s
				sites = append(sites, op)
			}
		}
	}
	return sites
}

// IllegalOperands lists the operands' values (one per argument, by
// position in each argument's domain) for which t has no value because
// an address is among them.
func IllegalOperands(t *Term) [][]int {
	var out [][]int
	switch t.Op {
	case TermUnary:
		for i, a := range t.Args[0].Dom {
			if _, err := ApplyUnary(t.Un, a); OnAddress(err) {
				out = append(out, []int{i})
			}
		}
	case TermBinary:
		x, y := t.Args[0], t.Args[1]
		for i, a := range x.Dom {
			for j, b := range y.Dom {
				if x == y && i != j {
					continue // one term has one value
				}
				if _, err := ApplyBinary(t.Bin, a, b); OnAddress(err) {
					out = append(out, []int{i, j})
				}
			}
		}
	}
	return out
}

// OnAddress tells whether err is ApplyUnary's or ApplyBinary's for an
// operation that has no value on the address among its operands.
func OnAddress(err error) bool {
	u, ok := err.(errUndefinedOp)
	return ok && u.onAddress
}

// IllegalOp is the refusal of a test in which a candidate execution has
// the instruction at site compute its operation on the values args.
func IllegalOp(t *litmus.Test, site OpSite, args []outcome.Value) error {
	var err error
	if len(args) == 1 {
		_, err = ApplyUnary(site.Term.Un, args[0])
	} else {
		_, err = ApplyBinary(site.Term.Bin, args[0], args[1])
	}
	return source.Errorf(site.Pos, "%s", illegal(t.Program.Procs[site.Seg.Thread].Instr(site.Code).Text, err))
}

// illegal says that the instruction what computes an operation with no
// value on an address (err says which), with herd7's message for it.
func illegal(what string, err error) string {
	if what == "" {
		what = "an instruction"
	}
	e, _ := err.(errUndefinedOp)
	return fmt.Sprintf("%s: %v: purr gives it no value (herd7: %q)", what, err, e.herd)
}

// herdUnary and herdBinary are herd7's names of the operators (its
// Op.pp_op1, Op.pp_op), for its message on an operation it cannot do.
var herdUnary = map[xcfa.UnOp]string{xcfa.Neg: "-", xcfa.Not: "!", xcfa.BNot: "~",
	xcfa.Zext8: "mask08", xcfa.Zext16: "mask16", xcfa.Zext32: "mask32",
	xcfa.Sext8: "sxt08", xcfa.Sext16: "sxt16", xcfa.Sext32: "sxt32",
	xcfa.Low8: "unset 56 bits to the left from 8th bit", xcfa.Low16: "unset 48 bits to the left from 16th bit",
	xcfa.Low32: "unset 32 bits to the left from 32th bit"}

var herdBinary = map[xcfa.BinOp]string{xcfa.Shl: "<<<", xcfa.Shr: ">>>", xcfa.Ashr: "ASR"}

func herdBinaryName(op xcfa.BinOp) string {
	if name, ok := herdBinary[op]; ok {
		return name
	}
	return op.String()
}

// HazardFree tells whether no candidate execution of u, whatever its
// reads read, meets a hazard herd7 stops on: no location ever holds an
// address (no write, the initial ones too, writes a value an address
// may flow into), so every read reads a number; then every operation
// that may meet an address is one defined on any number it meets (an
// address plus or minus a number, a comparison for equality, a logical
// connective), and every access's address is an address plus numbers
// (CheckAccessSizes refuses an access at a number too).
// The value analysis may then leave out values that only inconsistent
// executions take (ValueOptions.Acyclic): they cannot decide a hazard.
func (u *Unfolding) HazardFree() bool {
	kinds := make([]valueKinds, len(u.Terms))
	for _, e := range u.Events {
		if e.IsWrite() && kindsOf(e.Val, kinds) != kindNumber || e.HasLoc() && kindsOf(e.Addr, kinds) != kindAddress {
			return false
		}
	}
	for _, t := range u.Terms {
		if !definedOnAll(t, kinds) {
			return false
		}
	}
	return true
}

// valueKinds says what a term may hold when every read reads a number: a
// number, an address, or both (0: not yet computed).
type valueKinds uint8

const (
	kindNumber valueKinds = 1 << iota
	kindAddress
)

// kindsOf computes t's kinds into memo, by its ID, reads reading numbers.
func kindsOf(t *Term, memo []valueKinds) valueKinds {
	if k := memo[t.ID]; k != 0 {
		return k
	}
	var k valueKinds
	switch t.Op {
	case TermConst:
		k = kindNumber
		if t.Val.IsAddr() {
			k = kindAddress
		}
	case TermRead:
		k = kindNumber
	case TermBinary:
		x, y := kindsOf(t.Args[0], memo), kindsOf(t.Args[1], memo)
		switch {
		case x == kindNumber && y == kindNumber || t.Cancels() || isComparison(t.Bin):
			k = kindNumber
		case t.Bin == xcfa.Add && (x == kindAddress && y == kindNumber || x == kindNumber && y == kindAddress),
			t.Bin == xcfa.Sub && x == kindAddress && y == kindNumber:
			k = kindAddress
		default:
			k = kindNumber | kindAddress
		}
	case TermUnary:
		k = kindsOf(t.Args[0], memo)
		if k != kindNumber {
			k = kindNumber | kindAddress
		}
	case TermPick:
		k = kindsOf(t.Args[1], memo)
	case TermIte:
		k = kindsOf(t.Args[1], memo) | kindsOf(t.Args[2], memo)
	}
	memo[t.ID] = k
	return k
}

// definedOnAll tells whether t, an operation or not, is defined on every
// pair of operands of the kinds they may hold.
func definedOnAll(t *Term, memo []valueKinds) bool {
	switch t.Op {
	case TermBinary:
		x, y := kindsOf(t.Args[0], memo), kindsOf(t.Args[1], memo)
		switch {
		case x == kindNumber && y == kindNumber, t.Cancels():
			return true
		case t.Bin == xcfa.Eq, t.Bin == xcfa.Ne, t.Bin == xcfa.LAnd, t.Bin == xcfa.LOr:
			return true
		case t.Bin == xcfa.Add:
			return x == kindNumber || y == kindNumber
		case t.Bin == xcfa.Sub:
			return y == kindNumber
		}
		return false
	case TermUnary:
		return kindsOf(t.Args[0], memo) == kindNumber
	}
	return true
}

// isComparison tells whether op gives a truth value.
func isComparison(op xcfa.BinOp) bool { return op >= xcfa.Eq && op <= xcfa.LOr }
