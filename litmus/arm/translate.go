package arm

import (
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/arm/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// sample is a test with the forms most ARM tests use, which litmus.Warm
// reads.
const sample = `ARM sample
{ 0:R0=1; 0:R1=x; %y0=y; 1:R1=y; 1:R4=x; }
 P0           | P1             ;
 STR R0,[R1]  | LDR R0,[R1]    ;
 DMB          | EOR R2,R0,R0   ;
 STR R0,[%y0] | LDR R3,[R4,R2] ;
              | CMP R3,#0      ;
              | BNE LC00       ;
              | LC00:          ;
exists (1:R0=1 /\ 1:R3=0)
`

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "ARM", Translate: Translate, Model: "arm", Sample: sample,
		HerdIncludes: []string{"cos.cat", "armfences.cat", "ppo.cat", "ppc-checks.cat"},
		// herd7's ARM sets (ARMArch_herd: barrier_sets, annot_sets).
		Tags: []string{"X", "DMB", "DMB.ISH", "DSB", "DMB.ST", "DSB.ST", "ISB"}})
}

// Translate turns the program part of an ARM test into an XCFA; the
// registers of the initial state, the locations clause and the condition
// must be herd7's (R0 ... R12, SP, LR, PC), and the symbolic registers of
// the initial state are placed in the thread that uses them.
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
		if _, ok := regNumber(l.Name); !ok {
			return "", source.Errorf(l.Pos, "%d:%s is no register of herd7's ARM: R0 ... R12, SP, LR or PC", l.Proc, l.Name)
		}
		return l.Name, nil
	}); err != nil {
		return nil, err
	}
	if err := sym.Place(t, regNames[:13]); err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab)
	return prog, nil
}

// useRegisters records the registers an instruction names, symbolic or
// not, for the allocation of symbolic registers herd7 makes.
func useRegisters(sym *asm.Symbolic, thread int, in *parser.Instr) {
	for _, o := range in.Ops {
		switch o.Kind {
		case parser.SymRegOp:
			sym.Use(thread, o.Name)
		case parser.NameOp:
			if _, ok := regNumber(o.Name); ok {
				sym.Use(thread, o.Name)
			}
		case parser.MemOp:
			sym.Use(thread, o.Name)
			if o.Index != "" {
				sym.Use(thread, o.Index)
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

func read(r reg) xcfa.Expr { return xcfa.Reg{Name: r.name()} }

func imm(k int64) xcfa.Expr { return xcfa.Const{Value: k} }

// isZero is herd7's Z flag for a result: whether it is 0.
func isZero(v xcfa.Expr) xcfa.Expr { return xcfa.Binary{Op: xcfa.Eq, X: v, Y: imm(0)} }

// zSet is the condition of BEQ and of the EQ forms: Z is set.
var zSet xcfa.Expr = xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: flag}, Y: imm(0)}

// zClear is the condition of BNE and of the NE forms.
var zClear xcfa.Expr = xcfa.Binary{Op: xcfa.Eq, X: xcfa.Reg{Name: flag}, Y: imm(0)}

// address is [rn] or [rn,rm].
func (d *insn) address() xcfa.Expr {
	if d.indexed {
		return xcfa.Binary{Op: xcfa.Add, X: read(d.rn), Y: read(d.rm)}
	}
	return read(d.rn)
}

// instruction translates one decoded instruction with herd7's semantics
// (ARMSem.build_semantics).
func (b *builder) instruction(d *insn) {
	switch d.class {
	case opImm, opReg:
		y := imm(d.imm)
		if d.class == opReg {
			y = read(d.rm)
		}
		v := xcfa.Binary{Op: d.op, X: read(d.rn), Y: y}
		b.emit(xcfa.Assign{Dst: d.rd.name(), Value: v})
		if d.setFlags {
			b.emit(xcfa.Assign{Dst: flag, Value: isZero(read(d.rd))})
		}
	case compare:
		b.emit(xcfa.Assign{Dst: flag, Value: xcfa.Binary{Op: xcfa.Eq, X: read(d.rn), Y: read(d.rm)}})
	case compareImm:
		b.emit(xcfa.Assign{Dst: flag, Value: xcfa.Binary{Op: xcfa.Eq, X: read(d.rn), Y: imm(d.imm)}})
	case jump:
		b.Jump(d.label, b.pos, d.labelPos)
	case branchZ:
		b.Branch(d.label, map[cond]xcfa.Expr{ifEQ: zSet, ifNE: zClear}[d.cond], b.pos, d.labelPos)
	case branchReg:
		b.Branch(d.label, xcfa.Binary{Op: d.op, X: read(d.rn), Y: imm(0)}, b.pos, d.labelPos)
	case move, moveImm, load, store:
		b.conditional(d.cond, func() {
			switch d.class {
			case move:
				b.emit(xcfa.Assign{Dst: d.rd.name(), Value: read(d.rm)})
			case moveImm:
				b.emit(xcfa.Assign{Dst: d.rd.name(), Value: imm(d.imm)})
			case load:
				b.emit(xcfa.Load{Dst: d.rt.name(), Addr: d.address()})
			case store:
				b.emit(xcfa.Store{Addr: d.address(), Value: read(d.rt)})
			}
		})
	case loadEx:
		b.emit(xcfa.Load{Dst: d.rt.name(), Addr: read(d.rn), Tags: []string{"X"}})
	case storeEx:
		// A store-exclusive may fail: a choice between the store with
		// status 0 and status 1 without a store, each set beside the
		// store, not after it (herd7's >>|); the engine pairs the store
		// with the thread's last LDREX.
		from, join := b.Cur, b.P.NewLoc("")
		b.emit(xcfa.Store{Addr: read(d.rn), Value: read(d.rt), Tags: []string{"X"}})
		b.P.AddEdge(b.Cur, join, xcfa.Assign{Dst: d.rd.name(), Value: imm(0)}, b.pos, b.Instr)
		b.P.AddEdge(from, join, xcfa.Assign{Dst: d.rd.name(), Value: imm(1)}, b.pos, b.Instr)
		b.Cur = join
	case barrier:
		var tags []string
		if t := d.tag(); t != "" {
			tags = []string{t}
		}
		b.emit(xcfa.Fence{Tags: tags})
	}
}

// conditional emits what body emits, under the instruction's condition:
// an EQ or NE form is the instruction's own choice on the Z flag (herd7's
// checkZ), no branch: it makes no control dependency.
func (b *builder) conditional(c cond, body func()) {
	if c == always {
		body()
		return
	}
	run, skip := zSet, zClear
	if c == ifNE {
		run, skip = zClear, zSet
	}
	from, join := b.Cur, b.P.NewLoc("")
	b.emit(xcfa.Assume{Cond: run, Internal: true})
	body()
	b.P.AddEdge(b.Cur, join, xcfa.Nop{}, b.pos, b.Instr)
	b.Cur = from
	b.emit(xcfa.Assume{Cond: skip, Internal: true})
	b.P.AddEdge(b.Cur, join, xcfa.Nop{}, b.pos, b.Instr)
	b.Cur = join
}
