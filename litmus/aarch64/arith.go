package aarch64

import (
	"strings"

	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/xcfa"
)

// Binary data-processing instructions: Rd := Rn op op2.
var logicalOps = map[string]struct {
	op  xcfa.BinOp
	not bool // the second operand is complemented (BIC, ORN, EON)
}{
	"AND": {xcfa.And, false}, "ORR": {xcfa.Or, false}, "EOR": {xcfa.Xor, false},
	"BIC": {xcfa.And, true}, "ORN": {xcfa.Or, true}, "EON": {xcfa.Xor, true},
}

// arith translates data-processing instructions; the first result says
// whether the mnemonic is one of them.
func (b *builder) arith(in *parser.Instr) (bool, error) {
	m := in.Mnem
	switch m {
	case "ADD", "SUB", "ADDS", "SUBS":
		return true, b.addSub(in, in.Ops)
	case "CMP", "CMN":
		// CMP Rn, op2 is SUBS ZR, Rn, op2.
		if len(in.Ops) < 2 {
			return true, b.errorf(in.Pos, "%s takes 2 operands", m)
		}
		return true, b.addSub(in, append([]parser.Operand{zeroLike(in.Ops[0])}, in.Ops...))
	case "NEG", "NEGS":
		if len(in.Ops) < 2 {
			return true, b.errorf(in.Pos, "%s takes 2 operands", m)
		}
		ops := append([]parser.Operand{in.Ops[0], zeroLike(in.Ops[0])}, in.Ops[1:]...)
		return true, b.addSub(in, ops)
	case "TST":
		if len(in.Ops) < 2 {
			return true, b.errorf(in.Pos, "TST takes 2 operands")
		}
		return true, b.logical(in, "AND", true, append([]parser.Operand{zeroLike(in.Ops[0])}, in.Ops...))
	case "ANDS", "BICS":
		return true, b.logical(in, strings.TrimSuffix(m, "S"), true, in.Ops)
	case "MUL", "MNEG", "MADD", "MSUB", "SMULL", "UMULL", "SMNEGL", "UMNEGL", "SMADDL", "SMSUBL", "UMADDL", "UMSUBL":
		return true, b.multiply(in)
	case "LSL", "LSR", "ASR", "ROR":
		return true, b.shift(in)
	case "UBFM", "SBFM", "UBFX", "SBFX", "SXTB", "SXTH", "SXTW", "UXTB", "UXTH":
		return true, b.bitfield(in)
	case "CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM", "CINC", "CINV", "CNEG":
		return true, b.condSelect(in)
	case "ABS":
		if err := b.arity(in, 2); err != nil {
			return true, err
		}
		rs, err := b.regs(in.Ops)
		if err != nil {
			return true, err
		}
		x := rs[1].sread()
		b.assign(rs[0], xcfa.Ite{Cond: bin(xcfa.Lt, x, cnst(0)), X: xcfa.Unary{Op: xcfa.Neg, X: x}, Y: x})
		return true, nil
	case "REV", "REV16", "REV32", "REV64", "RBIT":
		return true, b.reverse(in)
	}
	if _, ok := logicalOps[m]; ok {
		return true, b.logical(in, m, false, in.Ops)
	}
	return false, nil
}

// zeroLike is the zero register of the width of o.
func zeroLike(o parser.Operand) parser.Operand {
	z := parser.Operand{Kind: parser.NameOp, Name: "XZR", Pos: o.Pos, Text: "XZR"}
	if r, ok := parseReg(o.Name); ok && r.w32 {
		z.Name, z.Text = "WZR", "WZR"
	}
	return z
}

func (b *builder) addSub(in *parser.Instr, ops []parser.Operand) error {
	if len(ops) < 3 || len(ops) > 4 {
		return b.errorf(in.Pos, "%s takes 3 or 4 operands", in.Mnem)
	}
	d, err := b.reg(ops[0])
	if err != nil {
		return err
	}
	n, err := b.reg(ops[1])
	if err != nil {
		return err
	}
	w := d.width()
	m2, err := b.op2(ops[2:], w)
	if err != nil {
		return err
	}
	op := xcfa.Add
	kind := flagAdd
	if strings.HasPrefix(in.Mnem, "SUB") || strings.HasPrefix(in.Mnem, "CMP") || strings.HasPrefix(in.Mnem, "NEG") {
		op, kind = xcfa.Sub, flagSub
	}
	setsFlags := strings.HasSuffix(in.Mnem, "S") || in.Mnem == "CMP" || in.Mnem == "CMN"
	if !setsFlags {
		b.assign(d, bin(op, n.raw(), m2))
		return nil
	}
	if w == 32 {
		b.setFlags(kind, w, n.sread(), sext32(m2))
	} else {
		b.setFlags(kind, w, n.raw(), m2)
	}
	b.assign(d, bin(op, xcfa.Reg{Name: flagA}, xcfa.Reg{Name: flagB}))
	return nil
}

func (b *builder) logical(in *parser.Instr, m string, setsFlags bool, ops []parser.Operand) error {
	if len(ops) < 3 || len(ops) > 4 {
		return b.errorf(in.Pos, "%s takes 3 or 4 operands", in.Mnem)
	}
	d, err := b.reg(ops[0])
	if err != nil {
		return err
	}
	n, err := b.reg(ops[1])
	if err != nil {
		return err
	}
	w := d.width()
	m2, err := b.op2(ops[2:], w)
	if err != nil {
		return err
	}
	lo := logicalOps[m]
	if lo.not {
		m2 = xcfa.Unary{Op: xcfa.BNot, X: m2}
	}
	res := bin(lo.op, n.raw(), m2)
	if !setsFlags {
		b.assign(d, res)
		return nil
	}
	if w == 32 {
		res = sext32(res)
	}
	b.setFlags(flagLogic, w, res, cnst(0))
	b.assign(d, xcfa.Reg{Name: flagA})
	return nil
}

func (b *builder) multiply(in *parser.Instr) error {
	m := in.Mnem
	want := 3
	switch m {
	case "MADD", "MSUB", "SMADDL", "SMSUBL", "UMADDL", "UMSUBL":
		want = 4
	}
	if err := b.arity(in, want); err != nil {
		return err
	}
	rs, err := b.regs(in.Ops)
	if err != nil {
		return err
	}
	var x, y xcfa.Expr
	switch {
	case strings.HasPrefix(m, "SM"):
		x, y = rs[1].sread(), rs[2].sread()
	case strings.HasPrefix(m, "UM"):
		x, y = rs[1].read(), rs[2].read()
	default:
		x, y = rs[1].raw(), rs[2].raw()
	}
	prod := bin(xcfa.Mul, x, y)
	switch {
	case strings.HasSuffix(m, "ADD") || strings.HasSuffix(m, "ADDL"):
		prod = bin(xcfa.Add, rs[3].raw(), prod)
	case strings.HasSuffix(m, "SUB") || strings.HasSuffix(m, "SUBL"):
		prod = bin(xcfa.Sub, rs[3].raw(), prod)
	case strings.HasSuffix(m, "NEG") || strings.HasSuffix(m, "NEGL"):
		prod = xcfa.Unary{Op: xcfa.Neg, X: prod}
	}
	b.assign(rs[0], prod)
	return nil
}

func (b *builder) shift(in *parser.Instr) error {
	if err := b.arity(in, 3); err != nil {
		return err
	}
	d, err := b.reg(in.Ops[0])
	if err != nil {
		return err
	}
	n, err := b.reg(in.Ops[1])
	if err != nil {
		return err
	}
	w := d.width()
	if in.Ops[2].Kind == parser.ImmOp {
		// The immediate forms are the shifted-register operand of MOV.
		sh := parser.Operand{Kind: parser.ShiftOp, Name: in.Mnem, Imm: in.Ops[2].Imm, Pos: in.Ops[2].Pos, Text: in.Ops[2].Text}
		e, err := b.op2([]parser.Operand{in.Ops[1], sh}, w)
		if err != nil {
			return err
		}
		b.assign(d, e)
		return nil
	}
	m, err := b.reg(in.Ops[2])
	if err != nil {
		return err
	}
	// Register shifts take the amount modulo the width.
	amount := bin(xcfa.And, m.raw(), cnst(int64(w-1)))
	var e xcfa.Expr
	switch in.Mnem {
	case "LSL":
		e = bin(xcfa.Shl, n.raw(), amount)
	case "LSR":
		e = bin(xcfa.Shr, n.read(), amount)
	case "ASR":
		e = bin(xcfa.Ashr, n.sread(), amount)
	default:
		x := n.read()
		e = bin(xcfa.Or, bin(xcfa.Shr, x, amount), bin(xcfa.Shl, x, bin(xcfa.Sub, cnst(int64(w)), amount)))
	}
	b.assign(d, e)
	return nil
}

// bitfield translates UBFM/SBFM and their aliases.
func (b *builder) bitfield(in *parser.Instr) error {
	m := in.Mnem
	var immr, imms int64
	var d, n reg
	switch m {
	case "SXTB", "SXTH", "SXTW", "UXTB", "UXTH":
		if err := b.arity(in, 2); err != nil {
			return err
		}
		rs, err := b.regs(in.Ops)
		if err != nil {
			return err
		}
		width := map[byte]int{'B': 8, 'H': 16, 'W': 32}[m[3]]
		if m[0] == 'S' {
			b.assign(rs[0], signExtend(rs[1].raw(), width))
		} else {
			b.assign(rs[0], truncate(rs[1].raw(), width))
		}
		return nil
	}
	if err := b.arity(in, 4); err != nil {
		return err
	}
	rs, err := b.regs(in.Ops[:2])
	if err != nil {
		return err
	}
	d, n = rs[0], rs[1]
	a, err := b.imm(in.Ops[2])
	if err != nil {
		return err
	}
	c, err := b.imm(in.Ops[3])
	if err != nil {
		return err
	}
	w := int64(d.width())
	signed := m[0] == 'S'
	switch m {
	case "UBFX", "SBFX": // lsb, width
		immr, imms = a, a+c-1
	default:
		immr, imms = a, c
	}
	if immr < 0 || immr >= w || imms < 0 || imms >= w {
		return b.errorf(in.Pos, "bit-field operands of %s are out of range", m)
	}
	x := n.raw()
	var e xcfa.Expr
	if imms >= immr {
		// Extract bits imms..immr to the bottom.
		k := imms - immr + 1
		e = bin(xcfa.Shl, x, cnst(64-imms-1))
		op := xcfa.Shr
		if signed {
			op = xcfa.Ashr
		}
		e = bin(op, e, cnst(64-k))
	} else {
		// Insert bits imms..0 at position w-immr.
		k := imms + 1
		e = bin(xcfa.Shl, x, cnst(64-k))
		op := xcfa.Shr
		if signed {
			op = xcfa.Ashr
		}
		e = bin(op, e, cnst(64-k))
		e = bin(xcfa.Shl, e, cnst(w-immr))
	}
	b.assign(d, e)
	return nil
}

func (b *builder) condSelect(in *parser.Instr) error {
	m := in.Mnem
	var d, n, mm reg
	var code parser.Operand
	switch m {
	case "CSET", "CSETM":
		if err := b.arity(in, 2); err != nil {
			return err
		}
		r, err := b.reg(in.Ops[0])
		if err != nil {
			return err
		}
		d, code = r, in.Ops[1]
	case "CINC", "CINV", "CNEG":
		if err := b.arity(in, 3); err != nil {
			return err
		}
		rs, err := b.regs(in.Ops[:2])
		if err != nil {
			return err
		}
		d, n, code = rs[0], rs[1], in.Ops[2]
	default:
		if err := b.arity(in, 4); err != nil {
			return err
		}
		rs, err := b.regs(in.Ops[:3])
		if err != nil {
			return err
		}
		d, n, mm, code = rs[0], rs[1], rs[2], in.Ops[3]
	}
	if code.Kind != parser.NameOp || !isCond(code.Name) {
		return b.errorf(code.Pos, "expected a condition code, found %q", code.Text)
	}
	c, ok := b.cond(code.Name, code.Pos)
	if !ok {
		return b.unsupported(code.Pos, "condition %s: no earlier instruction of %s sets the flags", code.Name, b.p.Name)
	}
	switch m {
	case "CSET":
		b.selectOn(d, c, cnst(1), cnst(0))
		return nil
	case "CSETM":
		b.selectOn(d, c, cnst(-1), cnst(0))
		return nil
	case "CINC": // CINC Rd, Rn, cond is CSINC Rd, Rn, Rn, invert(cond)
		b.selectOn(d, c, bin(xcfa.Add, n.raw(), cnst(1)), n.raw())
		return nil
	case "CINV":
		b.selectOn(d, c, xcfa.Unary{Op: xcfa.BNot, X: n.raw()}, n.raw())
		return nil
	case "CNEG":
		b.selectOn(d, c, xcfa.Unary{Op: xcfa.Neg, X: n.raw()}, n.raw())
		return nil
	}
	var other xcfa.Expr
	switch m {
	case "CSEL":
		other = mm.raw()
	case "CSINC":
		other = bin(xcfa.Add, mm.raw(), cnst(1))
	case "CSINV":
		other = xcfa.Unary{Op: xcfa.BNot, X: mm.raw()}
	case "CSNEG":
		other = xcfa.Unary{Op: xcfa.Neg, X: mm.raw()}
	}
	b.selectOn(d, c, n.raw(), other)
	return nil
}

// selectOn translates a conditional select as herd7 does: the result
// depends by data on the selected operand only, and on the flags by a
// pick dependency. The two outcomes are an internal choice (no branch),
// and only the one whose condition holds can execute.
func (b *builder) selectOn(d reg, c, x, y xcfa.Expr) {
	from := b.cur
	join := b.p.NewLoc("")
	for _, alt := range []struct {
		cond, val xcfa.Expr
	}{{c, x}, {negate(c), y}} {
		b.cur = b.p.NewLoc("")
		b.p.AddEdge(from, b.cur, xcfa.Assume{Cond: alt.cond, Internal: true}, b.pos)
		if d.zero {
			b.emit(xcfa.Nop{})
		} else {
			b.assign(d, xcfa.Pick{Cond: c, X: alt.val})
		}
		b.p.AddEdge(b.cur, join, xcfa.Nop{}, b.pos)
	}
	b.cur = join
}

// reverse translates REV, REV16, REV32, REV64 and RBIT as a permutation of
// bytes (bits for RBIT) written with shifts and masks.
func (b *builder) reverse(in *parser.Instr) error {
	if err := b.arity(in, 2); err != nil {
		return err
	}
	rs, err := b.regs(in.Ops)
	if err != nil {
		return err
	}
	d, n := rs[0], rs[1]
	w := d.width()
	unit, container := 8, w
	switch in.Mnem {
	case "RBIT":
		unit = 1
	case "REV16":
		container = 16
	case "REV32":
		if w == 32 {
			return b.errorf(in.Pos, "REV32 needs X registers")
		}
		container = 32
	case "REV64":
		if w == 32 {
			return b.errorf(in.Pos, "REV64 needs X registers")
		}
	}
	x := n.raw()
	mask := cnst(int64(1)<<unit - 1)
	var e xcfa.Expr
	for i := 0; i < w/unit; i++ {
		base := (i * unit / container) * container
		j := base + container - unit - (i*unit - base)
		part := bin(xcfa.Shl, bin(xcfa.And, bin(xcfa.Shr, x, cnst(int64(i*unit))), mask), cnst(int64(j)))
		if e == nil {
			e = part
		} else {
			e = bin(xcfa.Or, e, part)
		}
	}
	b.assign(d, e)
	return nil
}
