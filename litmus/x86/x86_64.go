package x86

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/x86/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// Translate64 turns the program part of an X86_64 test into an XCFA.
func Translate64(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	if err := t.RenameRegisters(stateRegister64); err != nil {
		return nil, err
	}
	prog, tab, err := translateTable(t, sec, (*builder).x86_64Instruction)
	if err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab, hashX86_64)
	return prog, nil
}

// regPart is the part of a 64-bit register a name views (X86_64Base's
// reg_part).
type regPart int

const (
	part64    regPart = iota // rax
	part32                   // eax
	part16                   // ax
	part8                    // al: the low byte
	part8High                // ah: the second byte
)

// reg64 is a register name of herd7's X86_64: the view part of the 64-bit
// register base (the XCFA register, named by its 64-bit name).
type reg64 struct {
	name string // as herd7 prints it: eax
	base string // rax
	part regPart
}

// x86_64Registers maps herd7's X86_64 register names, lower case, to the
// registers they view (X86Base_64.gen_regs).
var x86_64Registers = func() map[string]*reg64 {
	m := map[string]*reg64{}
	add := func(name, base string, part regPart) { m[name] = &reg64{name: name, base: base, part: part} }
	for _, r := range []string{"ax", "bx", "cx", "dx", "si", "di", "bp", "sp"} {
		base := "r" + r
		add(base, base, part64)
		add("e"+r, base, part32)
		add(r, base, part16)
		if r[1] == 'x' {
			add(r[:1]+"l", base, part8)
			add(r[:1]+"h", base, part8High)
		} else {
			add(r+"l", base, part8)
		}
	}
	for n := 8; n <= 15; n++ {
		base := "r" + strconv.Itoa(n)
		add(base, base, part64)
		add(base+"d", base, part32)
		add(base+"w", base, part16)
		add(base+"b", base, part8)
	}
	// herd7's program counter and code segment register, which its
	// X86_64 semantics reads and writes as whole registers like the others
	// (no instruction of its changes them implicitly).
	add("rip", "rip", part64)
	add("cs", "cs", part64)
	return m
}()

// x86_64Register returns the register a name denotes in any case, as
// herd7's lexer reads it, or nil.
func x86_64Register(name string) *reg64 { return x86_64Registers[strings.ToLower(name)] }

// is64BitRegister tells whether a name is one of herd7's 64-bit X86_64
// registers (rax ... r15), in any case.
func is64BitRegister(name string) bool {
	r := x86_64Register(name)
	return r != nil && r.part == part64
}

// stateRegister64 names a register of the initial state or the condition
// by its XCFA register: herd7 reads them by their 64-bit names, in any case.
func stateRegister64(l litmus.Loc) (string, error) {
	r := x86_64Register(l.Name)
	switch {
	case is64BitRegister(l.Name):
		return r.base, nil
	case r != nil:
		return "", source.Errorf(l.Pos, "register %s in a state or condition: herd7's X86_64 names registers there by their 64-bit names (%s)", l.Name, r.base)
	}
	return "", source.Errorf(l.Pos, "unsupported register %s: purr's X86_64 states and conditions name the general-purpose registers rax ... r15, rip and cs", l.Name)
}

// opSize is an instruction's operand size, from its mnemonic's suffix.
type opSize struct {
	suffix string // as herd7 prints it: "", "b", "w", "l", "q"
	bytes  int    // the size of its memory accesses
	bits   int    // the width herd7 keeps of the values it reads
}

// opSizes are herd7's sizes (X86_64Base.inst_size): without a suffix, an
// instruction accesses 4 bytes of memory (herd7's INSb is a Word) but
// keeps all 64 bits of what it reads.
var opSizes = map[string]opSize{
	"": {"", 4, 64}, "B": {"b", 1, 8}, "W": {"w", 2, 16}, "L": {"l", 4, 32}, "Q": {"q", 8, 64},
}

// sizedMnemonics take a size suffix: MOV, MOVB, MOVW, MOVL, MOVQ, ...
var sizedMnemonics = []string{"MOV", "ADD", "XOR", "OR", "AND", "SHL", "CMP", "INC", "DEC", "XCHG", "CMOVC", "CMPXCHG", "UXCH", "MOVNTI"}

// splitMnemonic splits a mnemonic into its base and its size.
func splitMnemonic(m string) (string, opSize) {
	for _, base := range sizedMnemonics {
		if rest, ok := strings.CutPrefix(m, base); ok {
			if s, ok := opSizes[rest]; ok {
				return base, s
			}
		}
	}
	return m, opSizes[""]
}

// not and or combine flags, which are 0 or 1.
func not(flag xcfa.Expr) xcfa.Expr { return bin(xcfa.Xor, flag, one) }
func or(x, y xcfa.Expr) xcfa.Expr  { return bin(xcfa.Or, x, y) }

// jumpConditions are the conditional jumps and when herd7 takes them
// (X86_64Sem.ml; X86 has JE and JNE only), as herd7 computes them from
// its flags: JLT is ZF or not SF, JGE is ZF or SF.
var jumpConditions = map[string]xcfa.Expr{
	"JE": zf, "JNE": not(zf), "JLE": not(sf), "JLT": or(zf, not(sf)),
	"JGE": or(zf, sf), "JGT": sf, "JS": sf, "JNS": not(sf),
}

// loc64 is an X86_64 operand that is read or written: a view of a
// register, or memory.
type loc64 struct {
	location
	reg *reg64 // nil for memory
}

// memAccess is a memory operand of an X86_64 instruction: its location,
// when it is written as one, and the size it accesses.
type memAccess struct {
	sym  string // x of (x); "" for an address a register holds
	size int    // bytes
	pos  source.Pos
	text string // the instruction
}

// operand64 resolves an operand that is not an immediate, recording a
// memory operand's access.
func (b *builder) operand64(o parser.Operand, size opSize) (loc64, error) {
	switch o.Kind {
	case parser.NameOp, parser.SymRegOp:
		r := x86_64Register(o.Name)
		switch {
		case r != nil:
			return loc64{location: location{reg: r.base}, reg: r}, nil
		case o.Kind == parser.SymRegOp:
			return loc64{}, source.Errorf(o.Pos, "unsupported symbolic register %s", o.Text)
		}
		return loc64{}, source.Errorf(o.Pos, "expected a register, (x), (%%reg) or $n, found %s", o.Text)
	case parser.MemOp:
		if o.Segment != "" && !strings.EqualFold(o.Segment, "cs") {
			return loc64{}, source.Errorf(o.Pos, "unsupported segment prefix %%%s: herd7's X86_64 has one segment register, cs", o.Segment)
		}
		acc := memAccess{size: size.bytes, pos: o.Pos, text: b.text}
		var addr xcfa.Expr
		switch r := x86_64Register(o.Name); {
		case r != nil && (r.base == "rip" || r.base == "cs"):
			return loc64{}, source.Errorf(o.Pos, "unsupported address register %%%s: purr reads addresses from the general-purpose registers", r.name)
		case r != nil && r.part != part64:
			return loc64{}, source.Errorf(o.Pos, "unsupported address register %%%s: purr reads addresses from 64-bit registers (%%%s)", r.name, r.base)
		case r != nil:
			addr = xcfa.Reg{Name: r.base}
			if o.Imm != 0 {
				addr = bin(xcfa.Add, addr, xcfa.Const{Value: o.Imm})
			}
			if o.Index != "" {
				idx, err := b.index64(o)
				if err != nil {
					return loc64{}, err
				}
				if idx != nil {
					addr = bin(xcfa.Add, addr, idx)
				}
			}
		case o.Index != "":
			return loc64{}, source.Errorf(o.Pos, "an indexed address needs a base register, as in (%%rax,%%rcx,4), found %s", o.Text)
		case o.Percent:
			return loc64{}, source.Errorf(o.Pos, "unsupported symbolic register %%%s", o.Name)
		case o.Disp:
			return loc64{}, source.Errorf(o.Pos, "a displacement needs a register address, as in 8(%%rax), found %s", o.Text)
		default:
			addr, acc.sym = xcfa.Sym{Name: o.Name}, o.Name
		}
		b.prog.accesses = append(b.prog.accesses, acc)
		return loc64{location: location{addr: addr}}, nil
	case parser.ImmOp:
		return loc64{}, source.Errorf(o.Pos, "an immediate cannot be written to: %s", o.Text)
	}
	return loc64{}, source.Errorf(o.Pos, "unsupported absolute address %s: purr reads symbolic locations (x) only", o.Text)
}

// index64 is the index part of an indexed address, (base,index,scale):
// herd7's index register (its view's bits) times the scale, nil when the
// scale is 0 (herd7 adds index*0).
func (b *builder) index64(o parser.Operand) (xcfa.Expr, error) {
	r := x86_64Register(o.Index)
	if r == nil || r.base == "rip" || r.base == "cs" {
		return nil, source.Errorf(o.Pos, "unsupported index %%%s in %s: an index is a general-purpose register", o.Index, o.Text)
	}
	if o.Scale == 0 {
		return nil, nil
	}
	v := b.load64(loc64{location: location{reg: r.base}, reg: r}, opSizes["Q"], nil, 0)
	if o.Scale == 1 {
		return v, nil
	}
	return bin(xcfa.Mul, v, xcfa.Const{Value: o.Scale}), nil
}

// lowBits are the widths the narrow views keep.
var lowBits = map[xcfa.UnOp]int{xcfa.Low8: 8, xcfa.Low16: 16, xcfa.Low32: 32}

// keep keeps the low bits of a value, as herd7 masks what it reads.
func keep(v xcfa.Expr, bits int) xcfa.Expr {
	if bits >= 64 {
		return v
	}
	switch v := v.(type) {
	case xcfa.Const:
		return xcfa.Const{Value: int64(uint64(v.Value) & (1<<bits - 1))}
	case xcfa.Unary:
		if w, ok := lowBits[v.Op]; ok && w <= bits {
			return v // already as narrow
		}
	}
	op := map[int]xcfa.UnOp{8: xcfa.Low8, 16: xcfa.Low16, 32: xcfa.Low32}[bits]
	return xcfa.Unary{Op: op, X: v}
}

// load64 reads an operand and keeps the bits its instruction reads
// (herd7's read_loc_gen): a register view reads its part of the register.
func (b *builder) load64(l loc64, size opSize, tags []string, rmw int) xcfa.Expr {
	if l.reg == nil {
		return keep(b.read(l.location, tags, rmw), size.bits)
	}
	var v xcfa.Expr = xcfa.Reg{Name: l.reg.base}
	switch l.reg.part {
	case part32:
		v = keep(v, 32)
	case part16:
		v = keep(v, 16)
	case part8:
		v = keep(v, 8)
	case part8High:
		v = keep(bin(xcfa.Shr, v, xcfa.Const{Value: 8}), 8)
	}
	return keep(v, size.bits)
}

// store64 writes an operand as herd7's write_reg does: a 32-bit or 64-bit
// view replaces the register, a 16-bit or 8-bit one replaces its part of
// it. herd7 does not mask the value written.
func (b *builder) store64(l loc64, v xcfa.Expr, tags []string, rmw int) {
	if l.reg == nil {
		b.write(l.location, v, tags, rmw)
		return
	}
	old := xcfa.Reg{Name: l.reg.base}
	merge := func(clear int64, v xcfa.Expr) xcfa.Expr {
		return or(bin(xcfa.And, old, xcfa.Const{Value: ^clear}), v)
	}
	switch l.reg.part {
	case part16:
		v = merge(0xffff, v)
	case part8:
		v = merge(0xff, v)
	case part8High:
		if c, ok := v.(xcfa.Const); ok {
			v = xcfa.Const{Value: c.Value << 8}
		} else {
			v = bin(xcfa.Shl, v, xcfa.Const{Value: 8})
		}
		v = merge(0xff00, v)
	}
	b.assign(l.reg.base, v)
}

// value64 reads a source operand: an immediate as is (herd7 does not mask
// it), anything else as load64 does.
func (b *builder) value64(o parser.Operand, size opSize) (xcfa.Expr, error) {
	if o.Kind == parser.ImmOp {
		return xcfa.Const{Value: o.Imm}, nil
	}
	l, err := b.operand64(o, size)
	if err != nil {
		return nil, err
	}
	return b.load64(l, size, nil, 0), nil
}

// x86_64Instruction translates one X86_64 instruction (AT&T order: the
// destination last).
func (b *builder) x86_64Instruction(in *parser.Instr) error {
	return b.instruction64(in, false)
}

// instruction64 translates an instruction, locked when it follows LOCK:
// then its memory accesses are atomic (tag X) and paired.
func (b *builder) instruction64(in *parser.Instr, locked bool) error {
	base, size := splitMnemonic(in.Mnem)
	if in.Locked != nil {
		inner, _ := splitMnemonic(in.Locked.Mnem)
		switch inner {
		case "ADD", "XOR", "INC", "DEC", "XCHG", "CMPXCHG": // CMPXCHG: refused there
			return b.instruction64(in.Locked, true)
		case "LOCK":
			return source.Errorf(in.Locked.Pos, "LOCK prefix twice")
		}
		return source.Errorf(in.Pos, "unsupported LOCK prefix on %s: herd7 refuses it", in.Locked.Mnem)
	}
	if cond, ok := jumpConditions[base]; ok {
		return b.jump(in, cond)
	}
	switch base {
	case "NOP", "ENDBR64":
		// ENDBR64 marks an indirect branch target (CET): nothing a litmus
		// test observes.
		return b.operands(in, 0)
	case "MFENCE", "SFENCE", "LFENCE":
		if err := b.operands(in, 0); err != nil {
			return err
		}
		b.emit(xcfa.Fence{Tags: []string{base}})
	case "JMP":
		return b.jump(in, nil)
	case "MOV":
		return b.mov64(in, size)
	case "ADD", "XOR", "OR", "AND", "SHL":
		return b.arith64(in, size, locked)
	case "INC", "DEC":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.operand64(in.Ops[0], size)
		if err != nil {
			return err
		}
		tags, rmw := b.lockedAccess(dst, locked)
		op := map[string]xcfa.BinOp{"INC": xcfa.Add, "DEC": xcfa.Sub}[base]
		res := b.result(bin(op, b.load64(dst, size, tags, rmw), one))
		b.store64(dst, res, tags, rmw)
		b.setFlags(res, zero, false)
	case "CMP":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		if in.Ops[1].Kind == parser.ImmOp {
			return source.Errorf(in.Ops[1].Pos, "%s's second operand must be a register or memory, found %s", in.Mnem, in.Ops[1].Text)
		}
		x, err := b.value64(in.Ops[1], size)
		if err != nil {
			return err
		}
		y, err := b.value64(in.Ops[0], size)
		if err != nil {
			return err
		}
		b.setFlags(x, y, true)
	case "SETNB":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.operand64(in.Ops[0], size)
		if err != nil {
			return err
		}
		// herd7 writes the whole location, even through a register view.
		b.write(dst.location, not(cf), nil, 0)
	case "CMOVC":
		return b.cmovc64(in, size)
	case "XCHG":
		return b.xchg64(in, size)
	case "CMPXCHG":
		return b.cmpxchg64(in, size, locked)
	case "UXCH", "MOVNTI":
		return source.Errorf(in.Pos, "unsupported instruction %s: purr does not model herd7's unlocked exchange and non-temporal stores", in.Mnem)
	default:
		return source.Errorf(in.Pos, "unsupported instruction %s", in.Mnem)
	}
	return nil
}

// lockedAccess gives the tags and the RMW id of a locked instruction's
// accesses to l: none unless l is memory and the instruction is locked.
func (b *builder) lockedAccess(l loc64, locked bool) ([]string, int) {
	if !locked || l.reg != nil {
		return nil, 0
	}
	return []string{"X"}, b.freshRMW()
}

// mov64 is MOV src,dst.
func (b *builder) mov64(in *parser.Instr, size opSize) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	dst, err := b.operand64(in.Ops[1], size)
	if err != nil {
		return err
	}
	src := in.Ops[0]
	if dst.reg != nil && (dst.reg.part == part64 || dst.reg.part == part32) && src.Kind == parser.MemOp && size.bits == 64 {
		// A load straight into its register, as herd7's one read event:
		// nothing of the value is masked.
		from, err := b.operand64(src, size)
		if err != nil {
			return err
		}
		b.emit(xcfa.Load{Dst: dst.reg.base, Addr: from.addr})
		return nil
	}
	v, err := b.value64(src, size)
	if err != nil {
		return err
	}
	b.store64(dst, v, nil, 0)
	return nil
}

// arith64 is ADD, XOR, OR and AND src,dst: dst := dst op src, with
// herd7's flags of the result.
func (b *builder) arith64(in *parser.Instr, size opSize, locked bool) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	dst, err := b.operand64(in.Ops[1], size)
	if err != nil {
		return err
	}
	tags, rmw := b.lockedAccess(dst, locked)
	old := b.load64(dst, size, tags, rmw)
	v, err := b.value64(in.Ops[0], size)
	if err != nil {
		return err
	}
	base, _ := splitMnemonic(in.Mnem)
	op := map[string]xcfa.BinOp{"ADD": xcfa.Add, "XOR": xcfa.Xor, "OR": xcfa.Or, "AND": xcfa.And, "SHL": xcfa.Shl}[base]
	res := b.result(bin(op, old, v))
	b.store64(dst, res, tags, rmw)
	b.setFlags(res, zero, true)
	return nil
}

// cmpxchg64 is herd7's CMPXCHG ea,r (its operand order: the destination
// first): ZF := ea == rax; then ea := r when equal, else rax := ea, each
// read keeping the instruction's size.
func (b *builder) cmpxchg64(in *parser.Instr, size opSize, locked bool) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	if k := in.Ops[1].Kind; k != parser.NameOp && k != parser.SymRegOp {
		return source.Errorf(in.Ops[1].Pos, "%s's second operand must be a register (herd7's X86_64 reads cmpxchg ea,reg, the destination first), found %s", in.Mnem, in.Ops[1].Text)
	}
	if in.Ops[0].Kind == parser.ImmOp {
		return source.Errorf(in.Ops[0].Pos, "%s's first operand must be a register or memory, found %s", in.Mnem, in.Ops[0].Text)
	}
	dst, err := b.operand64(in.Ops[0], size)
	if err != nil {
		return err
	}
	srcLoc, err := b.operand64(in.Ops[1], size)
	if err != nil {
		return err
	}
	rax := x86_64Register("rax")
	accLoc := loc64{location: location{reg: rax.base}, reg: rax}
	acc := b.result(b.load64(accLoc, size, nil, 0))
	src := b.result(b.load64(srcLoc, size, nil, 0))
	if dst.reg != nil {
		old := b.result(b.load64(dst, size, nil, 0))
		eq := bin(xcfa.Eq, old, acc)
		b.assign(zf.Name, eq)
		return b.choose(eq, func() error { b.store64(dst, src, nil, 0); return nil },
			func() error { b.store64(accLoc, old, nil, 0); return nil })
	}
	b.cmpxchg(dst.addr, func(v xcfa.Expr) xcfa.Expr { return keep(v, size.bits) }, acc, src,
		func(old xcfa.Expr) { b.store64(accLoc, old, nil, 0) }, locked)
	return nil
}

// cmovc64 is herd7's CMOVC r,ea: r := ea when CF is non-zero.
func (b *builder) cmovc64(in *parser.Instr, size opSize) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	if k := in.Ops[0].Kind; k != parser.NameOp && k != parser.SymRegOp {
		return source.Errorf(in.Ops[0].Pos, "%s's first operand must be a register, found %s", in.Mnem, in.Ops[0].Text)
	}
	dst, err := b.operand64(in.Ops[0], size)
	if err != nil {
		return err
	}
	if in.Ops[1].Kind == parser.ImmOp {
		return source.Errorf(in.Ops[1].Pos, "%s's second operand must be a register or memory, found %s", in.Mnem, in.Ops[1].Text)
	}
	return b.choose(cf, func() error {
		v, err := b.value64(in.Ops[1], size)
		if err != nil {
			return err
		}
		b.store64(dst, v, nil, 0)
		return nil
	}, nil)
}

// xchg64 is XCHG: with a memory operand, herd7's exchange is atomic
// whether or not LOCK precedes it: the read and the write of memory are
// tagged X and paired.
func (b *builder) xchg64(in *parser.Instr, size opSize) error {
	if err := b.operands(in, 2); err != nil {
		return err
	}
	for _, o := range in.Ops {
		if o.Kind == parser.ImmOp {
			return source.Errorf(o.Pos, "%s exchanges registers or memory, found %s", in.Mnem, o.Text)
		}
	}
	x, err := b.operand64(in.Ops[0], size)
	if err != nil {
		return err
	}
	y, err := b.operand64(in.Ops[1], size)
	if err != nil {
		return err
	}
	if x.reg != nil && y.reg != nil {
		vx, vy := b.result(b.load64(x, size, nil, 0)), b.result(b.load64(y, size, nil, 0))
		b.store64(x, vy, nil, 0)
		b.store64(y, vx, nil, 0)
		return nil
	}
	mem, reg := x, y
	if y.reg == nil {
		mem, reg = y, x
	}
	tags, rmw := b.lockedAccess(mem, true)
	v := b.result(b.load64(reg, size, nil, 0))
	old := keep(b.exchange(mem.location, v, tags, rmw), size.bits)
	b.store64(reg, old, nil, 0)
	return nil
}

// herd7 prints an X86_64 instruction for the hash as
// X86_64Base.dump_instruction does: AT&T order, operands joined by ","
// with no blank, the mnemonic in lower case with the size suffix written,
// immediates "$n" in decimal, registers "%eax" (lower case), memory "(x)"
// (also for [x]) and "8(%rax)", a zero displacement not printed; jumps
// "jl" and "jg" for JLT and JGT; "lock; " before a locked instruction;
// NOP as "NOP".

func hashX86_64(in *parser.Instr, rename map[string]string) string {
	if in.Locked != nil {
		return "lock; " + hashX86_64(in.Locked, rename)
	}
	base, size := splitMnemonic(in.Mnem)
	switch base {
	case "NOP":
		return "NOP"
	case "JLT":
		base = "JL"
	case "JGT":
		base = "JG"
	}
	ops := make([]string, len(in.Ops))
	for i, o := range in.Ops {
		ops[i] = hashOperand64(o, rename)
	}
	m := strings.ToLower(base) + size.suffix
	if len(ops) == 0 {
		return m
	}
	return m + " " + strings.Join(ops, ",")
}

func hashOperand64(o parser.Operand, rename map[string]string) string {
	switch o.Kind {
	case parser.ImmOp:
		return "$" + strconv.FormatInt(o.Imm, 10)
	case parser.MemOp:
		r := x86_64Register(o.Name)
		if r == nil {
			return "(" + o.Name + ")"
		}
		disp := ""
		if o.Imm != 0 {
			disp = strconv.FormatInt(o.Imm, 10)
		}
		if o.Index != "" {
			// herd7's Rm64_scaled: a blank after the first comma, a zero
			// scale not printed.
			scale := ""
			if o.Scale != 0 {
				scale = strconv.FormatInt(o.Scale, 10)
			}
			index := o.Index
			if x := x86_64Register(o.Index); x != nil {
				index = x.name
			}
			return disp + "(%" + r.name + ", %" + index + "," + scale + ")"
		}
		return disp + "(%" + r.name + ")"
	}
	if r := x86_64Register(o.Name); r != nil {
		return "%" + r.name
	}
	if l, ok := rename[o.Name]; ok {
		return l
	}
	return o.Name
}
