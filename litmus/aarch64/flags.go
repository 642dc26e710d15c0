package aarch64

import (
	"strings"

	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/xcfa"
)

// The condition flags are not bits in the XCFA: a flag-setting instruction
// assigns its two operands to the pseudo-registers NZCV.a and NZCV.b (32-bit
// operands sign-extended), and a condition is an expression over them that
// gives exactly the architectural N, Z, C, V for the operation that set
// them. Which operation that was is known statically: the last
// flag-setting instruction before the reader in the thread's text.
const (
	flagA = "NZCV.a"
	flagB = "NZCV.b"
)

type flagKind int

const (
	flagSub   flagKind = iota // SUBS, CMP: a - b
	flagAdd                   // ADDS, CMN: a + b
	flagLogic                 // ANDS, BICS, TST: a is the result, b is 0
)

type flagSetter struct {
	kind  flagKind
	width int
}

var condCodes = map[string]bool{"EQ": true, "NE": true, "CS": true, "HS": true, "CC": true, "LO": true,
	"MI": true, "PL": true, "VS": true, "VC": true, "HI": true, "LS": true, "GE": true, "LT": true,
	"GT": true, "LE": true, "AL": true, "NV": true}

func isCond(s string) bool { return condCodes[strings.ToUpper(s)] }

// setFlags records a flag-setting operation on a and b (already at 64
// bits: 32-bit operands sign-extended).
func (b *builder) setFlags(kind flagKind, width int, a, bv xcfa.Expr) {
	b.emit(xcfa.Assign{Dst: flagA, Value: a})
	b.emit(xcfa.Assign{Dst: flagB, Value: bv})
	b.flags = &flagSetter{kind: kind, width: width}
}

// cond builds the expression (0 or 1) of a condition code.
func (b *builder) cond(code string, pos interface{ String() string }) (xcfa.Expr, bool) {
	code = strings.ToUpper(code)
	if code == "AL" || code == "NV" {
		return cnst(1), true
	}
	f := b.flags
	if f == nil {
		return nil, false
	}
	a, bb := xcfa.Expr(xcfa.Reg{Name: flagA}), xcfa.Expr(xcfa.Reg{Name: flagB})
	zero := cnst(0)
	var n, z, c, v xcfa.Expr
	switch f.kind {
	case flagSub:
		switch code {
		case "EQ":
			return bin(xcfa.Eq, a, bb), true
		case "NE":
			return bin(xcfa.Ne, a, bb), true
		case "CS", "HS":
			return bin(xcfa.Uge, a, bb), true
		case "CC", "LO":
			return bin(xcfa.Ult, a, bb), true
		case "HI":
			return bin(xcfa.Ugt, a, bb), true
		case "LS":
			return bin(xcfa.Ule, a, bb), true
		case "GE":
			return bin(xcfa.Ge, a, bb), true
		case "LT":
			return bin(xcfa.Lt, a, bb), true
		case "GT":
			return bin(xcfa.Gt, a, bb), true
		case "LE":
			return bin(xcfa.Le, a, bb), true
		}
		diff := bin(xcfa.Sub, a, bb)
		if f.width == 32 {
			diff = sext32(diff)
		}
		n = bin(xcfa.Lt, diff, zero)
		// For a subtraction, LT is N != V, so V is N xor (a < b).
		v = bin(xcfa.Ne, n, bin(xcfa.Lt, a, bb))
	case flagAdd:
		sum := bin(xcfa.Add, a, bb)
		if f.width == 32 {
			n = bin(xcfa.Lt, sext32(sum), zero)
			z = bin(xcfa.Eq, zext32(sum), zero)
			c = bin(xcfa.Ult, zext32(sum), zext32(a))
			v = bin(xcfa.Ne, sext32(sum), sum)
		} else {
			n = bin(xcfa.Lt, sum, zero)
			z = bin(xcfa.Eq, sum, zero)
			c = bin(xcfa.Ult, sum, a)
			v = bin(xcfa.Lt, bin(xcfa.And, bin(xcfa.Xor, a, sum), bin(xcfa.Xor, bb, sum)), zero)
		}
	case flagLogic:
		n = bin(xcfa.Lt, a, zero)
		z = bin(xcfa.Eq, a, zero)
		c = cnst(0)
		v = cnst(0)
		switch code {
		case "GE", "PL":
			return bin(xcfa.Ge, a, zero), true
		case "LT", "MI":
			return n, true
		case "GT":
			return bin(xcfa.Gt, a, zero), true
		case "LE":
			return bin(xcfa.Le, a, zero), true
		case "EQ":
			return z, true
		case "NE":
			return bin(xcfa.Ne, a, zero), true
		}
	}
	not := func(e xcfa.Expr) xcfa.Expr { return negate(e) }
	switch code {
	case "EQ":
		return z, true
	case "NE":
		return not(z), true
	case "CS", "HS":
		return c, true
	case "CC", "LO":
		return not(c), true
	case "MI":
		return n, true
	case "PL":
		return not(n), true
	case "VS":
		return v, true
	case "VC":
		return not(v), true
	case "HI":
		return bin(xcfa.LAnd, c, not(z)), true
	case "LS":
		return bin(xcfa.LOr, not(c), z), true
	case "GE":
		return bin(xcfa.Eq, n, v), true
	case "LT":
		return bin(xcfa.Ne, n, v), true
	case "GT":
		return bin(xcfa.LAnd, not(z), bin(xcfa.Eq, n, v)), true
	case "LE":
		return bin(xcfa.LOr, z, bin(xcfa.Ne, n, v)), true
	}
	return nil, false
}

// readSysReg translates MRS Xt, NZCV: the flags as bits 31 (N), 30 (Z),
// 29 (C) and 28 (V), computed from the last flag setter like a condition;
// before any flag setter they are 0, as herd's registers start.
func (b *builder) readSysReg(in *parser.Instr) error {
	if err := b.arity(in, 2); err != nil {
		return err
	}
	d, err := b.reg(in.Ops[0])
	if err != nil {
		return err
	}
	o := in.Ops[1]
	if o.Kind != parser.NameOp || strings.ToUpper(o.Name) != "NZCV" {
		return b.unsupported(o.Pos, "system register %s of MRS", o.Text)
	}
	if b.flags == nil {
		b.assign(d, cnst(0))
		return nil
	}
	var v xcfa.Expr
	for i, code := range []string{"MI", "EQ", "CS", "VS"} {
		bit, _ := b.cond(code, in.Pos)
		term := bin(xcfa.Shl, bit, cnst(int64(31-i)))
		if v == nil {
			v = term
		} else {
			v = bin(xcfa.Or, v, term)
		}
	}
	b.assign(d, v)
	return nil
}
