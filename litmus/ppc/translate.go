package ppc

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/ppc/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// sample has the forms most Power tests use, for litmus.Warm.
const sample = `PPC S
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1            ;
 li r1,1      | lwz r1,0(r2)  ;
 stw r1,0(r2) | cmpw r1,r1    ;
 lwsync       | beq LC00      ;
 li r3,1      | LC00:         ;
 stw r3,0(r4) | isync         ;
 sync         | xor r3,r1,r1  ;
              | lwzx r5,r3,r4 ;
exists (1:r1=1 /\ 1:r5=0)
`

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "PPC", Translate: Translate, Model: "ppc", Sample: sample,
		HerdIncludes: []string{"cos.cat", "cos-ok-opt.cat", "cos-no-opt.cat", "ppcfences.cat", "ppo.cat", "ppc-checks.cat"},
		// herd7's Power barriers (PPCArch_herd's barrier sets).
		Tags: []string{"SYNC", "LWSYNC", "EIEIO", "ISYNC"}})
}

// Translate turns the program part of a Power test into an XCFA. It also
// renames the registers of the initial state, the locations clause and
// the condition to the XCFA's names (R3 becomes r3).
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	tab, err := parser.ParseTable(sec)
	if err != nil {
		return nil, err
	}
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch}
	var builders []*builder
	err = tab.Translate(prog, func(f *asm.Flow) { builders = append(builders, &builder{Flow: f}) },
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
			return "", source.Errorf(l.Pos, "%d:%s is no register of herd7's Power: r0 ... r31", l.Proc, l.Name)
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
}

func (b *builder) emit(op xcfa.Op) { b.Emit(op, b.pos) }

// tmp returns a fresh temporary register name (never an architectural one).
func (b *builder) tmp() string {
	b.tmps++
	return fmt.Sprintf("tmp.%d", b.tmps)
}

func read(r reg) xcfa.Expr { return xcfa.Reg{Name: r.name()} }

// readOrZero is rA of an indexed access: r0 reads as 0 there, with no
// dependency (Power ISA's (rA|0), herd7's read_reg_or_zero).
func readOrZero(r reg) xcfa.Expr {
	if r.n == 0 {
		return xcfa.Const{Value: 0}
	}
	return read(r)
}

func (b *builder) write(r reg, v xcfa.Expr) { b.emit(xcfa.Assign{Dst: r.name(), Value: v}) }

// crName is the XCFA's register of a field of the condition register,
// which holds herd7's value of it: crLT, crGT or crEQ.
func crName(n int) string { return fmt.Sprintf("CR%d", n) }

// setCR sets field n of the condition register by comparing x with y, as
// herd7's write_cr does: LT, else GT, else EQ.
func (b *builder) setCR(n int, x, y xcfa.Expr) {
	b.emit(xcfa.Assign{Dst: crName(n), Value: xcfa.Ite{
		Cond: xcfa.Binary{Op: xcfa.Lt, X: x, Y: y}, X: xcfa.Const{Value: crLT},
		Y: xcfa.Ite{Cond: xcfa.Binary{Op: xcfa.Gt, X: x, Y: y}, X: xcfa.Const{Value: crGT}, Y: xcfa.Const{Value: crEQ}}}})
}

// arith writes rD := v, and sets CR0 by comparing v with 0 when the
// instruction is a dotted one; both depend on v's registers, as herd7
// writes them side by side. v is computed once, before rD changes (add.
// r1,r1,r2 compares the sum).
func (b *builder) arith(d *insn, v xcfa.Expr) {
	if d.setCR0 {
		t := b.tmp()
		b.emit(xcfa.Assign{Dst: t, Value: v})
		v = xcfa.Reg{Name: t}
		b.setCR(0, v, xcfa.Const{Value: 0})
	}
	b.write(d.rd, v)
}

// instruction translates one decoded instruction with herd7's semantics
// (PPCSem.build_semantics).
func (b *builder) instruction(d *insn) {
	switch d.class {
	case opReg:
		x, y := read(d.ra), read(d.rb)
		if d.name == "subf" || d.name == "subf." {
			x, y = y, x // subtract from
		}
		b.arith(d, xcfa.Binary{Op: d.op, X: x, Y: y})
	case opImm:
		b.arith(d, xcfa.Binary{Op: d.op, X: read(d.ra), Y: xcfa.Const{Value: d.imm}})
	case loadImm:
		b.write(d.rd, xcfa.Const{Value: d.imm})
	case move:
		b.write(d.rd, read(d.ra))
	case compare:
		var y xcfa.Expr = xcfa.Const{Value: d.imm}
		if d.name == "cmpw" {
			y = read(d.rb)
		}
		b.setCR(d.cr, read(d.ra), y)
	case jump:
		b.Jump(d.label, b.pos, d.labelPos)
	case branch:
		var taken xcfa.Expr = xcfa.Binary{Op: xcfa.Ne,
			X: xcfa.Binary{Op: xcfa.And, X: xcfa.Reg{Name: crName(0)}, Y: xcfa.Const{Value: int64(d.bit)}}, Y: xcfa.Const{Value: 0}}
		if d.negate {
			taken = xcfa.Unary{Op: xcfa.Not, X: taken}
		}
		b.Branch(d.label, taken, b.pos, d.labelPos)
	case load:
		b.access(d, xcfa.Binary{Op: xcfa.Add, X: read(d.ra), Y: xcfa.Const{Value: d.imm}})
	case store:
		b.access(d, xcfa.Binary{Op: xcfa.Add, X: read(d.ra), Y: xcfa.Const{Value: d.imm}})
	case loadX:
		b.emit(xcfa.Load{Dst: d.rd.name(), Addr: xcfa.Binary{Op: xcfa.Add, X: readOrZero(d.ra), Y: read(d.rb)}})
	case loadRes:
		b.loadReserve(d)
	case storeX:
		b.emit(xcfa.Store{Addr: xcfa.Binary{Op: xcfa.Add, X: readOrZero(d.ra), Y: read(d.rb)}, Value: read(d.rd)})
	case storeCond:
		b.storeConditional(d)
	case fence:
		b.emit(xcfa.Fence{Tags: []string{barriers[d.name]}})
	case nop:
		b.emit(xcfa.Nop{})
	}
}

// access is a D-form load or store at addr; lwzu and stwu also write the
// address into rA, unless rA is r0 (or, for lwzu, rD), as herd7 does.
func (b *builder) access(d *insn, addr xcfa.Expr) {
	update := d.update && d.ra.n != 0 && !(d.class == load && d.ra.n == d.rd.n)
	if update {
		a := b.tmp()
		b.emit(xcfa.Assign{Dst: a, Value: addr})
		addr = xcfa.Reg{Name: a}
	}
	if d.class == load {
		b.emit(xcfa.Load{Dst: d.rd.name(), Addr: addr})
	} else {
		b.emit(xcfa.Store{Addr: addr, Value: read(d.rd)})
	}
	if update {
		b.write(d.ra, addr)
	}
}

// The reservation, as herd7 keeps it in two registers of its own: RES, 1
// from a lwarx to the next stwcx., and RESADDR, the lwarx's address.
const (
	res     = "RES"
	resAddr = "RESADDR"
)

// dependingOn is v with a dependency on the registers of deps and not
// their values (v + (d ^ d) + ...): herd7 writes a register after reading
// those of the whole instruction, so that it depends on all of them.
func dependingOn(v xcfa.Expr, deps ...xcfa.Expr) xcfa.Expr {
	for _, d := range deps {
		if _, ok := d.(xcfa.Const); !ok {
			v = xcfa.Binary{Op: xcfa.Add, X: v, Y: xcfa.Binary{Op: xcfa.Xor, X: d, Y: d}}
		}
	}
	return v
}

// loadReserve is lwarx: a Load tagged X (herd7's atomic accesses) and the
// reservation, RES set to 1 and RESADDR to the address, both depending on
// the address's registers.
func (b *builder) loadReserve(d *insn) {
	a := b.tmp()
	b.emit(xcfa.Assign{Dst: a, Value: xcfa.Binary{Op: xcfa.Add, X: readOrZero(d.ra), Y: read(d.rb)}})
	addr := xcfa.Reg{Name: a}
	b.emit(xcfa.Assign{Dst: res, Value: dependingOn(xcfa.Const{Value: 1}, addr)})
	b.emit(xcfa.Assign{Dst: resAddr, Value: addr})
	b.emit(xcfa.Load{Dst: d.rd.name(), Addr: addr, Tags: []string{"X"}})
}

// storeConditional is stwcx.: a choice between storing (tagged X, which
// the engine pairs with the thread's last lwarx) and setting CR0 to EQ,
// and not storing and setting CR0 to 0; both ways clear the reservation.
// As in herd7, the store's value depends on the reservation registers as
// well as on rS (herd7 reads all three as data), and CR0 and RES depend
// on every register the instruction reads, not on the store.
func (b *builder) storeConditional(d *insn) {
	addr := xcfa.Binary{Op: xcfa.Add, X: readOrZero(d.ra), Y: read(d.rb)}
	resV, resAddrV := xcfa.Reg{Name: res}, xcfa.Reg{Name: resAddr}
	deps := []xcfa.Expr{read(d.rd), resV, resAddrV, readOrZero(d.ra), read(d.rb)}
	from, join := b.Cur, b.P.NewLoc("")
	b.emit(xcfa.Store{Addr: addr, Value: dependingOn(read(d.rd), resV, resAddrV), Tags: []string{"X"}})
	b.outcome(join, crEQ, deps)
	b.Cur = from
	b.outcome(join, 0, deps)
	b.Cur = join
}

// outcome ends one way of a stwcx.: CR0 set to cr and the reservation
// cleared, on edges from the current location to join.
func (b *builder) outcome(join *xcfa.Location, cr int64, deps []xcfa.Expr) {
	b.emit(xcfa.Assign{Dst: crName(0), Value: dependingOn(xcfa.Const{Value: cr}, deps...)})
	b.P.AddEdge(b.Cur, join, xcfa.Assign{Dst: res, Value: dependingOn(xcfa.Const{Value: 0}, deps...)}, b.pos, b.Instr)
}
