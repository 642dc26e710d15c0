package c

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// value is a translated expression: a side-effect-free XCFA expression
// (the memory accesses it needed are already emitted) and its pointer
// depth. e is nil for a call that returns nothing.
type value struct {
	e   xcfa.Expr
	ptr int
}

// unparen strips parentheses and casts around an expression (herd's
// parser drops both).
func unparen(e cast.Expr) cast.Expr {
	for {
		switch p := e.(type) {
		case *cast.CastExpr:
			e = p.X
		case *cast.ParenExpr:
			e = p.X
		default:
			return e
		}
	}
}

// value translates an expression that must have a value.
func (t *translator) value(e cast.Expr) (value, error) {
	v, err := t.expr(e, "")
	if err == nil && v.e == nil {
		err = source.Errorf(t.pos(e.Position()), "%s has no value", cast.Text(e))
	}
	return v, err
}

// expr translates an expression. hint names the register the caller will
// assign the value to: an access that ends the evaluation may load straight
// into it (the result is then Reg{hint}).
func (t *translator) expr(e cast.Expr, hint string) (value, error) {
	switch e := e.(type) {
	case *cast.Number:
		n, err := parseNumber(e.Text)
		if err != nil {
			return value{}, source.Errorf(t.pos(e.Pos), "bad number %s", e.Text)
		}
		return value{e: xcfa.Const{Value: n}}, nil
	case *cast.Ident:
		if t.frame != nil {
			if b, ok := t.frame.args[e.Name]; ok { // a macro's parameter
				return t.in(b.frame, func() (value, error) { return t.expr(b.expr, hint) })
			}
		}
		if e.Name == "NULL" {
			return value{e: xcfa.Const{Value: 0}, ptr: 1}, nil
		}
		if strings.HasPrefix(e.Name, "memory_order_") {
			return value{}, source.Errorf(t.pos(e.Pos), "unsupported use of %s outside an atomic operation", e.Name)
		}
		return value{e: xcfa.Reg{Name: e.Name}, ptr: t.ptr[e.Name]}, nil
	case *cast.ParenExpr:
		return t.expr(e.X, hint)
	case *cast.CallExpr:
		return t.callExpr(e, hint, false)
	case *cast.UnaryExpr:
		return t.unary(e, hint)
	case *cast.BinaryExpr:
		return t.binary(e)
	case *cast.CondExpr:
		return t.conditional(e)
	case *cast.CastExpr:
		// herd drops casts: (intptr_t *)r is r. The type gives the value
		// its pointer depth.
		v, err := t.expr(e.X, hint)
		if err != nil {
			return v, err
		}
		v.ptr = e.Pointers
		return v, nil
	}
	return value{}, source.Errorf(t.pos(e.Position()), "unsupported expression %s", cast.Text(e))
}

func parseNumber(s string) (int64, error) {
	if len(s) > 2 && (s[1] == 'x' || s[1] == 'X') {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		return int64(u), err
	}
	return strconv.ParseInt(s, 10, 64)
}

func (t *translator) unary(e *cast.UnaryExpr, hint string) (value, error) {
	switch e.Op {
	case "*":
		addr, err := t.value(e.X)
		if err != nil {
			return value{}, err
		}
		dst := t.dstFor(hint)
		t.emit(xcfa.Load{Dst: dst, Addr: addr.e, Tags: plainTags()}, t.pos(e.Pos))
		return value{e: xcfa.Reg{Name: dst}, ptr: max(addr.ptr-1, 0)}, nil
	case "&":
		// &*p is p; the address of a register does not exist in herd's C.
		if in, ok := unparen(e.X).(*cast.UnaryExpr); ok && in.Op == "*" {
			v, err := t.value(in.X)
			return v, err
		}
		return value{}, source.Errorf(t.pos(e.Pos), "unsupported address-of %s", cast.Text(e))
	case "-":
		if n, ok := unparen(e.X).(*cast.Number); ok {
			v, err := parseNumber("-" + n.Text)
			if err != nil {
				// "-0x8000000000000000" and the like.
				u, err2 := parseNumber(n.Text)
				if err2 != nil {
					return value{}, source.Errorf(t.pos(e.Pos), "bad number %s", cast.Text(e))
				}
				v = -u
			}
			return value{e: xcfa.Const{Value: v}}, nil
		}
	}
	x, err := t.value(e.X)
	if err != nil {
		return value{}, err
	}
	switch e.Op {
	case "+":
		return x, nil
	case "-":
		return value{e: xcfa.Unary{Op: xcfa.Neg, X: x.e}}, nil
	case "!":
		return value{e: xcfa.Unary{Op: xcfa.Not, X: x.e}}, nil
	case "~":
		return value{e: xcfa.Unary{Op: xcfa.BNot, X: x.e}}, nil
	}
	return value{}, source.Errorf(t.pos(e.Pos), "unsupported operator %s", e.Op)
}

var binaryOps = map[string]xcfa.BinOp{
	"*": xcfa.Mul, "/": xcfa.Div, "%": xcfa.Mod,
	"+": xcfa.Add, "-": xcfa.Sub,
	"<<": xcfa.Shl, ">>": xcfa.Ashr,
	"<": xcfa.Lt, "<=": xcfa.Le, ">": xcfa.Gt, ">=": xcfa.Ge,
	"==": xcfa.Eq, "!=": xcfa.Ne,
	"&": xcfa.And, "^": xcfa.Xor, "|": xcfa.Or,
	"&&": xcfa.LAnd, "||": xcfa.LOr,
}

func (t *translator) binary(e *cast.BinaryExpr) (value, error) {
	op, ok := binaryOps[e.Op]
	if !ok {
		return value{}, source.Errorf(t.pos(e.OpPos), "unsupported operator %s", e.Op)
	}
	// herd evaluates the operands in parallel: no program order between
	// their events.
	var x, y value
	before := 0
	err := t.parallel(func() (err error) {
		x, err = t.value(e.X)
		return err
	}, func() (err error) {
		before = len(t.proc.Edges)
		y, err = t.value(e.Y)
		return err
	})
	if err != nil {
		return value{}, err
	}
	if (op == xcfa.LAnd || op == xcfa.LOr) && len(t.proc.Edges) != before {
		// C evaluates the right operand only when needed; herd has no such
		// operator with side effects.
		return value{}, source.Errorf(t.pos(e.Y.Position()), "unsupported memory access in the right operand of %s", e.Op)
	}
	if (op == xcfa.Add || op == xcfa.Sub) && (x.ptr > 0 || y.ptr > 0) {
		// herd adds the integer to the address's offset as it is, not
		// scaled by the size of what it points to: y+1 is the byte after
		// y's first one, and the mixed-size check refuses accesses there.
		if x.ptr > 0 && y.ptr > 0 || op == xcfa.Sub && y.ptr > 0 {
			return value{}, source.Errorf(t.pos(e.OpPos), "unsupported pointer arithmetic %s (herd7 adds an integer to an address, or subtracts one from it)", cast.Text(e))
		}
		return value{e: xcfa.Binary{Op: op, X: x.e, Y: y.e}, ptr: max(x.ptr, y.ptr)}, nil
	}
	return value{e: xcfa.Binary{Op: op, X: x.e, Y: y.e}}, nil
}

func (t *translator) conditional(e *cast.CondExpr) (value, error) {
	c, err := t.value(e.Cond)
	if err != nil {
		return value{}, err
	}
	before := len(t.proc.Edges)
	x, err := t.value(e.X)
	if err != nil {
		return value{}, err
	}
	y, err := t.value(e.Y)
	if err != nil {
		return value{}, err
	}
	if len(t.proc.Edges) != before {
		return value{}, source.Errorf(t.pos(e.Pos), "unsupported memory access in a branch of ?:")
	}
	return value{e: xcfa.Ite{Cond: c.e, X: x.e, Y: y.e}, ptr: max(x.ptr, y.ptr)}, nil
}

// dstFor picks the register a result goes to: the caller's hint unless an
// expression still to be evaluated after the write reads it.
func (t *translator) dstFor(hint string, later ...xcfa.Expr) string {
	if hint == "" {
		return t.temp()
	}
	for _, e := range later {
		if xcfa.Reads(e, hint) {
			return t.temp()
		}
	}
	return hint
}
