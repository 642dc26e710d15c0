package x86

import (
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/xcfa"
)

// The registers of herd7's X86 (X86Base.regs); EIP is its program counter,
// which no instruction of a test may name.
var registers = map[string]bool{"EAX": true, "EBX": true, "ECX": true, "EDX": true, "ESI": true, "EDI": true,
	"EBP": true, "ESP": true, "ZF": true, "SF": true, "CF": true}

// checkRegister refuses a name that is not one of herd7's X86 registers.
func checkRegister(name string, pos xcfa.Pos) error {
	switch u := strings.ToUpper(name); {
	case registers[name]:
		return nil
	case name == "EIP":
		return litmus.Errorf(pos, "unsupported register EIP: it is herd7's X86 program counter")
	case registers[u] || u == "EIP":
		return litmus.Errorf(pos, "unknown register %s: herd7's X86 registers are upper case (%s)", name, u)
	case u == "RIP" || is64BitRegister(name):
		// herd7's X86 lexes them as plain names: X86_64 is another of its
		// architectures.
		return litmus.Errorf(pos, "unsupported register %s: 64-bit registers belong to herd7's X86_64, not to X86", name)
	}
	return litmus.Errorf(pos, "expected a register, [x], [REG] or $n, found %s", name)
}

// stateRegister checks a register of the test's state, locations, filter
// or condition: herd7 refuses a name that is none of its X86 registers
// (EIP included: herd7 reads it there), as it does 1:EXX.
func stateRegister(l litmus.Loc) (string, error) {
	if registers[l.Name] || l.Name == "EIP" {
		return l.Name, nil
	}
	return "", litmus.Errorf(l.Pos, "%s is not a register of herd7's X86 (herd7: %q)", l.Name, l.Name+" is not a register")
}

// lvalue resolves an operand that is written (or read and written).
func (b *builder) lvalue(o operand) (location, error) {
	switch o.kind {
	case nameOp:
		if err := checkRegister(o.name, o.pos); err != nil {
			return location{}, err
		}
		return location{reg: o.name}, nil
	case memOp:
		switch {
		case o.percent:
			return location{}, litmus.Errorf(o.pos, "unsupported symbolic register %%%s", o.name)
		case o.disp:
			return location{}, litmus.Errorf(o.pos, "unsupported displacement in %s: herd7's X86 has none", o.text)
		case registers[o.name]:
			return location{addr: xcfa.Reg{Name: o.name}}, nil
		case o.paren || o.name == "EIP":
			// herd7 reads (R) of a register only; [EIP] would read the
			// program counter.
			return location{}, checkRegister(o.name, o.pos)
		}
		// herd7 reads any other name, eax included, as a location.
		return location{addr: xcfa.Sym{Name: o.name}}, nil
	case immOp:
		return location{}, litmus.Errorf(o.pos, "an immediate cannot be written to: %s", o.text)
	case absOp:
		return location{}, litmus.Errorf(o.pos, "unsupported absolute address %s: purr reads symbolic locations [x] only", o.text)
	}
	return location{}, litmus.Errorf(o.pos, "unsupported symbolic register %%%s", o.name)
}

// rvalue reads a source operand.
func (b *builder) rvalue(o operand) (xcfa.Expr, error) {
	if o.kind == immOp {
		return xcfa.Const{Value: o.imm}, nil
	}
	l, err := b.lvalue(o)
	if err != nil {
		return nil, err
	}
	return b.read(l, nil, 0), nil
}

// x86Instruction translates one X86 instruction.
func (b *builder) x86Instruction(in *instr) error {
	return b.instruction32(in, false)
}

// instruction32 translates an instruction, locked when it follows LOCK:
// then its memory accesses are atomic (tag X) and paired.
func (b *builder) instruction32(in *instr, locked bool) error {
	switch in.mnem {
	case "MFENCE", "SFENCE", "LFENCE":
		if err := b.operands(in, 0); err != nil {
			return err
		}
		b.emit(xcfa.Fence{Tags: []string{in.mnem}})
	case "MOV", "MOVQ":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		dst, err := b.lvalue(in.ops[0])
		if err != nil {
			return err
		}
		if src := in.ops[1]; dst.addr == nil && src.kind == memOp {
			// A load straight into its register, as herd7's one read event.
			from, err := b.lvalue(src)
			if err != nil {
				return err
			}
			b.emit(xcfa.Load{Dst: dst.reg, Addr: from.addr})
			return nil
		}
		v, err := b.rvalue(in.ops[1])
		if err != nil {
			return err
		}
		b.write(dst, v, nil, 0)
	case "ADD", "XOR":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		dst, err := b.lvalue(in.ops[0])
		if err != nil {
			return err
		}
		tags, rmw := b.lockedAccess32(dst, locked)
		old := b.read(dst, tags, rmw)
		v, err := b.rvalue(in.ops[1])
		if err != nil {
			return err
		}
		op := xcfa.Add
		if in.mnem == "XOR" {
			op = xcfa.Xor
		}
		res := b.result(bin(op, old, v))
		b.write(dst, res, tags, rmw)
		b.setFlags(res, zero, true)
	case "INC", "DEC":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.lvalue(in.ops[0])
		if err != nil {
			return err
		}
		op := xcfa.Add
		if in.mnem == "DEC" {
			op = xcfa.Sub
		}
		tags, rmw := b.lockedAccess32(dst, locked)
		res := b.result(bin(op, b.read(dst, tags, rmw), one))
		b.write(dst, res, tags, rmw)
		b.setFlags(res, zero, false)
	case "CMP":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		if in.ops[0].kind == immOp {
			return litmus.Errorf(in.ops[0].pos, "CMP's first operand must be a register or memory, found %s", in.ops[0].text)
		}
		x, err := b.rvalue(in.ops[0])
		if err != nil {
			return err
		}
		y, err := b.rvalue(in.ops[1])
		if err != nil {
			return err
		}
		b.setFlags(x, y, true)
	case "SETNB":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.lvalue(in.ops[0])
		if err != nil {
			return err
		}
		b.write(dst, bin(xcfa.Xor, cf, one), nil, 0)
	case "CMOVC":
		return b.cmovc(in)
	case "XCHG":
		return b.xchg(in)
	case "JMP":
		return b.jump(in, nil)
	case "JE", "JNE":
		return b.jump(in, jumpConditions[in.mnem])
	case "LOCK":
		switch inner := in.locked; inner.mnem {
		case "ADD", "XOR", "INC", "DEC":
			return b.instruction32(inner, true)
		case "XCHG": // locked anyway
			return b.xchg(inner)
		case "LOCK":
			return litmus.Errorf(inner.pos, "LOCK prefix twice")
		default:
			return litmus.Errorf(in.pos, "unsupported LOCK prefix on %s: purr models LOCK before ADD, XOR, INC, DEC and XCHG", inner.mnem)
		}
	case "CMPXCHG", "MOVSD":
		return litmus.Errorf(in.pos, "unsupported instruction %s: herd7 does not implement it", in.mnem)
	case "OR", "MOVB", "MOVW", "MOVL", "MOVT":
		return litmus.Errorf(in.pos, "unsupported instruction %s: herd7's X86 semantics has no case for it", in.mnem)
	default:
		return litmus.Errorf(in.pos, "unsupported instruction %s", in.mnem)
	}
	return nil
}

// lockedAccess32 gives the tags and the RMW id of a locked instruction's
// accesses to l: none unless l is memory and the instruction is locked.
func (b *builder) lockedAccess32(l location, locked bool) ([]string, int) {
	if !locked || l.addr == nil {
		return nil, 0
	}
	return []string{"X"}, b.freshRMW()
}

// cmovc is CMOVC r,ea: r := ea when CF is non-zero.
func (b *builder) cmovc(in *instr) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	if in.ops[0].kind != nameOp {
		return litmus.Errorf(in.ops[0].pos, "CMOVC's first operand must be a register, found %s", in.ops[0].text)
	}
	dst, err := b.lvalue(in.ops[0])
	if err != nil {
		return err
	}
	if in.ops[1].kind == immOp {
		return litmus.Errorf(in.ops[1].pos, "CMOVC's second operand must be a register or memory, found %s", in.ops[1].text)
	}
	return b.choose(cf, func() error {
		v, err := b.rvalue(in.ops[1])
		if err != nil {
			return err
		}
		b.write(dst, v, nil, 0)
		return nil
	})
}

// xchg is herd7's locked exchange: with a memory operand, the read and the
// write of memory are atomic (tag X) and paired.
func (b *builder) xchg(in *instr) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	for _, o := range in.ops {
		if o.kind == immOp {
			return litmus.Errorf(o.pos, "XCHG exchanges registers or memory, found %s", o.text)
		}
	}
	x, err := b.lvalue(in.ops[0])
	if err != nil {
		return err
	}
	y, err := b.lvalue(in.ops[1])
	if err != nil {
		return err
	}
	if x.addr == nil && y.addr == nil {
		t := b.tmp()
		b.assign(t, xcfa.Reg{Name: x.reg})
		b.assign(x.reg, xcfa.Reg{Name: y.reg})
		b.assign(y.reg, xcfa.Reg{Name: t})
		return nil
	}
	mem, reg := x, y
	if y.addr != nil {
		mem, reg = y, x
	}
	rmw := b.freshRMW()
	atomic := []string{"X"}
	old := b.read(mem, atomic, rmw)
	b.write(mem, xcfa.Reg{Name: reg.reg}, atomic, rmw)
	b.assign(reg.reg, old)
	return nil
}
