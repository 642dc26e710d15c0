package aarch64

import (
	"strings"

	"github.com/purr-mcm/purr/xcfa"
)

// instruction translates one instruction at the current location.
func (b *builder) instruction(in *instr) error {
	b.pos = in.pos
	b.markIndex()
	b.index++
	m := in.mnem
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
		c, ok := b.cond(m[2:], in.pos)
		if !ok {
			return b.unsupported(in.pos, "condition %s: no earlier instruction of %s sets the flags", m[2:], b.p.Name)
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
	return b.unsupported(in.pos, "instruction %s", m)
}

func (b *builder) arity(in *instr, n int) error {
	if len(in.ops) != n {
		return b.errorf(in.pos, "%s takes %d operands, not %d", in.mnem, n, len(in.ops))
	}
	return nil
}

func (b *builder) arityRange(in *instr, lo, hi int) error {
	if len(in.ops) < lo || len(in.ops) > hi {
		if lo == hi {
			return b.arity(in, lo)
		}
		return b.errorf(in.pos, "%s takes %d to %d operands, not %d", in.mnem, lo, hi, len(in.ops))
	}
	return nil
}

// reg reads a register operand.
func (b *builder) reg(o operand) (reg, error) {
	switch o.kind {
	case nameOp:
		if r, ok := parseReg(o.name); ok {
			return r, nil
		}
		if looksLikeReg(o.name) {
			return reg{}, b.unsupported(o.pos, "register %s", o.text)
		}
	case symRegOp:
		// herd's symbolic registers: %r, X%r and W%r are the register "%r",
		// whose initial value the state gives as %r=... (a SymRegLoc).
		switch strings.ToUpper(o.name) {
		case "X", "W":
			return reg{name: o.text[len(o.name):], w32: strings.EqualFold(o.name, "W")}, nil
		}
		if strings.HasPrefix(o.name, "%") {
			return reg{name: o.name}, nil
		}
		return reg{}, b.unsupported(o.pos, "symbolic register %s", o.text)
	}
	return reg{}, b.errorf(o.pos, "expected a register, found %q", o.text)
}

func (b *builder) regs(ops []operand) ([]reg, error) {
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

func (b *builder) imm(o operand) (int64, error) {
	if o.kind == symRegOp {
		return 0, b.unsupported(o.pos, "symbolic register %s", o.text)
	}
	if o.kind != immOp {
		return 0, b.errorf(o.pos, "expected an immediate #n, found %q", o.text)
	}
	return o.imm, nil
}

var fenceOptions = map[string]bool{"SY": true, "ST": true, "LD": true, "ISH": true, "ISHST": true, "ISHLD": true,
	"NSH": true, "NSHST": true, "NSHLD": true, "OSH": true, "OSHST": true, "OSHLD": true}

func (b *builder) barrier(in *instr) error {
	if err := b.arity(in, 1); err != nil {
		return err
	}
	o := in.ops[0]
	opt := strings.ToUpper(o.name)
	if o.kind != nameOp || !fenceOptions[opt] {
		return b.unsupported(o.pos, "barrier option %q of %s", o.text, in.mnem)
	}
	b.emit(xcfa.Fence{Tags: []string{in.mnem + "." + opt}})
	return nil
}

// label resolves a branch target: a label or a relative offset .+8.
func (b *builder) label(o operand) (*xcfa.Location, error) {
	switch o.kind {
	case nameOp:
		if _, isReg := parseReg(o.name); !isReg {
			return b.target(o.name, o.pos), nil
		}
	case relOp:
		if o.imm%4 != 0 {
			return nil, b.errorf(o.pos, "relative branch %s is not a multiple of 4", o.text)
		}
		idx := b.index - 1 + int(o.imm/4)
		if idx < 0 {
			return nil, b.errorf(o.pos, "relative branch %s goes before the start of %s", o.text, b.p.Name)
		}
		return b.target(relLabel(idx), o.pos), nil
	}
	return nil, b.errorf(o.pos, "expected a label, found %q", o.text)
}

func (b *builder) branchTo(in *instr, cond xcfa.Expr) error {
	if err := b.arity(in, 1); err != nil {
		return err
	}
	to, err := b.label(in.ops[0])
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

func (b *builder) compareBranch(in *instr) error {
	if err := b.arity(in, 2); err != nil {
		return err
	}
	r, err := b.reg(in.ops[0])
	if err != nil {
		return err
	}
	to, err := b.label(in.ops[1])
	if err != nil {
		return err
	}
	op := xcfa.Eq
	if in.mnem == "CBNZ" {
		op = xcfa.Ne
	}
	b.branch(bin(op, r.read(), cnst(0)), to)
	return nil
}

func (b *builder) testBranch(in *instr) error {
	if err := b.arity(in, 3); err != nil {
		return err
	}
	r, err := b.reg(in.ops[0])
	if err != nil {
		return err
	}
	bit, err := b.imm(in.ops[1])
	if err != nil {
		return err
	}
	if bit < 0 || bit >= int64(r.width()) {
		return b.errorf(in.ops[1].pos, "bit %d is out of range for %s", bit, in.ops[0].text)
	}
	to, err := b.label(in.ops[2])
	if err != nil {
		return err
	}
	op := xcfa.Eq
	if in.mnem == "TBNZ" {
		op = xcfa.Ne
	}
	b.branch(bin(op, bin(xcfa.And, bin(xcfa.Shr, r.raw(), cnst(bit)), cnst(1)), cnst(0)), to)
	return nil
}

func (b *builder) move(in *instr) error {
	if len(in.ops) < 2 {
		return b.errorf(in.pos, "%s takes a destination and a source", in.mnem)
	}
	d, err := b.reg(in.ops[0])
	if err != nil {
		return err
	}
	shift := int64(0)
	if len(in.ops) == 3 {
		s := in.ops[2]
		if s.kind != shiftOp || strings.ToUpper(s.name) != "LSL" || s.imm%16 != 0 || s.imm < 0 || s.imm >= int64(d.width()) {
			return b.unsupported(s.pos, "operand %q of %s", s.text, in.mnem)
		}
		shift = s.imm
	} else if len(in.ops) > 3 {
		return b.errorf(in.pos, "%s takes at most 3 operands", in.mnem)
	}
	src := in.ops[1]
	switch in.mnem {
	case "MOV":
		if len(in.ops) != 2 {
			return b.errorf(in.pos, "MOV takes 2 operands")
		}
		if src.kind == immOp {
			b.assign(d, cnst(src.imm))
			return nil
		}
		s, err := b.reg(src)
		if err != nil {
			return err
		}
		b.assign(d, s.raw())
		return nil
	case "MVN":
		e, err := b.op2(in.ops[1:], d.width())
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
	switch in.mnem {
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

func (b *builder) adr(in *instr) error {
	if err := b.arity(in, 2); err != nil {
		return err
	}
	d, err := b.reg(in.ops[0])
	if err != nil {
		return err
	}
	o := in.ops[1]
	if o.kind == nameOp && b.syms[o.name] {
		// herd7 7.57 reads ADR's operand as a code label only.
		return b.errorf(o.pos, "ADR of the data location %s: ADR takes the address of a code label (herd7: \"Label %s not found on %s, although used in the instruction ADR %s,%s\")", o.name,
			o.name, b.code.name(), in.ops[0].text, o.name)
	}
	l, ok := b.codeAddress(o)
	if !ok {
		return b.unsupported(o.pos, "ADR of %q (neither a data symbol of the initial state nor a label of %s)", o.text, b.code.name())
	}
	b.th.prog.taken[l] = true
	b.assign(d, l)
	return nil
}

// codeAddress is the address a label or relative operand (.+8) names in
// the text being translated.
func (b *builder) codeAddress(o operand) (xcfa.Label, bool) {
	switch o.kind {
	case nameOp:
		return b.code.label(o.name)
	case relOp:
		k := b.index - 1 + int(o.imm/4)
		if o.imm%4 == 0 && k >= 0 && k <= b.code.count {
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
func (b *builder) branchLink(in *instr) error {
	if err := b.arity(in, 1); err != nil {
		return err
	}
	to, err := b.label(in.ops[0])
	if err != nil {
		return err
	}
	b.emit(xcfa.Assign{Dst: linkReg, Value: b.returnAddress()})
	b.jump(to)
	return nil
}

// branchReg translates BR Xn, BLR Xn and RET {Xn}: indirect jumps, whose
// Assume edges are added once the thread is complete.
func (b *builder) branchReg(in *instr) error {
	target := reg{name: linkReg}
	if in.mnem == "RET" {
		if err := b.arityRange(in, 0, 1); err != nil {
			return err
		}
	} else if err := b.arity(in, 1); err != nil {
		return err
	}
	if len(in.ops) == 1 {
		r, err := b.reg(in.ops[0])
		if err != nil {
			return err
		}
		if r.w32 || r.zero || r.name == "SP" {
			return b.errorf(in.ops[0].pos, "%s needs an X register, found %q", in.mnem, in.ops[0].text)
		}
		target = r
	}
	if in.mnem == "RET" && len(in.ops) == 0 && b.th.prog.telechat {
		// herd's telechat variant: RET leaves the thread.
		b.th.exits = append(b.th.exits, indirectJump{from: b.cur, pos: b.pos})
		b.cur, b.dead = b.p.NewLoc(""), true
		return nil
	}
	name := target.name
	if in.mnem == "BLR" {
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
func (b *builder) op2(ops []operand, width int) (xcfa.Expr, error) {
	if len(ops) == 0 || len(ops) > 2 {
		return nil, b.errorf(b.pos, "expected a register or an immediate operand")
	}
	o := ops[0]
	if o.kind == immOp {
		v := o.imm
		if len(ops) == 2 {
			s := ops[1]
			if s.kind != shiftOp || strings.ToUpper(s.name) != "LSL" {
				return nil, b.unsupported(s.pos, "immediate shift %q", s.text)
			}
			v <<= s.imm
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
	kind := strings.ToUpper(s.name)
	amount := int64(0)
	switch s.kind {
	case shiftOp:
		amount = s.imm
	case nameOp:
	default:
		return nil, b.errorf(s.pos, "expected a shift or an extension, found %q", s.text)
	}
	if amount < 0 || amount >= int64(width) {
		return nil, b.errorf(s.pos, "shift amount %d is out of range", amount)
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
		return nil, b.unsupported(s.pos, "operand modifier %q", s.text)
	}
	if amount > 4 {
		return nil, b.errorf(s.pos, "extension shift %d is out of range", amount)
	}
	if amount != 0 {
		e = bin(xcfa.Shl, e, cnst(amount))
	}
	return e, nil
}
