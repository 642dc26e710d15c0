package riscv

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/riscv/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

const sample = `RISCV sample
{ 0:x5=1; 0:x6=x; 0:x7=y; 1:x6=y; 1:x8=x; }
 P0                   | P1              ;
 sw x5,0(x6)          | lw x5,0(x6)     ;
 fence rw,rw          | xor x9,x5,x5    ;
 amoswap.w.rl x0,x5,(x7) | add x10,x8,x9 ;
                      | lw x11,0(x10)   ;
exists (1:x5=1 /\ 1:x11=0)
`

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "RISCV", Translate: Translate, Model: "riscv", Sample: sample,
		HerdIncludes: []string{"riscv-defs.cat", "cos-opt.cat"},
		// herd7's annotation sets (RISCVArch_herd.annot_sets) and its
		// fences, Fence.PRED.SUCC, Fence.tso and Fence.i.
		Tags: []string{"X", "Acq", "Rel", "AcqRel", "Sc",
			"Fence.r.r", "Fence.r.w", "Fence.r.rw", "Fence.w.r", "Fence.w.w", "Fence.w.rw",
			"Fence.rw.r", "Fence.rw.w", "Fence.rw.rw", "Fence.tso", "Fence.i"}})
}

// Translate turns the program part of a RISC-V test into an XCFA. It also
// renames the registers of the initial state, the locations clause and
// the condition to the XCFA's names (a0 becomes x10).
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	tab, err := parser.ParseTable(sec)
	if err != nil {
		return nil, err
	}
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch}
	var builders []*builder
	rmw := 0
	err = tab.Translate(prog, func(f *asm.Flow) { builders = append(builders, &builder{Flow: f, rmw: &rmw}) },
		func(thread int, in *parser.Instr) error {
			d, err := decode(in)
			if err != nil {
				return err
			}
			b := builders[thread]
			b.Instr = b.P.NewInstr(in.Text)
			b.pos = in.Pos
			b.instruction(d)
			return nil
		})
	if err != nil {
		return nil, err
	}
	if err := t.RenameRegisters(func(l litmus.Loc) (string, error) {
		n, ok := regNumber(l.Name)
		if !ok {
			return "", source.Errorf(l.Pos, "%d:%s is no register of herd7's RISC-V: x0 ... x31 or their ABI names", l.Proc, l.Name)
		}
		return reg{n: n}.name(), nil
	}); err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab)
	return prog, nil
}

// builder translates one thread's instructions, in order.
type builder struct {
	*asm.Flow
	pos  source.Pos
	tmps int
	rmw  *int // the program's last RMW id
}

func (b *builder) emit(op xcfa.Op) { b.Emit(op, b.pos) }

// tmp returns a fresh temporary register name (never an architectural one).
func (b *builder) tmp() string {
	b.tmps++
	return fmt.Sprintf("tmp.%d", b.tmps)
}

// read is a register's value: x0 reads 0, and makes no dependency.
func read(r reg) xcfa.Expr {
	if r.zero() {
		return xcfa.Const{Value: 0}
	}
	return xcfa.Reg{Name: r.name()}
}

// write assigns a register; a write to x0 is dropped.
func (b *builder) write(r reg, v xcfa.Expr) {
	if !r.zero() {
		b.emit(xcfa.Assign{Dst: r.name(), Value: v})
	}
}

// dst is the register a load writes, "" for x0: the value is dropped.
func dst(r reg) string {
	if r.zero() {
		return ""
	}
	return r.name()
}

// address is rs1 + k.
func address(r reg, k int64) xcfa.Expr {
	if k == 0 {
		return read(r)
	}
	return xcfa.Binary{Op: xcfa.Add, X: read(r), Y: xcfa.Const{Value: k}}
}

// tags are an access's Cat sets: X for the atomic ones (LR, SC, AMOs), and
// its annotation.
func tags(atomic bool, mo order) []string {
	var ts []string
	if atomic {
		ts = append(ts, "X")
	}
	if t := mo.tag(); t != "" {
		ts = append(ts, t)
	}
	return ts
}

// instruction translates one decoded instruction with herd7's semantics
// (RISCVSem.build_semantics, its annotations kept on the accesses).
func (b *builder) instruction(d *insn) {
	switch d.class {
	case opImm:
		b.write(d.rd, xcfa.Binary{Op: d.op, X: read(d.rs1), Y: xcfa.Const{Value: d.imm}})
	case opReg:
		b.write(d.rd, xcfa.Binary{Op: d.op, X: read(d.rs1), Y: read(d.rs2)})
	case jump:
		b.Jump(d.label, b.pos, d.labelPos)
	case branch:
		b.Branch(d.label, xcfa.Binary{Op: d.op, X: read(d.rs1), Y: read(d.rs2)}, b.pos, d.labelPos)
	case load:
		b.emit(xcfa.Load{Dst: dst(d.rd), Addr: address(d.rs1, d.imm), Tags: tags(false, d.mo)})
	case store:
		b.emit(xcfa.Store{Addr: address(d.rs1, d.imm), Value: read(d.rs2), Tags: tags(false, d.mo)})
	case loadRes:
		b.emit(xcfa.Load{Dst: dst(d.rd), Addr: read(d.rs1), Tags: tags(true, d.mo)})
	case storeCond:
		// A store-conditional may fail: a choice between the store, which
		// sets the status to 0 with a dependency on it (herd7's success
		// write), and status 1 without a store. The engine pairs the store
		// with the thread's last LR.
		from, join := b.Cur, b.P.NewLoc("")
		b.emit(xcfa.Store{Addr: read(d.rs1), Value: read(d.rs2), Tags: tags(true, d.mo), Status: dst(d.rd)})
		b.P.AddEdge(b.Cur, join, xcfa.Nop{}, b.pos, b.Instr)
		b.Cur = from
		b.status(join, d.rd, 1)
		b.Cur = join
	case amo:
		b.amo(d)
	case fence:
		b.emit(xcfa.Fence{Tags: []string{d.fenceTag}})
	}
}

// status ends one way of a store-conditional: its status register gets v.
func (b *builder) status(join *xcfa.Location, rd reg, v int64) {
	var op xcfa.Op = xcfa.Nop{}
	if r := dst(rd); r != "" {
		op = xcfa.Assign{Dst: r, Value: xcfa.Const{Value: v}}
	}
	b.P.AddEdge(b.Cur, join, op, b.pos, b.Instr)
}

// amo is an AMO as herd7 7.57 builds it: one event, both read and write
// (a Load and a Store paired by an RMW id, the Store OneEvent), tagged X
// and with the instruction's annotation; rd gets the value read.
func (b *builder) amo(d *insn) {
	addr := read(d.rs1)
	*b.rmw++
	old := b.tmp()
	oldV := xcfa.Reg{Name: old}
	var v xcfa.Expr
	switch d.name {
	case "amoswap":
		v = read(d.rs2)
	case "amomax", "amomin":
		v = xcfa.Ite{Cond: xcfa.Binary{Op: d.op, X: oldV, Y: read(d.rs2)}, X: oldV, Y: read(d.rs2)}
	default:
		v = xcfa.Binary{Op: d.op, X: oldV, Y: read(d.rs2)}
	}
	b.emit(xcfa.Load{Dst: old, Addr: addr, Tags: tags(true, d.mo), RMW: *b.rmw})
	b.emit(xcfa.Store{Addr: addr, Value: v, Tags: tags(true, d.mo), RMW: *b.rmw, OneEvent: true})
	// herd7's rd depends on the source register too (its AMO builds the
	// value read after reading the source): x2 ^ x2 keeps the dependency
	// and not the value.
	var got xcfa.Expr = oldV
	if !d.rs2.zero() {
		got = xcfa.Binary{Op: xcfa.Add, X: oldV, Y: xcfa.Binary{Op: xcfa.Xor, X: read(d.rs2), Y: read(d.rs2)}}
	}
	b.write(d.rd, got)
}
