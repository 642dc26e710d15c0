package x86

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/xcfa"
)

func init() {
	litmus.RegisterDialect("X86", Translate)
}

// Translate turns the program part of an X86 test into an XCFA.
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	tab, err := parseTable(sec)
	if err != nil {
		return nil, err
	}
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch, Source: map[xcfa.Pos]string{}}
	builders := make([]*builder, len(tab.procs))
	rmw := 0
	for i, ph := range tab.procs {
		id, ok := procNumber(ph.name)
		if !ok {
			return nil, litmus.Errorf(ph.pos, "expected a thread name P0, P1, ..., found %q", ph.name)
		}
		if err := litmus.CheckThreadOrder(ph.pos, i, id); err != nil {
			return nil, err
		}
		p := xcfa.NewProcess(id)
		prog.Procs = append(prog.Procs, p)
		builders[i] = &builder{p: p, cur: p.Init, labels: map[string]*xcfa.Location{},
			defined: map[string]bool{}, refs: map[string]xcfa.Pos{}, rmw: &rmw}
	}
	for r, row := range tab.rows {
		if len(row) > len(tab.procs) {
			return nil, litmus.Errorf(tab.rowPos[r], "this row has %d cells but the program has %d threads", len(row), len(tab.procs))
		}
		for i, c := range row {
			b := builders[i]
			for _, l := range c.labels {
				if err := b.defineLabel(l.name, l.pos); err != nil {
					return nil, err
				}
			}
			if c.instr != nil {
				prog.Source[c.instr.pos] = c.instr.text
				b.pos = c.instr.pos
				if err := b.instruction(c.instr); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, b := range builders {
		if err := b.finish(tab.finalPos); err != nil {
			return nil, err
		}
	}
	t.HashCode = hashCode(tab)
	return prog, nil
}

func procNumber(name string) (int, bool) {
	if len(name) < 2 || name[0] != 'P' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	return n, err == nil && n >= 0 && strconv.Itoa(n) == name[1:]
}

// builder translates one thread's instructions, in order.
type builder struct {
	p       *xcfa.Process
	cur     *xcfa.Location
	pos     xcfa.Pos
	dead    bool // cur follows a JMP: nothing reaches it
	labels  map[string]*xcfa.Location
	defined map[string]bool
	refs    map[string]xcfa.Pos // first use of each label
	tmps    int
	rmw     *int // the program's last RMW id
}

func (b *builder) emit(op xcfa.Op) {
	next := b.p.NewLoc("")
	b.p.AddEdge(b.cur, next, op, b.pos)
	b.cur = next
}

func (b *builder) assign(dst string, v xcfa.Expr) { b.emit(xcfa.Assign{Dst: dst, Value: v}) }

// tmp returns a fresh temporary register name (never an architectural one).
func (b *builder) tmp() string {
	b.tmps++
	return fmt.Sprintf("tmp.%d", b.tmps)
}

// target returns the location of a label, creating it when the label is
// used before it is defined.
func (b *builder) target(name string, pos xcfa.Pos) *xcfa.Location {
	if l, ok := b.labels[name]; ok {
		return l
	}
	l := b.p.NewLoc(name)
	b.labels[name] = l
	b.refs[name] = pos
	return l
}

func (b *builder) defineLabel(name string, pos xcfa.Pos) error {
	if b.defined[name] {
		return litmus.Errorf(pos, "label %s is defined twice in %s", name, b.p.Name)
	}
	b.defined[name] = true
	if l, ok := b.labels[name]; ok {
		if !b.dead {
			b.p.AddEdge(b.cur, l, xcfa.Nop{}, pos)
		}
		b.cur, b.dead = l, false
		return nil
	}
	if b.cur.Label == "" {
		b.cur.Label = name
	}
	b.labels[name] = b.cur
	b.dead = false
	return nil
}

func (b *builder) finish(end xcfa.Pos) error {
	for name := range b.labels {
		if !b.defined[name] {
			return litmus.Errorf(b.refs[name], "label %s is not defined in %s", name, b.p.Name)
		}
	}
	b.pos = end
	b.p.Final = b.cur
	return nil
}

// The registers of herd7's X86 (X86Base.regs); EIP is its program counter,
// which no instruction of a test may name.
var registers = map[string]bool{"EAX": true, "EBX": true, "ECX": true, "EDX": true, "ESI": true, "EDI": true,
	"EBP": true, "ESP": true, "ZF": true, "SF": true, "CF": true}

// x86_64Registers are the 64-bit names, which herd7's X86 lexes as plain
// names (X86_64 is another of its architectures).
var x86_64Registers = map[string]bool{"RAX": true, "RBX": true, "RCX": true, "RDX": true, "RSI": true, "RDI": true,
	"RBP": true, "RSP": true, "RIP": true, "R8": true, "R9": true, "R10": true, "R11": true, "R12": true,
	"R13": true, "R14": true, "R15": true}

// checkRegister refuses a name that is not one of herd7's X86 registers.
func checkRegister(name string, pos xcfa.Pos) error {
	switch u := strings.ToUpper(name); {
	case registers[name]:
		return nil
	case name == "EIP":
		return litmus.Errorf(pos, "unsupported register EIP: it is herd7's X86 program counter")
	case registers[u] || u == "EIP":
		return litmus.Errorf(pos, "unknown register %s: herd7's X86 registers are upper case (%s)", name, u)
	case x86_64Registers[u]:
		return litmus.Errorf(pos, "unsupported register %s: 64-bit registers belong to herd7's X86_64, not to X86", name)
	}
	return litmus.Errorf(pos, "expected a register, [x], [REG] or $n, found %s", name)
}

// location is where an operand lives: a register, or a memory address.
type location struct {
	reg  string
	addr xcfa.Expr // nil for a register
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
	return location{}, litmus.Errorf(o.pos, "unsupported symbolic register %s", o.name)
}

// read reads a location: a register as is, memory by a Load into a
// temporary.
func (b *builder) read(l location, tags []string, rmw int) xcfa.Expr {
	if l.addr == nil {
		return xcfa.Reg{Name: l.reg}
	}
	t := b.tmp()
	b.emit(xcfa.Load{Dst: t, Addr: l.addr, Tags: tags, RMW: rmw})
	return xcfa.Reg{Name: t}
}

func (b *builder) write(l location, v xcfa.Expr, tags []string, rmw int) {
	if l.addr == nil {
		b.assign(l.reg, v)
		return
	}
	b.emit(xcfa.Store{Addr: l.addr, Value: v, Tags: tags, RMW: rmw})
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

func (b *builder) operands(in *instr, n int) error {
	if len(in.ops) != n {
		return litmus.Errorf(in.pos, "%s takes %d operand(s), found %d", in.mnem, n, len(in.ops))
	}
	return nil
}

func cmp(op xcfa.BinOp, x, y xcfa.Expr) xcfa.Expr { return xcfa.Binary{Op: op, X: x, Y: y} }

var zero, one = xcfa.Const{Value: 0}, xcfa.Const{Value: 1}

// instruction translates one instruction.
func (b *builder) instruction(in *instr) error {
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
		old := b.read(dst, nil, 0)
		v, err := b.rvalue(in.ops[1])
		if err != nil {
			return err
		}
		op := xcfa.Add
		if in.mnem == "XOR" {
			op = xcfa.Xor
		}
		res := b.result(cmp(op, old, v))
		b.write(dst, res, nil, 0)
		b.assign("ZF", cmp(xcfa.Eq, res, zero))
		b.assign("SF", cmp(xcfa.Gt, res, zero))
		b.assign("CF", zero)
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
		res := b.result(cmp(op, b.read(dst, nil, 0), one))
		b.write(dst, res, nil, 0)
		b.assign("SF", cmp(xcfa.Gt, res, zero))
		b.assign("ZF", cmp(xcfa.Eq, res, zero))
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
		b.assign("ZF", cmp(xcfa.Eq, x, y))
		b.assign("SF", cmp(xcfa.Gt, x, y))
		b.assign("CF", zero)
	case "SETNB":
		if err := b.operands(in, 1); err != nil {
			return err
		}
		dst, err := b.lvalue(in.ops[0])
		if err != nil {
			return err
		}
		b.write(dst, cmp(xcfa.Xor, xcfa.Reg{Name: "CF"}, one), nil, 0)
	case "CMOVC":
		return b.cmovc(in)
	case "XCHG":
		return b.xchg(in)
	case "JMP", "JE", "JNE":
		return b.jump(in)
	case "LOCK":
		return litmus.Errorf(in.pos, "unsupported LOCK prefix (%s): purr does not model herd7's locked instructions other than XCHG", in.text)
	case "CMPXCHG", "MOVSD":
		return litmus.Errorf(in.pos, "unsupported instruction %s: herd7 does not implement it", in.mnem)
	case "OR", "MOVB", "MOVW", "MOVL", "MOVT":
		return litmus.Errorf(in.pos, "unsupported instruction %s: herd7's X86 semantics has no case for it", in.mnem)
	default:
		return litmus.Errorf(in.pos, "unsupported instruction %s", in.mnem)
	}
	return nil
}

// result keeps a computed value in a temporary, so that the flags read the
// value written, whatever the write changes.
func (b *builder) result(v xcfa.Expr) xcfa.Expr {
	t := b.tmp()
	b.assign(t, v)
	return xcfa.Reg{Name: t}
}

// cmovc is CMOVC r,ea: r := ea when CF is non-zero. herd7 chooses on CF
// within the instruction (choiceT): internal assumptions, no branch.
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
	cf := xcfa.Reg{Name: "CF"}
	start, join := b.cur, b.p.NewLoc("")
	b.emit(xcfa.Assume{Cond: cf, Internal: true})
	v, err := b.rvalue(in.ops[1])
	if err != nil {
		return err
	}
	b.write(dst, v, nil, 0)
	b.p.AddEdge(b.cur, join, xcfa.Nop{}, b.pos)
	b.p.AddEdge(start, join, xcfa.Assume{Cond: xcfa.Unary{Op: xcfa.Not, X: cf}, Internal: true}, b.pos)
	b.cur = join
	return nil
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
	switch {
	case x.addr != nil && y.addr != nil:
		return litmus.Errorf(in.pos, "unsupported XCHG of two memory operands")
	case x.addr == nil && y.addr == nil:
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
	*b.rmw++
	atomic := []string{"X"}
	old := b.read(mem, atomic, *b.rmw)
	b.write(mem, xcfa.Reg{Name: reg.reg}, atomic, *b.rmw)
	b.assign(reg.reg, old)
	return nil
}

// jump translates JMP, JE and JNE.
func (b *builder) jump(in *instr) error {
	if err := b.operands(in, 1); err != nil {
		return err
	}
	o := in.ops[0]
	if o.kind != nameOp {
		return litmus.Errorf(o.pos, "%s takes a label, found %s", in.mnem, o.text)
	}
	to := b.target(o.name, o.pos)
	if in.mnem == "JMP" {
		b.p.AddEdge(b.cur, to, xcfa.Nop{}, b.pos)
		b.cur, b.dead = b.p.NewLoc(""), true
		return nil
	}
	var taken xcfa.Expr = xcfa.Reg{Name: "ZF"}
	if in.mnem == "JNE" {
		taken = cmp(xcfa.Xor, taken, one)
	}
	next := b.p.NewLoc("")
	b.p.AddEdge(b.cur, to, xcfa.Assume{Cond: taken}, b.pos)
	b.p.AddEdge(b.cur, next, xcfa.Assume{Cond: xcfa.Unary{Op: xcfa.Not, X: taken}}, b.pos)
	b.cur = next
	return nil
}
