package mips

import (
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/mips/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// sample is a test with the forms most MIPS tests use, which litmus.Warm
// reads.
const sample = `MIPS sample
{ %x0=x; %y0=y; %y1=y; %x1=x; }
 P0           | P1           ;
 ori $2,$0,1  | lw $2,0(%y1) ;
 sw $2,0(%x0) | sync         ;
 sync         | lw $3,0(%x1) ;
 sw $2,0(%y0) | bne $3,$0,L0 ;
              | L0:          ;
exists (1:$2=1 /\ 1:$3=0)
`

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "MIPS", Translate: Translate, Model: "mips", Sample: sample,
		HerdIncludes: []string{"mipsfences.cat", "cos.cat"},
		// herd7's MIPS sets: X for LL and SC, SYNC its barrier.
		Tags: []string{"X", "SYNC"}})
}

// Translate turns the program part of a MIPS test into an XCFA. It also
// renames the registers of the initial state, the locations clause and
// the condition to the XCFA's names ($v0 and v0 become $2), and places the
// symbolic registers of the initial state in the thread that uses them.
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	tab, err := parser.ParseTable(sec)
	if err != nil {
		return nil, err
	}
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch}
	var builders []*builder
	var sym asm.Symbolic
	err = tab.Translate(prog, func(f *asm.Flow) { builders = append(builders, &builder{Flow: f}) },
		func(thread int, in *parser.Instr) error {
			d, err := decode(in)
			if err != nil {
				return err
			}
			useRegisters(&sym, thread, in)
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
			// herd7 reads the ABI names without their dollar in states.
			n, ok = abiNames["$"+l.Name]
		}
		if !ok {
			return "", source.Errorf(l.Pos, "%d:%s is no register of herd7's MIPS: $0 ... $31 or their ABI names ($v0, $a0, ...)", l.Proc, l.Name)
		}
		return reg{n: n}.name(), nil
	}); err != nil {
		return nil, err
	}
	if err := sym.Place(t, symbolicTargets); err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab)
	return prog, nil
}

// symbolicTargets are the registers herd7 allocates symbolic registers to
// (MIPSBase.allowed_for_symb): $2 ... $25.
var symbolicTargets = func() []string {
	var rs []string
	for n := 2; n <= 25; n++ {
		rs = append(rs, reg{n: n}.name())
	}
	return rs
}()

// useRegisters records the registers an instruction names, symbolic or
// not, for the allocation of symbolic registers herd7 makes.
func useRegisters(sym *asm.Symbolic, thread int, in *parser.Instr) {
	for _, o := range in.Ops {
		switch {
		case o.Kind == parser.ImmOp:
		case strings.HasPrefix(o.Name, "%"):
			sym.Use(thread, o.Name)
		default:
			kind := o.Kind
			if kind == parser.MemOp {
				kind = parser.RegOp // its base register
			}
			if r, err := register(parser.Operand{Kind: kind, Name: o.Name}); err == nil {
				sym.Use(thread, r.name())
			}
		}
	}
}

// builder translates one thread's instructions, in order.
type builder struct {
	*asm.Flow
	pos source.Pos
}

func (b *builder) emit(op xcfa.Op) { b.Emit(op, b.pos) }

// read is a register's value: $0 reads 0 and makes no dependency, as
// herd7 reads no register for it.
func read(r reg) xcfa.Expr {
	if r.zero() {
		return xcfa.Const{Value: 0}
	}
	return xcfa.Reg{Name: r.name()}
}

// write assigns a register; a write to $0 is dropped.
func (b *builder) write(r reg, v xcfa.Expr) {
	if !r.zero() {
		b.emit(xcfa.Assign{Dst: r.name(), Value: v})
	}
}

// dst is the register a load writes, "" for $0: the value is dropped.
func dst(r reg) string {
	if r.zero() {
		return ""
	}
	return r.name()
}

// address is rs + k.
func address(r reg, k int64) xcfa.Expr {
	if k == 0 {
		return read(r)
	}
	return xcfa.Binary{Op: xcfa.Add, X: read(r), Y: xcfa.Const{Value: k}}
}

// instruction translates one decoded instruction with herd7's semantics
// (MIPSSem.build_semantics).
func (b *builder) instruction(d *insn) {
	switch d.class {
	case nop:
		b.emit(xcfa.Nop{})
	case loadImm:
		b.write(d.rd, xcfa.Const{Value: d.imm})
	case move:
		b.write(d.rd, read(d.rs))
	case opReg, opImm:
		y := xcfa.Expr(xcfa.Const{Value: d.imm})
		if d.class == opReg {
			y = read(d.rt)
		}
		var v xcfa.Expr = xcfa.Binary{Op: d.op, X: read(d.rs), Y: y}
		if d.nor {
			v = xcfa.Unary{Op: xcfa.BNot, X: v}
		}
		b.write(d.rd, v)
	case jump:
		b.Jump(d.label, b.pos, d.labelPos)
	case branch:
		b.Branch(d.label, xcfa.Binary{Op: d.op, X: read(d.rs), Y: read(d.rt)}, b.pos, d.labelPos)
	case branchZ:
		b.Branch(d.label, xcfa.Binary{Op: d.op, X: read(d.rs), Y: xcfa.Const{Value: 0}}, b.pos, d.labelPos)
	case load:
		b.emit(xcfa.Load{Dst: dst(d.rd), Addr: address(d.rs, d.imm)})
	case store:
		b.emit(xcfa.Store{Addr: address(d.rs, d.imm), Value: read(d.rd)})
	case loadLinked:
		b.emit(xcfa.Load{Dst: dst(d.rd), Addr: address(d.rs, d.imm), Tags: []string{"X"}})
	case storeCond:
		// A store-conditional may fail: a choice between the store with
		// status 1 and status 0 without a store (herd7's MIPS sets 1 on
		// success), the status set beside the store, not after it; the
		// engine pairs the store with the thread's last LL.
		from, join := b.Cur, b.P.NewLoc("")
		b.emit(xcfa.Store{Addr: address(d.rs, d.imm), Value: read(d.rd), Tags: []string{"X"}})
		b.status(join, d.rd, 1)
		b.Cur = from
		b.status(join, d.rd, 0)
		b.Cur = join
	case sync:
		b.emit(xcfa.Fence{Tags: []string{"SYNC"}})
	}
}

// status ends one way of a store-conditional: its register gets v.
func (b *builder) status(join *xcfa.Location, rd reg, v int64) {
	var op xcfa.Op = xcfa.Nop{}
	if r := dst(rd); r != "" {
		op = xcfa.Assign{Dst: r, Value: xcfa.Const{Value: v}}
	}
	b.P.AddEdge(b.Cur, join, op, b.pos, b.Instr)
}
