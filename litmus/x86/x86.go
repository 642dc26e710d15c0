package x86

import (
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/x86/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// The registers of herd7's X86 (X86Base.regs); EIP is its program counter,
// which no instruction of a test may name.
var registers = map[string]bool{"EAX": true, "EBX": true, "ECX": true, "EDX": true, "ESI": true, "EDI": true,
	"EBP": true, "ESP": true, "ZF": true, "SF": true, "CF": true}

// checkRegister refuses a name that is not one of herd7's X86 registers.
func checkRegister(name string, pos source.Pos) error {
	switch u := strings.ToUpper(name); {
	case registers[name]:
		return nil
	case name == "EIP":
		return source.Errorf(pos, "unsupported register EIP: it is herd7's X86 program counter")
	case registers[u] || u == "EIP":
		return source.Errorf(pos, "unknown register %s: herd7's X86 registers are upper case (%s)", name, u)
	case u == "RIP" || is64BitRegister(name):
		// herd7's X86 lexes them as plain names: X86_64 is another of its
		// architectures.
		return source.Errorf(pos, "unsupported register %s: 64-bit registers belong to herd7's X86_64, not to X86", name)
	}
	return source.Errorf(pos, "expected a register, [x], [REG] or $n, found %s", name)
}

// stateRegister checks a register of the test's state, locations, filter
// or condition: herd7 refuses a name that is none of its X86 registers
// (EIP included: herd7 reads it there), as it does 1:EXX.
func stateRegister(l litmus.Loc) (string, error) {
	if registers[l.Name] || l.Name == "EIP" {
		return l.Name, nil
	}
	return "", source.Errorf(l.Pos, "%s is not a register of herd7's X86 (herd7: %q)", l.Name, l.Name+" is not a register")
}

// lvalue resolves an operand that is written (or read and written).
func (b *builder) lvalue(o parser.Operand) (location, error) {
	switch o.Kind {
	case parser.NameOp:
		if err := checkRegister(o.Name, o.Pos); err != nil {
			return location{}, err
		}
		return location{reg: o.Name}, nil
	case parser.MemOp:
		switch {
		case o.Index != "":
			return location{}, source.Errorf(o.Pos, "unsupported indexed address %s: herd7's X86 has none (X86_64 has)", o.Text)
		case o.Segment != "":
			return location{}, source.Errorf(o.Pos, "unsupported segment prefix in %s: herd7's X86 has none", o.Text)
		case o.Percent:
			return location{}, source.Errorf(o.Pos, "unsupported symbolic register %%%s", o.Name)
		case o.Disp:
			return location{}, source.Errorf(o.Pos, "unsupported displacement in %s: herd7's X86 has none", o.Text)
		case registers[o.Name]:
			return location{addr: xcfa.Reg{Name: o.Name}}, nil
		case o.Paren || o.Name == "EIP":
			// herd7 reads (R) of a register only; [EIP] would read the
			// program counter.
			return location{}, checkRegister(o.Name, o.Pos)
		}
		// herd7 reads any other name, eax included, as a location.
		return location{addr: xcfa.Sym{Name: o.Name}}, nil
	case parser.ImmOp:
		return location{}, source.Errorf(o.Pos, "an immediate cannot be written to: %s", o.Text)
	case parser.AbsOp:
		return location{}, source.Errorf(o.Pos, "unsupported absolute address %s: purr reads symbolic locations [x] only", o.Text)
	}
	return location{}, source.Errorf(o.Pos, "unsupported symbolic register %%%s", o.Name)
}

// rvalue reads a source operand.
func (b *builder) rvalue(o parser.Operand) (xcfa.Expr, error) {
	if o.Kind == parser.ImmOp {
		return xcfa.Const{Value: o.Imm}, nil
	}
	l, err := b.lvalue(o)
	if err != nil {
		return nil, err
	}
	return b.read(l, nil, 0), nil
}

// x86Instruction translates one X86 instruction.
func (b *builder) x86Instruction(in *parser.Instr) error {
	return b.instruction32(in, false)
}

// instruction32 translates an instruction, locked when it follows LOCK:
// then its memory accesses are atomic (tag X) and paired.
func (b *builder) instruction32(in *parser.Instr, locked bool) error {
	switch in.Mnem {
	case "MFENCE", "SFENCE", "LFENCE":
		if err := b.operands(in, 0); err != nil {
			return err
		}
		b.emit(xcfa.Fence{Tags: []string{in.Mnem}})
	case "MOV", "MOVQ":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		dst, err := b.lvalue(in.Ops[0])
		if err != nil {
			return err
		}
		if src := in.Ops[1]; dst.addr == nil && src.Kind == parser.MemOp {
			// A load straight into its register, as herd7's one read event.
			from, err := b.lvalue(src)
			if err != nil {
				return err
			}
			b.emit(xcfa.Load{Dst: dst.reg, Addr: from.addr})
			return nil
		}
		v, err := b.rvalue(in.Ops[1])
		if err != nil {
			return err
		}
		b.write(dst, v, nil, 0)
	case "ADD", "XOR":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		dst, err := b.lvalue(in.Ops[0])
		if err != nil {
			return err
		}
		tags, rmw := b.lockedAccess32(dst, locked)
		old := b.read(dst, tags, rmw)
		v, err := b.rvalue(in.Ops[1])
		if err != nil {
			return err
		}
		op := xcfa.Add
		if in.Mnem == "XOR" {
			op = xcfa.Xor
		}
		res := b.result(bin(op, old, v))
		b.write(dst, res, tags, rmw)
		b.setFlags(res, zero, true)
	case "INC", "DEC":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.lvalue(in.Ops[0])
		if err != nil {
			return err
		}
		op := xcfa.Add
		if in.Mnem == "DEC" {
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
		if in.Ops[0].Kind == parser.ImmOp {
			return source.Errorf(in.Ops[0].Pos, "CMP's first operand must be a register or memory, found %s", in.Ops[0].Text)
		}
		x, err := b.rvalue(in.Ops[0])
		if err != nil {
			return err
		}
		y, err := b.rvalue(in.Ops[1])
		if err != nil {
			return err
		}
		b.setFlags(x, y, true)
	case "SETNB":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.lvalue(in.Ops[0])
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
		return b.jump(in, jumpConditions[in.Mnem])
	case "CMPXCHG":
		return b.cmpxchg32(in, locked)
	case "LOCK":
		switch inner := in.Locked; inner.Mnem {
		case "ADD", "XOR", "INC", "DEC", "CMPXCHG":
			return b.instruction32(inner, true)
		case "XCHG": // locked anyway
			return b.xchg(inner)
		case "LOCK":
			return source.Errorf(inner.Pos, "LOCK prefix twice")
		default:
			return source.Errorf(in.Pos, "unsupported LOCK prefix on %s: purr models LOCK before ADD, XOR, INC, DEC, XCHG and CMPXCHG", inner.Mnem)
		}
	case "MOVSD":
		return source.Errorf(in.Pos, "unsupported instruction %s: herd7 does not implement it", in.Mnem)
	case "OR", "MOVB", "MOVW", "MOVL", "MOVT":
		return source.Errorf(in.Pos, "unsupported instruction %s: herd7's X86 semantics has no case for it", in.Mnem)
	default:
		return source.Errorf(in.Pos, "unsupported instruction %s", in.Mnem)
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

// cmpxchg32 is CMPXCHG ea,r (Intel order, the destination first), which
// herd7's X86 does not implement (it stops with "I_CMPXCHG not
// implemented"): purr gives it herd7's X86_64 semantics with EAX as the
// accumulator: ZF := ea == EAX; then ea := r when equal, else EAX := ea.
func (b *builder) cmpxchg32(in *parser.Instr, locked bool) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	if in.Ops[1].Kind != parser.NameOp {
		return source.Errorf(in.Ops[1].Pos, "CMPXCHG's second operand must be a register, found %s", in.Ops[1].Text)
	}
	if in.Ops[0].Kind == parser.ImmOp {
		return source.Errorf(in.Ops[0].Pos, "CMPXCHG's first operand must be a register or memory, found %s", in.Ops[0].Text)
	}
	dst, err := b.lvalue(in.Ops[0])
	if err != nil {
		return err
	}
	src, err := b.rvalue(in.Ops[1])
	if err != nil {
		return err
	}
	acc := xcfa.Reg{Name: "EAX"}
	if dst.addr == nil {
		old := b.result(xcfa.Reg{Name: dst.reg})
		eq := bin(xcfa.Eq, old, acc)
		b.assign(zf.Name, eq)
		return b.choose(eq, func() error { b.assign(dst.reg, src); return nil },
			func() error { b.assign(acc.Name, old); return nil })
	}
	b.cmpxchg(dst.addr, func(v xcfa.Expr) xcfa.Expr { return v }, acc, src,
		func(old xcfa.Expr) { b.assign(acc.Name, old) }, locked)
	return nil
}

// cmovc is CMOVC r,ea: r := ea when CF is non-zero.
func (b *builder) cmovc(in *parser.Instr) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	if in.Ops[0].Kind != parser.NameOp {
		return source.Errorf(in.Ops[0].Pos, "CMOVC's first operand must be a register, found %s", in.Ops[0].Text)
	}
	dst, err := b.lvalue(in.Ops[0])
	if err != nil {
		return err
	}
	if in.Ops[1].Kind == parser.ImmOp {
		return source.Errorf(in.Ops[1].Pos, "CMOVC's second operand must be a register or memory, found %s", in.Ops[1].Text)
	}
	return b.choose(cf, func() error {
		v, err := b.rvalue(in.Ops[1])
		if err != nil {
			return err
		}
		b.write(dst, v, nil, 0)
		return nil
	}, nil)
}

// xchg is herd7's locked exchange: with a memory operand, the read and the
// write of memory are atomic (tag X) and paired.
func (b *builder) xchg(in *parser.Instr) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	for _, o := range in.Ops {
		if o.Kind == parser.ImmOp {
			return source.Errorf(o.Pos, "XCHG exchanges registers or memory, found %s", o.Text)
		}
	}
	x, err := b.lvalue(in.Ops[0])
	if err != nil {
		return err
	}
	y, err := b.lvalue(in.Ops[1])
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
	old := b.exchange(mem, xcfa.Reg{Name: reg.reg}, []string{"X"}, b.freshRMW())
	b.assign(reg.reg, old)
	return nil
}
