package bpf

import (
	"fmt"
	"strconv"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/bpf/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

const sample = `BPF sample
{ 0:r1=data; 0:r2=flag; 0:r3=1; 1:r1=data; 1:r2=flag; }
 P0                                 | P1                                 ;
 *(u64 *)(r1 + 0) = 7               | r4 = load_acquire((u64 *)(r2 + 0)) ;
 store_release((u64 *)(r2 + 0), r3) | r5 = *(u64 *)(r1 + 0)              ;
exists (1:r4=1 /\ 1:r5=0)
`

func init() {
	// purr's bpf is a model of its own, not a stand-in for herd's bpf.cat
	// (which purr runs when the include path holds it, as herd7 does): no
	// HerdIncludes.
	// Tags: the atomics' X and SC, load_acquire's AQ and store_release's
	// RL (the same name as Linux's read-lock tag: a set is just the
	// events that carry the tag).
	litmus.RegisterDialect(litmus.Dialect{Arch: "BPF", Translate: Translate, Model: "bpf",
		Tags: []string{"X", "SC", "AQ", "RL"}, Sample: sample})
}

// Translate turns the program part of a BPF test into an XCFA.
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	tab, err := parser.ParseTable(sec)
	if err != nil {
		return nil, err
	}
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch, OrderedInstrs: true}
	var builders []*builder
	rmw := 0
	err = tab.Translate(prog, func(f *asm.Flow) { builders = append(builders, &builder{Flow: f, rmw: &rmw}) },
		func(thread int, in *parser.Instr) error {
			b := builders[thread]
			b.Instr = b.P.NewInstr(in.Text)
			b.pos = in.Pos
			return b.instruction(in)
		})
	if err != nil {
		return nil, err
	}
	if err := normaliseRegisters(t); err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab)
	return prog, nil
}

// regNumber reads one of herd7's BPF register names: r0 ... r10, R0 ...
// R10, and fp or FP for r10 (BPFBase.parse_ireg).
func regNumber(name string) (int, bool) {
	if name == "fp" || name == "FP" {
		return 10, true
	}
	if len(name) < 2 || (name[0] != 'r' && name[0] != 'R') {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 || n > 10 || strconv.Itoa(n) != name[1:] {
		return 0, false
	}
	return n, true
}

// canonicalReg is the XCFA's name of a register: r0 ... r10.
func canonicalReg(n int) string { return "r" + strconv.Itoa(n) }

// normaliseRegisters renames the registers of the test's state and
// condition to the XCFA's names (R3 is r3, fp is r10), as herd7 reads
// them; it refuses a name that is no register of herd7's BPF.
func normaliseRegisters(t *litmus.Test) error {
	return t.RenameRegisters(func(l litmus.Loc) (string, error) {
		n, ok := regNumber(l.Name)
		if !ok {
			return "", source.Errorf(l.Pos, "%d:%s is no register of herd7's BPF: r0 ... r10, fp (herd7: %q)", l.Proc, l.Name, l.Name+" is not a register")
		}
		return canonicalReg(n), nil
	})
}

// builder translates one thread's instructions, in order.
type builder struct {
	*asm.Flow
	pos  source.Pos
	tmps int
	rmw  *int // the program's last RMW id
}

func (b *builder) emit(op xcfa.Op) { b.Emit(op, b.pos) }

func (b *builder) assign(dst string, v xcfa.Expr) { b.emit(xcfa.Assign{Dst: dst, Value: v}) }

// tmp returns a fresh temporary register name (never an architectural one).
func (b *builder) tmp() string {
	b.tmps++
	return fmt.Sprintf("tmp.%d", b.tmps)
}

// reg checks a register operand and gives its XCFA name.
func reg(o parser.Operand) (string, error) {
	n, ok := regNumber(o.Name)
	if !ok {
		return "", source.Errorf(o.Pos, "expected a register r0 ... r10 (or fp), found %s", o.Name)
	}
	return canonicalReg(n), nil
}

func regs(ops []parser.Operand) ([]string, error) {
	out := make([]string, len(ops))
	for i, o := range ops {
		r, err := reg(o)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// address is the address a memory operand names: its base register. herd7
// adds the offset to the address the register holds; purr's locations are
// whole cells, which an offset other than 0 would leave.
func (b *builder) address(p *parser.Pointer) (xcfa.Expr, error) {
	base, err := reg(p.Base)
	if err != nil {
		return nil, err
	}
	if p.Offset != 0 {
		return nil, source.Errorf(p.Base.Pos, "unsupported offset %d: purr reads (r + 0) only, the whole location r points to", p.Offset)
	}
	return xcfa.Reg{Name: base}, nil
}

// aluOps are herd7's BPF ALU operators (BPFSem.tr_op); s>>= has no
// semantics in herd7.
var aluOps = map[string]xcfa.BinOp{"+=": xcfa.Add, "-=": xcfa.Sub, "*=": xcfa.Mul, "/=": xcfa.Div, "%=": xcfa.Mod,
	"&=": xcfa.And, "|=": xcfa.Or, "^=": xcfa.Xor, "<<=": xcfa.Shl, ">>=": xcfa.Shr}

// amoOps are the operators of herd7's atomic operations (BPFSem.tr_opamo).
var amoOps = map[string]xcfa.BinOp{"+=": xcfa.Add, "&=": xcfa.And, "|=": xcfa.Or, "^=": xcfa.Xor}

var fetchFuncs = map[string]xcfa.BinOp{"atomic_fetch_add": xcfa.Add, "atomic_fetch_and": xcfa.And,
	"atomic_fetch_or": xcfa.Or, "atomic_fetch_xor": xcfa.Xor}

// conds are the conditions of herd7's jumps; < and >= compare signed.
var conds = map[string]xcfa.BinOp{"==": xcfa.Eq, "!=": xcfa.Ne, "<": xcfa.Lt, ">=": xcfa.Ge}

// The tags of herd7's BPF annotations (BPFArch_herd.annot_sets): X holds
// every atomic access, SC the fully ordered ones (the atomics that return
// a value), AQ load_acquire's read, RL store_release's write.
var (
	tagsSC      = []string{"X", "SC"}
	tagsAtomic  = []string{"X"}
	tagsAcquire = []string{"AQ"}
	tagsRelease = []string{"RL"}
)

// instruction translates one instruction.
func (b *builder) instruction(in *parser.Instr) error {
	rs, err := regs(in.Regs)
	if err != nil {
		return err
	}
	switch in.Form {
	case parser.AluReg, parser.AluImm:
		op, ok := aluOps[in.Op]
		if !ok {
			return source.Errorf(in.Pos, "unsupported operator %s: herd7's BPF semantics does not implement it", in.Op)
		}
		var y xcfa.Expr = xcfa.Const{Value: in.Imm}
		if in.Form == parser.AluReg {
			y = xcfa.Reg{Name: rs[1]}
		}
		b.assign(rs[0], xcfa.Binary{Op: op, X: xcfa.Reg{Name: rs[0]}, Y: y})
	case parser.MovReg:
		b.assign(rs[0], xcfa.Reg{Name: rs[1]})
	case parser.MovImm:
		b.assign(rs[0], xcfa.Const{Value: in.Imm})
	case parser.Load, parser.LoadFunc:
		var tags []string
		if in.Form == parser.LoadFunc {
			if in.Fn != "load_acquire" {
				return source.Errorf(in.FnPos, "unsupported function %s: herd7's BPF loads with load_acquire only", in.Fn)
			}
			tags = tagsAcquire
		}
		addr, err := b.address(in.Ptr)
		if err != nil {
			return err
		}
		b.emit(xcfa.Load{Dst: rs[0], Addr: addr, Tags: tags})
	case parser.Store, parser.StoreImm, parser.StoreFunc:
		var tags []string
		if in.Form == parser.StoreFunc {
			if in.Fn != "store_release" {
				return source.Errorf(in.FnPos, "unsupported function %s: herd7's BPF stores with store_release only", in.Fn)
			}
			tags = tagsRelease
		}
		addr, err := b.address(in.Ptr)
		if err != nil {
			return err
		}
		var v xcfa.Expr = xcfa.Const{Value: in.Imm}
		if in.Form != parser.StoreImm {
			v = xcfa.Reg{Name: rs[0]}
		}
		b.emit(xcfa.Store{Addr: addr, Value: v, Tags: tags})
	case parser.FetchFunc:
		op, ok := fetchFuncs[in.Fn]
		if !ok {
			return source.Errorf(in.FnPos, "unsupported function %s: herd7's BPF fetches with atomic_fetch_add, _and, _or and _xor", in.Fn)
		}
		return b.amo(in, tagsSC, rs[1], func(old xcfa.Expr) xcfa.Expr {
			return xcfa.Binary{Op: op, X: old, Y: xcfa.Reg{Name: rs[1]}}
		}, true)
	case parser.XchgFunc:
		if in.Fn != "xchg_64" && in.Fn != "xchg_32_32" {
			return source.Errorf(in.FnPos, "unsupported function %s: herd7's BPF exchanges with xchg_64 and xchg_32_32", in.Fn)
		}
		return b.amo(in, tagsSC, rs[1], func(xcfa.Expr) xcfa.Expr { return xcfa.Reg{Name: rs[1]} }, true)
	case parser.CmpxchgFunc:
		return b.cmpxchg(in, rs)
	case parser.LockOp:
		op, ok := amoOps[in.Op]
		if !ok {
			return source.Errorf(in.Pos, "unsupported atomic operator %s: herd7's BPF atomics are +=, &=, |= and ^=", in.Op)
		}
		return b.amo(in, tagsAtomic, rs[0], func(old xcfa.Expr) xcfa.Expr {
			return xcfa.Binary{Op: op, X: old, Y: xcfa.Reg{Name: rs[0]}}
		}, false)
	case parser.GotoLabel:
		b.Jump(in.Target.Name, b.pos, in.Target.Pos)
	case parser.IfReg, parser.IfImm:
		op, ok := conds[in.Op]
		if !ok {
			return source.Errorf(in.Pos, "unsupported condition %s", in.Op)
		}
		var y xcfa.Expr = xcfa.Const{Value: in.Imm}
		if in.Form == parser.IfReg {
			y = xcfa.Reg{Name: rs[1]}
		}
		taken := xcfa.Binary{Op: op, X: xcfa.Reg{Name: rs[0]}, Y: y}
		b.Branch(in.Target.Name, taken, b.pos, in.Target.Pos)
	default:
		return source.Errorf(in.Pos, "unsupported instruction %s", in.Text)
	}
	return nil
}

// amo is herd7's one-event atomic (its Amo action, an event both read and
// write): a read and a write of the location, tagged alike, paired and
// fused into one event for the model. newValue gives the value written
// from the value read; with fetch, the value read goes to register dst,
// the source register: herd7 writes it there whatever register the
// instruction names on the left.
func (b *builder) amo(in *parser.Instr, tags []string, dst string, newValue func(old xcfa.Expr) xcfa.Expr, fetch bool) error {
	addr, err := b.address(in.Ptr)
	if err != nil {
		return err
	}
	*b.rmw++
	old := b.tmp()
	b.emit(xcfa.Load{Dst: old, Addr: addr, Tags: tags, RMW: *b.rmw})
	b.emit(xcfa.Store{Addr: addr, Value: newValue(xcfa.Reg{Name: old}), Tags: tags, RMW: *b.rmw, OneEvent: true})
	if fetch {
		b.assign(dst, xcfa.Reg{Name: old})
	}
	return nil
}

// cmpxchg is r0 = cmpxchg(rd + k, r0, rs) as herd7 builds it (its
// linux_cmpexch_ok and _no): either a fully ordered read of the value r0
// holds and a write of rs, two events paired as an rmw, or a plain read of
// another value; r0 gets the value read. herd7 compares with r0 and writes
// r0 whatever registers the instruction names there, and so does purr.
func (b *builder) cmpxchg(in *parser.Instr, rs []string) error {
	if in.Fn != "cmpxchg_64" && in.Fn != "cmpxchg32_32" {
		return source.Errorf(in.FnPos, "unsupported function %s: herd7's BPF compares and exchanges with cmpxchg_64 and cmpxchg32_32", in.Fn)
	}
	addr, err := b.address(in.Ptr)
	if err != nil {
		return err
	}
	*b.rmw++
	old := b.tmp()
	r0 := xcfa.Reg{Name: "r0"}
	start, join := b.Cur, b.P.NewLoc("")
	b.emit(xcfa.Load{Dst: old, Addr: addr, Tags: tagsSC, RMW: *b.rmw})
	b.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Eq, X: xcfa.Reg{Name: old}, Y: r0}, Internal: true})
	b.emit(xcfa.Store{Addr: addr, Value: xcfa.Reg{Name: rs[2]}, Tags: tagsSC, RMW: *b.rmw})
	b.P.AddEdge(b.Cur, join, xcfa.Nop{}, b.pos, b.Instr)
	b.Cur = start
	b.emit(xcfa.Load{Dst: old, Addr: addr})
	b.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: old}, Y: r0}, Internal: true})
	b.P.AddEdge(b.Cur, join, xcfa.Nop{}, b.pos, b.Instr)
	b.Cur = join
	b.assign("r0", xcfa.Reg{Name: old})
	return nil
}
