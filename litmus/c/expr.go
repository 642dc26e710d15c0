package c

import (
	"slices"
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
	if op == xcfa.LAnd || op == xcfa.LOr {
		return t.logical(e, op)
	}
	// herd evaluates the operands in parallel: no program order between
	// their events.
	var x, y value
	err := t.parallel(func() (err error) {
		x, err = t.value(e.X)
		return err
	}, func() (err error) {
		y, err = t.value(e.Y)
		return err
	})
	if err != nil {
		return value{}, err
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

// logical translates && and ||. C evaluates the right operand only when
// the left one does not decide: when the right one accesses memory its
// events come after the left one's, on the path where they happen (herd7,
// which evaluates every operator's operands in parallel, reads both; no
// test of its suites has such an operand).
func (t *translator) logical(e *cast.BinaryExpr, op xcfa.BinOp) (value, error) {
	x, err := t.value(e.X)
	if err != nil {
		return value{}, err
	}
	var y value
	right := func() (value, error) {
		y, err = t.value(e.Y)
		return value{e: truth(y.e)}, err
	}
	// x decides: x && y is 0 when x is false, x || y is 1 when x is true.
	decided := func(v int64) func() (value, error) {
		return func() (value, error) { return value{e: xcfa.Const{Value: v}}, nil }
	}
	then, other := right, decided(0)
	if op == xcfa.LOr {
		then, other = decided(1), right
	}
	v, guarded, err := t.guard(x.e, t.pos(e.OpPos), then, other)
	if err != nil || guarded {
		return v, err
	}
	return value{e: xcfa.Binary{Op: op, X: x.e, Y: y.e}}, nil
}

// truth is C's truth value of e: 1 when it is not zero.
func truth(e xcfa.Expr) xcfa.Expr {
	return xcfa.Binary{Op: xcfa.Ne, X: e, Y: xcfa.Const{Value: 0}}
}

func (t *translator) conditional(e *cast.CondExpr) (value, error) {
	c, err := t.value(e.Cond)
	if err != nil {
		return value{}, err
	}
	var x, y value
	v, guarded, err := t.guard(c.e, t.pos(e.Pos), func() (value, error) {
		x, err = t.value(e.X)
		return x, err
	}, func() (value, error) {
		y, err = t.value(e.Y)
		return y, err
	})
	if err != nil || guarded {
		return v, err
	}
	return value{e: xcfa.Ite{Cond: c.e, X: x.e, Y: y.e}, ptr: max(x.ptr, y.ptr)}, nil
}

// guard translates the two ways of a choice on cond that C evaluates only
// one of. When neither accesses memory it reports guarded false and the
// caller builds the choice as an expression; otherwise their edges are put
// behind a branch on cond, each way assigns a fresh register, and the
// result is that register.
func (t *translator) guard(cond xcfa.Expr, pos source.Pos, then, other func() (value, error)) (value, bool, error) {
	start, first := t.cur, len(t.proc.Edges)
	x, err := then()
	if err != nil {
		return value{}, false, err
	}
	thenEnd, second := t.cur, len(t.proc.Edges)
	y, err := other()
	if err != nil {
		return value{}, false, err
	}
	otherEnd, last := t.cur, len(t.proc.Edges)
	if last == first {
		return value{}, false, nil
	}
	// Each way's edges were translated one after the other from start;
	// move each to a location of its own behind its branch.
	thenStart := t.detach(start, first, second)
	otherStart := t.detach(thenEnd, second, last) // thenEnd is start when then has no edges
	if second == first {
		thenEnd = thenStart
	}
	if last == second {
		otherEnd = otherStart
	}
	instr := t.instr(pos, t.step)
	t.proc.AddEdge(start, thenStart, xcfa.Assume{Cond: cond}, pos, instr).Par = t.par
	t.proc.AddEdge(start, otherStart, xcfa.Assume{Cond: negate(cond)}, pos, instr).Par = t.par
	res := t.temp()
	t.cur = thenEnd
	t.emit(xcfa.Assign{Dst: res, Value: x.e}, pos)
	end := t.cur
	t.cur = otherEnd
	t.join(end, xcfa.Assign{Dst: res, Value: y.e}, pos)
	return value{e: xcfa.Reg{Name: res}, ptr: max(x.ptr, y.ptr)}, true, nil
}

// detach moves the edges proc.Edges[lo:hi] that leave from to leave a
// fresh location instead, and returns it.
func (t *translator) detach(from *xcfa.Location, lo, hi int) *xcfa.Location {
	to := t.proc.NewLoc("")
	moved := map[*xcfa.Edge]bool{}
	for _, ed := range t.proc.Edges[lo:hi] {
		if ed.From == from {
			moved[ed] = true
			ed.From = to
			to.Out = append(to.Out, ed)
		}
	}
	from.Out = slices.DeleteFunc(from.Out, func(ed *xcfa.Edge) bool { return moved[ed] })
	return to
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
