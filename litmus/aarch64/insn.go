package aarch64

import (
	"strings"

	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/xcfa"
)

// instruction translates one instruction at the current location.
func (b *builder) instruction(in *parser.Instr) error {
	b.pos = in.Pos
	b.markIndex()
	b.index++
	m := in.Mnem
	switch {
	case m == "NOP":
		return b.arity(in, 0)
	case m == "ISB":
		if err := b.arity(in, 0); err != nil {
			return err
		}
		b.emit(xcfa.Fence{Tags: []string{"ISB"}})
		return nil
	case m == "DMB" || m == "DSB":
		return b.barrier(in)
	case m == "B":
		return b.branchTo(in, nil)
	case strings.HasPrefix(m, "B.") && isCond(m[2:]):
		c, ok := b.cond(m[2:], in.Pos)
		if !ok {
			return b.unsupported(in.Pos, "condition %s: no earlier instruction of %s sets the flags", m[2:], b.p.Name)
		}
		return b.branchTo(in, c)
	case m == "CBZ" || m == "CBNZ":
		return b.compareBranch(in)
	case m == "TBZ" || m == "TBNZ":
		return b.testBranch(in)
	case m == "MOV" || m == "MOVZ" || m == "MOVN" || m == "MOVK" || m == "MVN":
		return b.move(in)
	case m == "ADR":
		return b.adr(in)
	case m == "MRS":
		return b.readSysReg(in)
	case m == "BL":
		return b.branchLink(in)
	case m == "BLR" || m == "BR" || m == "RET":
		return b.branchReg(in)
	}
	if ok, err := b.arith(in); ok {
		return err
	}
	if ok, err := b.memory(in); ok {
		return err
	}
	return b.unsupported(in.Pos, "instruction %s", m)
}

func (b *builder) arity(in *parser.Instr, n int) error {
	if len(in.Ops) != n {
		return b.errorf(in.Pos, "%s takes %d operands, not %d", in.Mnem, n, len(in.Ops))
	}
	return nil
}

func (b *builder) arityRange(in *parser.Instr, lo, hi int) error {
	if len(in.Ops) < lo || len(in.Ops) > hi {
		if lo == hi {
			return b.arity(in, lo)
		}
		return b.errorf(in.Pos, "%s takes %d to %d operands, not %d", in.Mnem, lo, hi, len(in.Ops))
	}
	return nil
}

// reg reads a register operand.
func (b *builder) reg(o parser.Operand) (reg, error) {
	switch o.Kind {
	case parser.NameOp:
		if r, ok := parseReg(o.Name); ok {
			return r, nil
		}
		if looksLikeReg(o.Name) {
			return reg{}, b.unsupported(o.Pos, "register %s", o.Text)
		}
	case parser.SymRegOp:
		// herd's symbolic registers: %r, X%r and W%r are the register "%r",
		// whose initial value the state gives as %r=... (a SymRegLoc).
		switch strings.ToUpper(o.Name) {
		case "X", "W":
			return reg{name: o.Text[len(o.Name):], w32: strings.EqualFold(o.Name, "W")}, nil
		}
		if strings.HasPrefix(o.Name, "%") {
			return reg{name: o.Name}, nil
		}
		return reg{}, b.unsupported(o.Pos, "symbolic register %s", o.Text)
	}
	return reg{}, b.errorf(o.Pos, "expected a register, found %q", o.Text)
}

func (b *builder) regs(ops []parser.Operand) ([]reg, error) {
	rs := make([]reg, len(ops))
	for i, o := range ops {
		r, err := b.reg(o)
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	return rs, nil
}

// looksLikeReg recognises registers of other kinds (C1, V0, Q2, D3, ...).
func looksLikeReg(s string) bool {
	if len(s) < 2 || !(s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (b *builder) imm(o parser.Operand) (int64, error) {
	if o.Kind == parser.SymRegOp {
		return 0, b.unsupported(o.Pos, "symbolic register %s", o.Text)
	}
	if o.Kind != parser.ImmOp {
		return 0, b.errorf(o.Pos, "expected an immediate #n, found %q", o.Text)
	}
	return o.Imm, nil
}

var fenceOptions = map[string]bool{"SY": true, "ST": true, "LD": true, "ISH": true, "ISHST": true, "ISHLD": true,
	"NSH": true, "NSHST": true, "NSHLD": true, "OSH": true, "OSHST": true, "OSHLD": true}

func (b *builder) barrier(in *parser.Instr) error {
	if err := b.arity(in, 1); err != nil {
		return err
	}
	o := in.Ops[0]
	opt := strings.ToUpper(o.Name)
	if o.Kind != parser.NameOp || !fenceOptions[opt] {
		return b.unsupported(o.Pos, "barrier option %q of %s", o.Text, in.Mnem)
	}
	b.emit(xcfa.Fence{Tags: []string{in.Mnem + "." + opt}})
	return nil
}

// label resolves a branch target: a label or a relative offset .+8.
func (b *builder) label(o parser.Operand) (*xcfa.Location, error) {
	switch o.Kind {
	case parser.NameOp:
		if _, isReg := parseReg(o.Name); !isReg {
			return b.target(o.Name, o.Pos), nil
		}
	case parser.RelOp:
		if o.Imm%4 != 0 {
			return nil, b.errorf(o.Pos, "relative branch %s is not a multiple of 4", o.Text)
		}
		idx := b.index - 1 + int(o.Imm/4)
		if idx < 0 {
			return nil, b.errorf(o.Pos, "relative branch %s goes before the start of %s", o.Text, b.p.Name)
		}
		return b.target(relLabel(idx), o.Pos), nil
	}
	return nil, b.errorf(o.Pos, "expected a label, found %q", o.Text)
}

func (b *builder) branchTo(in *parser.Instr, cond xcfa.Expr) error {
	if err := b.arity(in, 1); err != nil {
		return err
	}
	to, err := b.label(in.Ops[0])
	if err != nil {
		return err
	}
	if cond == nil {
		b.jump(to)
	} else {
		b.branch(cond, to)
	}
	return nil
}

func (b *builder) compareBranch(in *parser.Instr) error {
	if err := b.arity(in, 2); err != nil {
		return err
	}
	r, err := b.reg(in.Ops[0])
	if err != nil {
		return err
	}
	to, err := b.label(in.Ops[1])
	if err != nil {
		return err
	}
	op := xcfa.Eq
	if in.Mnem == "CBNZ" {
		op = xcfa.Ne
	}
	b.branch(bin(op, r.read(), cnst(0)), to)
	return nil
}

func (b *builder) testBranch(in *parser.Instr) error {
	if err := b.arity(in, 3); err != nil {
		return err
	}
	r, err := b.reg(in.Ops[0])
	if err != nil {
		return err
	}
	bit, err := b.imm(in.Ops[1])
	if err != nil {
		return err
	}
	if bit < 0 || bit >= int64(r.width()) {
		return b.errorf(in.Ops[1].Pos, "bit %d is out of range for %s", bit, in.Ops[0].Text)
	}
	to, err := b.label(in.Ops[2])
	if err != nil {
		return err
	}
	op := xcfa.Eq
	if in.Mnem == "TBNZ" {
		op = xcfa.Ne
	}
	b.branch(bin(op, bin(xcfa.And, bin(xcfa.Shr, r.raw(), cnst(bit)), cnst(1)), cnst(0)), to)
	return nil
}

func (b *builder) move(in *parser.Instr) error {
	if len(in.Ops) < 2 {
		return b.errorf(in.Pos, "%s takes a destination and a source", in.Mnem)
	}
	d, err := b.reg(in.Ops[0])
	if err != nil {
		return err
	}
	shift := int64(0)
	if len(in.Ops) == 3 {
		s := in.Ops[2]
		if s.Kind != parser.ShiftOp || strings.ToUpper(s.Name) != "LSL" || s.Imm%16 != 0 || s.Imm < 0 || s.Imm >= int64(d.width()) {
			return b.unsupported(s.Pos, "operand %q of %s", s.Text, in.Mnem)
		}
		shift = s.Imm
	} else if len(in.Ops) > 3 {
		return b.errorf(in.Pos, "%s takes at most 3 operands", in.Mnem)
	}
	src := in.Ops[1]
	switch in.Mnem {
	case "MOV":
		if len(in.Ops) != 2 {
			return b.errorf(in.Pos, "MOV takes 2 operands")
		}
		if src.Kind == parser.ImmOp {
			b.assign(d, cnst(src.Imm))
			return nil
		}
		s, err := b.reg(src)
		if err != nil {
			return err
		}
		b.assign(d, s.raw())
		return nil
	case "MVN":
		e, err := b.op2(in.Ops[1:], d.width())
		if err != nil {
			return err
		}
		b.assign(d, xcfa.Unary{Op: xcfa.BNot, X: e})
		return nil
	}
	v, err := b.imm(src)
	if err != nil {
		return err
	}
	switch in.Mnem {
	case "MOVZ":
		b.assign(d, cnst(v<<shift))
	case "MOVN":
		b.assign(d, cnst(^(v << shift)))
	case "MOVK":
		mask := int64(0xffff) << shift
		b.assign(d, bin(xcfa.Or, bin(xcfa.And, d.raw(), cnst(^mask)), cnst((v<<shift)&mask)))
	}
	return nil
}

func (b *builder) adr(in *parser.Instr) error {
	if err := b.arity(in, 2); err != nil {
		return err
	}
	d, err := b.reg(in.Ops[0])
	if err != nil {
		return err
	}
	o := in.Ops[1]
	if o.Kind == parser.NameOp && b.syms[o.Name] {
		// herd7 7.57 reads ADR's operand as a code label only.
		return b.errorf(o.Pos, "ADR of the data location %s: ADR takes the address of a code label (herd7: \"Label %s not found on %s, although used in the instruction ADR %s,%s\")", o.Name,
			o.Name, b.code.name(), in.Ops[0].Text, o.Name)
	}
	l, ok := b.codeAddress(o)
	if !ok {
		return b.unsupported(o.Pos, "ADR of %q (neither a data symbol of the initial state nor a label of %s)", o.Text, b.code.name())
	}
	b.th.prog.taken[l] = true
	b.assign(d, l)
	return nil
}

// codeAddress is the address a label or relative operand (.+8) names in
// the text being translated.
func (b *builder) codeAddress(o parser.Operand) (xcfa.Label, bool) {
	switch o.Kind {
	case parser.NameOp:
		return b.code.label(o.Name)
	case parser.RelOp:
		k := b.index - 1 + int(o.Imm/4)
		if o.Imm%4 == 0 && k >= 0 && k <= b.code.count {
			return b.code.position(k), true
		}
	}
	return xcfa.Label{}, false
}

// returnAddress is the address of the instruction after the current one,
// which BL and BLR write into X30.
func (b *builder) returnAddress() xcfa.Label {
	l := b.code.position(b.index)
	b.th.prog.taken[l] = true
	return l
}

const linkReg = "X30"

// branchLink translates BL label: X30 := the return address, then a jump.
func (b *builder) branchLink(in *parser.Instr) error {
	if err := b.arity(in, 1); err != nil {
		return err
	}
	to, err := b.label(in.Ops[0])
	if err != nil {
		return err
	}
	b.emit(xcfa.Assign{Dst: linkReg, Value: b.returnAddress()})
	b.jump(to)
	return nil
}

// branchReg translates BR Xn, BLR Xn and RET {Xn}: indirect jumps, whose
// Assume edges are added once the thread is complete.
func (b *builder) branchReg(in *parser.Instr) error {
	target := reg{name: linkReg}
	if in.Mnem == "RET" {
		if err := b.arityRange(in, 0, 1); err != nil {
			return err
		}
	} else if err := b.arity(in, 1); err != nil {
		return err
	}
	if len(in.Ops) == 1 {
		r, err := b.reg(in.Ops[0])
		if err != nil {
			return err
		}
		if r.w32 || r.zero || r.name == "SP" {
			return b.errorf(in.Ops[0].Pos, "%s needs an X register, found %q", in.Mnem, in.Ops[0].Text)
		}
		target = r
	}
	if in.Mnem == "RET" && len(in.Ops) == 0 && b.th.prog.telechat {
		// herd's telechat variant: RET leaves the thread.
		b.th.exits = append(b.th.exits, indirectJump{from: b.cur, pos: b.pos})
		b.cur, b.dead = b.p.NewLoc(""), true
		return nil
	}
	name := target.name
	if in.Mnem == "BLR" {
		if name == linkReg {
			// BLR X30 jumps to the old X30.
			name = b.tmp()
			b.emit(xcfa.Assign{Dst: name, Value: xcfa.Reg{Name: linkReg}})
		}
		b.emit(xcfa.Assign{Dst: linkReg, Value: b.returnAddress()})
	}
	b.th.jumps = append(b.th.jumps, indirectJump{from: b.cur, reg: name, pos: b.pos})
	b.cur, b.dead = b.p.NewLoc(""), true
	return nil
}

// op2 evaluates a flexible second operand at a width: #imm{, LSL #12}, or
// Rm{, shift #k} or Rm, extend{ #k}. The result's low width bits are right;
// higher bits may be garbage for 32-bit operations.
func (b *builder) op2(ops []parser.Operand, width int) (xcfa.Expr, error) {
	if len(ops) == 0 || len(ops) > 2 {
		return nil, b.errorf(b.pos, "expected a register or an immediate operand")
	}
	o := ops[0]
	if o.Kind == parser.ImmOp {
		v := o.Imm
		if len(ops) == 2 {
			s := ops[1]
			if s.Kind != parser.ShiftOp || strings.ToUpper(s.Name) != "LSL" {
				return nil, b.unsupported(s.Pos, "immediate shift %q", s.Text)
			}
			v <<= s.Imm
		}
		return cnst(v), nil
	}
	r, err := b.reg(o)
	if err != nil {
		return nil, err
	}
	if len(ops) == 1 {
		return r.raw(), nil
	}
	s := ops[1]
	kind := strings.ToUpper(s.Name)
	amount := int64(0)
	switch s.Kind {
	case parser.ShiftOp:
		amount = s.Imm
	case parser.NameOp:
	default:
		return nil, b.errorf(s.Pos, "expected a shift or an extension, found %q", s.Text)
	}
	if amount < 0 || amount >= int64(width) {
		return nil, b.errorf(s.Pos, "shift amount %d is out of range", amount)
	}
	var e xcfa.Expr
	switch kind {
	case "LSL":
		e = bin(xcfa.Shl, r.raw(), cnst(amount))
		return e, nil
	case "LSR":
		return bin(xcfa.Shr, truncate(r.raw(), width), cnst(amount)), nil
	case "ASR":
		return bin(xcfa.Ashr, signExtend(r.raw(), width), cnst(amount)), nil
	case "ROR":
		x := truncate(r.raw(), width)
		if amount == 0 {
			return x, nil
		}
		return bin(xcfa.Or, bin(xcfa.Shr, x, cnst(amount)), bin(xcfa.Shl, x, cnst(int64(width)-amount))), nil
	case "UXTB":
		e = truncate(r.raw(), 8)
	case "UXTH":
		e = truncate(r.raw(), 16)
	case "UXTW":
		e = truncate(r.raw(), 32)
	case "UXTX", "SXTX":
		e = r.raw()
	case "SXTB":
		e = signExtend(r.raw(), 8)
	case "SXTH":
		e = signExtend(r.raw(), 16)
	case "SXTW":
		e = signExtend(r.raw(), 32)
	default:
		return nil, b.unsupported(s.Pos, "operand modifier %q", s.Text)
	}
	if amount > 4 {
		return nil, b.errorf(s.Pos, "extension shift %d is out of range", amount)
	}
	if amount != 0 {
		e = bin(xcfa.Shl, e, cnst(amount))
	}
	return e, nil
}
