package c

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
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
func unparen(e cparser.IExprContext) cparser.IExprContext {
	for {
		if c, ok := e.(*cparser.CastExprContext); ok {
			e = c.Expr()
			continue
		}
		p, ok := e.(*cparser.PrimaryExprContext)
		if !ok {
			return e
		}
		par, ok := p.Primary().(*cparser.ParenPrimaryContext)
		if !ok {
			return e
		}
		e = par.Expr()
	}
}

// value translates an expression that must have a value.
func (t *translator) value(e cparser.IExprContext) (value, error) {
	v, err := t.expr(e, "")
	if err == nil && v.e == nil {
		err = source.Errorf(t.pos(e), "%s has no value", e.GetText())
	}
	return v, err
}

// expr translates an expression. hint names the register the caller will
// assign the value to: an access that ends the evaluation may load straight
// into it (the result is then Reg{hint}).
func (t *translator) expr(e cparser.IExprContext, hint string) (value, error) {
	switch e := e.(type) {
	case *cparser.PrimaryExprContext:
		return t.primary(e.Primary(), hint)
	case *cparser.UnaryExprContext:
		return t.unary(e, hint)
	case *cparser.BinaryExprContext:
		return t.binary(e)
	case *cparser.CondExprContext:
		return t.conditional(e)
	case *cparser.CastExprContext:
		// herd drops casts: (intptr_t *)r is r. The type gives the value
		// its pointer depth.
		v, err := t.expr(e.Expr(), hint)
		if err != nil {
			return v, err
		}
		v.ptr = len(e.CastType().AllPointer())
		return v, nil
	}
	return value{}, source.Errorf(t.pos(e), "unsupported expression %s", e.GetText())
}

func (t *translator) primary(p cparser.IPrimaryContext, hint string) (value, error) {
	switch p := p.(type) {
	case *cparser.NumberPrimaryContext:
		n, err := parseNumber(p.NUMBER().GetText())
		if err != nil {
			return value{}, source.Errorf(t.pos(p), "bad number %s", p.NUMBER().GetText())
		}
		return value{e: xcfa.Const{Value: n}}, nil
	case *cparser.NamePrimaryContext:
		name := p.IDENT().GetText()
		if t.frame != nil {
			if b, ok := t.frame.args[name]; ok { // a macro's parameter
				return t.in(b.frame, func() (value, error) { return t.expr(b.expr, hint) })
			}
		}
		if name == "NULL" {
			return value{e: xcfa.Const{Value: 0}, ptr: 1}, nil
		}
		if strings.HasPrefix(name, "memory_order_") {
			return value{}, source.Errorf(t.pos(p), "unsupported use of %s outside an atomic operation", name)
		}
		return value{e: xcfa.Reg{Name: name}, ptr: t.ptr[name]}, nil
	case *cparser.ParenPrimaryContext:
		return t.expr(p.Expr(), hint)
	case *cparser.CallPrimaryContext, *cparser.AnnotatedPrimaryContext, *cparser.AtomicOpPrimaryContext:
		return t.callPrimary(p, hint, false)
	}
	return value{}, source.Errorf(t.pos(p), "unsupported expression %s", p.GetText())
}

func parseNumber(s string) (int64, error) {
	if len(s) > 2 && (s[1] == 'x' || s[1] == 'X') {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		return int64(u), err
	}
	return strconv.ParseInt(s, 10, 64)
}

func (t *translator) unary(e *cparser.UnaryExprContext, hint string) (value, error) {
	op := e.GetOp().GetTokenType()
	switch op {
	case cparser.CParserSTAR:
		addr, err := t.value(e.Expr())
		if err != nil {
			return value{}, err
		}
		dst := t.dstFor(hint)
		t.emit(xcfa.Load{Dst: dst, Addr: addr.e, Tags: plainTags()}, t.pos(e))
		return value{e: xcfa.Reg{Name: dst}, ptr: max(addr.ptr-1, 0)}, nil
	case cparser.CParserAMPER:
		// &*p is p; the address of a register does not exist in herd's C.
		if in, ok := unparen(e.Expr()).(*cparser.UnaryExprContext); ok && in.GetOp().GetTokenType() == cparser.CParserSTAR {
			v, err := t.value(in.Expr())
			return v, err
		}
		return value{}, source.Errorf(t.pos(e), "unsupported address-of %s", e.GetText())
	case cparser.CParserMINUS:
		if p, ok := unparen(e.Expr()).(*cparser.PrimaryExprContext); ok {
			if n, ok := p.Primary().(*cparser.NumberPrimaryContext); ok {
				v, err := parseNumber("-" + n.NUMBER().GetText())
				if err != nil {
					// "-0x8000000000000000" and the like.
					u, err2 := parseNumber(n.NUMBER().GetText())
					if err2 != nil {
						return value{}, source.Errorf(t.pos(e), "bad number %s", e.GetText())
					}
					v = -u
				}
				return value{e: xcfa.Const{Value: v}}, nil
			}
		}
	}
	x, err := t.value(e.Expr())
	if err != nil {
		return value{}, err
	}
	switch op {
	case cparser.CParserPLUS:
		return x, nil
	case cparser.CParserMINUS:
		return value{e: xcfa.Unary{Op: xcfa.Neg, X: x.e}}, nil
	case cparser.CParserBANG:
		return value{e: xcfa.Unary{Op: xcfa.Not, X: x.e}}, nil
	case cparser.CParserTILDE:
		return value{e: xcfa.Unary{Op: xcfa.BNot, X: x.e}}, nil
	}
	return value{}, source.Errorf(t.pos(e), "unsupported operator %s", e.GetOp().GetText())
}

var binaryOps = map[int]xcfa.BinOp{
	cparser.CParserSTAR: xcfa.Mul, cparser.CParserSLASH: xcfa.Div, cparser.CParserPERCENT: xcfa.Mod,
	cparser.CParserPLUS: xcfa.Add, cparser.CParserMINUS: xcfa.Sub,
	cparser.CParserSHL: xcfa.Shl, cparser.CParserSHR: xcfa.Ashr,
	cparser.CParserLT: xcfa.Lt, cparser.CParserLE: xcfa.Le, cparser.CParserGT: xcfa.Gt, cparser.CParserGE: xcfa.Ge,
	cparser.CParserEQEQ: xcfa.Eq, cparser.CParserNEQ: xcfa.Ne,
	cparser.CParserAMPER: xcfa.And, cparser.CParserCARET: xcfa.Xor, cparser.CParserPIPE: xcfa.Or,
	cparser.CParserANDAND: xcfa.LAnd, cparser.CParserOROR: xcfa.LOr,
}

func (t *translator) binary(e *cparser.BinaryExprContext) (value, error) {
	opTok := e.GetOp()
	op, ok := binaryOps[opTok.GetTokenType()]
	if !ok {
		return value{}, source.Errorf(t.tokPos(opTok), "unsupported operator %s", opTok.GetText())
	}
	// herd evaluates the operands in parallel: no program order between
	// their events.
	var x, y value
	before := 0
	err := t.parallel(func() (err error) {
		x, err = t.value(e.Expr(0))
		return err
	}, func() (err error) {
		before = len(t.proc.Edges)
		y, err = t.value(e.Expr(1))
		return err
	})
	if err != nil {
		return value{}, err
	}
	if (op == xcfa.LAnd || op == xcfa.LOr) && len(t.proc.Edges) != before {
		// C evaluates the right operand only when needed; herd has no such
		// operator with side effects.
		return value{}, source.Errorf(t.pos(e.Expr(1)), "unsupported memory access in the right operand of %s", opTok.GetText())
	}
	if (op == xcfa.Add || op == xcfa.Sub) && (x.ptr > 0 || y.ptr > 0) {
		// herd adds the integer to the address's offset as it is, not
		// scaled by the size of what it points to: y+1 is the byte after
		// y's first one, and the mixed-size check refuses accesses there.
		if x.ptr > 0 && y.ptr > 0 || op == xcfa.Sub && y.ptr > 0 {
			return value{}, source.Errorf(t.tokPos(opTok), "unsupported pointer arithmetic %s (herd7 adds an integer to an address, or subtracts one from it)", e.GetText())
		}
		return value{e: xcfa.Binary{Op: op, X: x.e, Y: y.e}, ptr: max(x.ptr, y.ptr)}, nil
	}
	return value{e: xcfa.Binary{Op: op, X: x.e, Y: y.e}}, nil
}

func (t *translator) conditional(e *cparser.CondExprContext) (value, error) {
	c, err := t.value(e.Expr(0))
	if err != nil {
		return value{}, err
	}
	before := len(t.proc.Edges)
	x, err := t.value(e.Expr(1))
	if err != nil {
		return value{}, err
	}
	y, err := t.value(e.Expr(2))
	if err != nil {
		return value{}, err
	}
	if len(t.proc.Edges) != before {
		return value{}, source.Errorf(t.pos(e), "unsupported memory access in a branch of ?:")
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
		if reads(e, hint) {
			return t.temp()
		}
	}
	return hint
}

// reads tells whether e reads register name.
func reads(e xcfa.Expr, name string) bool {
	switch e := e.(type) {
	case xcfa.Reg:
		return e.Name == name
	case xcfa.Binary:
		return reads(e.X, name) || reads(e.Y, name)
	case xcfa.Unary:
		return reads(e.X, name)
	case xcfa.Ite:
		return reads(e.Cond, name) || reads(e.X, name) || reads(e.Y, name)
	}
	return false
}
