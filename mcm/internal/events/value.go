package events

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/xcfa"
)

// codeAddr is the address of a code position: label name of thread proc.
// It prints as herd7 prints it (0:L0); the colon keeps it apart from every
// data location, so it is never a memory cell.
func codeAddr(proc int, name string) outcome.Value {
	return outcome.Value{Sym: fmt.Sprintf("%d:%s", proc, name)}
}

// isCode tells whether v is the address of a code position.
func isCode(v outcome.Value) bool { return strings.Contains(v.Sym, ":") }

func lessValue(a, b outcome.Value) bool {
	if a.Sym != b.Sym {
		return a.Sym < b.Sym
	}
	return a.Off < b.Off
}

// CompareValues orders values as lessValue does: for binary searches,
// and for listing a domain in its order.
func CompareValues(a, b outcome.Value) int {
	if c := strings.Compare(a.Sym, b.Sym); c != 0 {
		return c
	}
	return cmp.Compare(a.Off, b.Off)
}

func sortValues(vs []outcome.Value) {
	sort.Slice(vs, func(i, j int) bool { return lessValue(vs[i], vs[j]) })
}

// Truth is the Boolean reading of a value, as branches take it: every
// address and every non-zero integer is true.
func Truth(v outcome.Value) bool { return v.Sym != "" || v.Off != 0 }

func boolValue(b bool) outcome.Value {
	if b {
		return outcome.Int(1)
	}
	return outcome.Int(0)
}

// errUndefinedOp marks arithmetic that has no value (division by zero,
// arithmetic on addresses other than offsets, a narrow view of an
// address); the path that would do it is infeasible for that combination
// of operands, and a test in which a candidate execution computes an
// operation on an address is refused (IllegalOps), as herd7 stops on it.
type errUndefinedOp struct {
	msg       string
	onAddress bool   // an operation on an address, which herd7 stops on
	herd      string // herd7's message then
}

func (e errUndefinedOp) Error() string { return e.msg }

// ApplyBinary computes x op y. Addresses support adding and subtracting
// integers, subtracting addresses of the same location, and comparisons.
func ApplyBinary(op xcfa.BinOp, x, y outcome.Value) (outcome.Value, error) {
	if x.IsAddr() || y.IsAddr() {
		return applyAddrBinary(op, x, y)
	}
	a, b := x.Off, y.Off
	switch op {
	case xcfa.Add:
		return outcome.Int(a + b), nil
	case xcfa.Sub:
		return outcome.Int(a - b), nil
	case xcfa.Mul:
		return outcome.Int(a * b), nil
	case xcfa.Div:
		if b == 0 {
			return outcome.Value{}, errUndefinedOp{msg: "division by zero"}
		}
		return outcome.Int(a / b), nil
	case xcfa.Mod:
		if b == 0 {
			return outcome.Value{}, errUndefinedOp{msg: "division by zero"}
		}
		return outcome.Int(a % b), nil
	case xcfa.And:
		return outcome.Int(a & b), nil
	case xcfa.Or:
		return outcome.Int(a | b), nil
	case xcfa.Xor:
		return outcome.Int(a ^ b), nil
	case xcfa.Shl:
		return outcome.Int(a << uint64(b&63)), nil
	case xcfa.Shr:
		return outcome.Int(int64(uint64(a) >> uint64(b&63))), nil
	case xcfa.Ashr:
		return outcome.Int(a >> uint64(b&63)), nil
	case xcfa.Eq:
		return boolValue(a == b), nil
	case xcfa.Ne:
		return boolValue(a != b), nil
	case xcfa.Lt:
		return boolValue(a < b), nil
	case xcfa.Le:
		return boolValue(a <= b), nil
	case xcfa.Gt:
		return boolValue(a > b), nil
	case xcfa.Ge:
		return boolValue(a >= b), nil
	case xcfa.Ult:
		return boolValue(uint64(a) < uint64(b)), nil
	case xcfa.Ule:
		return boolValue(uint64(a) <= uint64(b)), nil
	case xcfa.Ugt:
		return boolValue(uint64(a) > uint64(b)), nil
	case xcfa.Uge:
		return boolValue(uint64(a) >= uint64(b)), nil
	case xcfa.LAnd:
		return boolValue(a != 0 && b != 0), nil
	case xcfa.LOr:
		return boolValue(a != 0 || b != 0), nil
	}
	return outcome.Value{}, fmt.Errorf("unknown operator %v", op)
}

func applyAddrBinary(op xcfa.BinOp, x, y outcome.Value) (outcome.Value, error) {
	switch op {
	case xcfa.Add:
		if x.IsAddr() && !y.IsAddr() {
			return outcome.Value{Sym: x.Sym, Off: x.Off + y.Off}, nil
		}
		if y.IsAddr() && !x.IsAddr() {
			return outcome.Value{Sym: y.Sym, Off: y.Off + x.Off}, nil
		}
	case xcfa.Sub:
		if x.IsAddr() && !y.IsAddr() {
			return outcome.Value{Sym: x.Sym, Off: x.Off - y.Off}, nil
		}
		if x.Sym == y.Sym {
			return outcome.Int(x.Off - y.Off), nil
		}
	case xcfa.Lt, xcfa.Gt:
		// herd7 orders an address above zero (X86_64 sets its flags so).
		lo, hi := x, y
		if op == xcfa.Gt {
			lo, hi = y, x
		}
		if lo.IsAddr() && hi == outcome.Int(0) {
			return outcome.Int(0), nil
		}
		if lo == outcome.Int(0) && hi.IsAddr() {
			return outcome.Int(1), nil
		}
	case xcfa.Eq:
		return boolValue(x == y), nil
	case xcfa.Ne:
		return boolValue(x != y), nil
	case xcfa.LAnd:
		return boolValue(Truth(x) && Truth(y)), nil
	case xcfa.LOr:
		return boolValue(Truth(x) || Truth(y)), nil
	case xcfa.Xor, xcfa.And, xcfa.Or:
		// x^x, x&x, x|x on one address: the false-dependency idioms.
		if x == y {
			switch op {
			case xcfa.Xor:
				return outcome.Int(0), nil
			default:
				return x, nil
			}
		}
		// Masking an address with zero, as in AND X2,X1,#0.
		if op == xcfa.And && (x == outcome.Int(0) || y == outcome.Int(0)) {
			return outcome.Int(0), nil
		}
		if op != xcfa.And && (x == outcome.Int(0) || y == outcome.Int(0)) {
			if x.IsAddr() {
				return x, nil
			}
			return y, nil
		}
	case xcfa.Mul:
		if y == outcome.Int(1) {
			return x, nil
		}
		if x == outcome.Int(1) {
			return y, nil
		}
		if x == outcome.Int(0) || y == outcome.Int(0) {
			return outcome.Int(0), nil
		}
	}
	return outcome.Value{}, errUndefinedOp{fmt.Sprintf("%v %v %v is not defined on addresses", x, op, y), true,
		fmt.Sprintf("Illegal operation %s on %v and %v", herdBinaryName(op), x, y)}
}

// ApplyUnary computes op x.
func ApplyUnary(op xcfa.UnOp, x outcome.Value) (outcome.Value, error) {
	if x.IsAddr() {
		switch op {
		case xcfa.Not:
			return outcome.Int(0), nil
		}
		return outcome.Value{}, errUndefinedOp{fmt.Sprintf("%v %v is not defined on an address", op, x), true,
			fmt.Sprintf("Illegal operation %s on %v", herdUnary[op], x)}
	}
	a := x.Off
	switch op {
	case xcfa.Neg:
		return outcome.Int(-a), nil
	case xcfa.Not:
		return boolValue(a == 0), nil
	case xcfa.BNot:
		return outcome.Int(^a), nil
	case xcfa.Zext8, xcfa.Low8:
		return outcome.Int(int64(uint8(a))), nil
	case xcfa.Zext16, xcfa.Low16:
		return outcome.Int(int64(uint16(a))), nil
	case xcfa.Zext32, xcfa.Low32:
		return outcome.Int(int64(uint32(a))), nil
	case xcfa.Sext8:
		return outcome.Int(int64(int8(a))), nil
	case xcfa.Sext16:
		return outcome.Int(int64(int16(a))), nil
	case xcfa.Sext32:
		return outcome.Int(int64(int32(a))), nil
	}
	return outcome.Value{}, fmt.Errorf("unknown operator %v", op)
}

// LabelValue is the value of a code label's address, as the engines
// compute it.
func LabelValue(l xcfa.Label) outcome.Value { return codeAddr(l.Proc, l.Name) }

// NarrowOp is the operator that keeps the low bytes of an access of size
// bytes (a load zero-extends them; a store writes them), false for a
// whole word.
func NarrowOp(size int) (xcfa.UnOp, bool) {
	op, ok := zextOf[size]
	return op, ok
}
