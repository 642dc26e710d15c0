package x86

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/x86/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

const sample = `X86 sample
{ 0:EAX=2; }
 P0                | P1            ;
 MOV [x],$1        | MOV EAX,[y]   ;
 MFENCE            | MOV EBX,[x]   ;
 MOV [y],$1        | XCHG [x],ECX  ;
 LOCK; ADD [x],EAX |               ;
exists (1:EAX=1 /\ 1:EBX=0)
`

const sample64 = `X86_64 sample
{ }
 P0             | P1              ;
 movl $1,(x)    | movl (y),%eax   ;
 mfence         | movl (x),%ebx   ;
 movl $1,(y)    | xchgl %ecx,(x)  ;
exists (1:rax=1 /\ 1:rbx=0)
`

func init() {
	// The barriers (herd's x86fences.cat reads them) and X, the set of
	// locked accesses.
	tags := []string{"MFENCE", "SFENCE", "LFENCE", "X"}
	litmus.RegisterDialect(litmus.Dialect{Arch: "X86", Translate: Translate, Model: "x86tso",
		HerdIncludes: []string{"x86fences.cat", "filters.cat", "cos.cat"}, Tags: tags, Sample: sample})
	litmus.RegisterDialect(litmus.Dialect{Arch: "X86_64", Translate: Translate64, Model: "x86tso-mixed",
		HerdIncludes: []string{"x86fences.cat", "cos.cat", "cos-ok-opt.cat", "cos-no-opt.cat"}, Tags: tags, Sample: sample64})
}

// Translate turns the program part of an X86 test into an XCFA.
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	if err := t.RenameRegisters(stateRegister); err != nil {
		return nil, err
	}
	prog, tab, err := translateTable(t, sec, (*builder).x86Instruction)
	if err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab, hashX86)
	return prog, nil
}

// program is what the threads of one test share while they are translated.
type program struct {
	rmw      int         // the last RMW id
	accesses []memAccess // X86_64: every memory operand, with its size
}

// translateTable parses the program section and translates each thread's
// cells in order, instruction by instruction.
func translateTable(t *litmus.Test, sec litmus.Section, instruction func(*builder, *parser.Instr) error) (*xcfa.Program, *asm.Table[parser.Instr], error) {
	tab, err := parser.ParseTable(sec)
	if err != nil {
		return nil, nil, err
	}
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch, OrderedInstrs: true}
	var builders []*builder
	shared := &program{}
	err = tab.Translate(prog, func(f *asm.Flow) { builders = append(builders, &builder{Flow: f, prog: shared}) },
		func(thread int, in *parser.Instr) error {
			b := builders[thread]
			b.Instr = b.P.NewInstr(in.Text)
			b.pos, b.text = in.Pos, in.Text
			return instruction(b, in)
		})
	if err != nil {
		return nil, nil, err
	}
	if err := checkAccessSizes(shared.accesses); err != nil {
		return nil, nil, err
	}
	return prog, tab, nil
}

// checkAccessSizes refuses a program that accesses one location with two
// sizes (purr has no mixed-size semantics), at the later access. Sizes
// are the instructions' (X86_64's movl, movq, ...); a program whose
// accesses all have one size is plain. When sizes differ, an address held
// in a register could be any location: purr cannot check it, and refuses.
func checkAccessSizes(accs []memAccess) error {
	var other *memAccess // the first access whose size is not the first one's
	for i := range accs {
		if accs[i].size != accs[0].size {
			other = &accs[i]
			break
		}
	}
	if other == nil {
		return nil
	}
	const unsupported = "purr does not support mixed-size accesses"
	first := map[string]memAccess{}
	for _, a := range accs {
		if a.sym == "" {
			b := accs[0]
			if b.size == a.size {
				b = *other
			}
			return source.Errorf(a.pos, "%s accesses %s at an address a register holds, while %s: %s accesses %s: purr cannot tell that no location is accessed with both sizes; %s",
				a.text, byteCount(a.size), b.pos, b.text, byteCount(b.size), unsupported)
		}
		f, seen := first[a.sym]
		if !seen {
			first[a.sym] = a
			continue
		}
		if f.size != a.size {
			return source.Errorf(a.pos, "mixed-size accesses to %s: %s (%s) and %s: %s (%s); %s",
				a.sym, a.text, byteCount(a.size), f.pos, f.text, byteCount(f.size), unsupported)
		}
	}
	return nil
}

func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// builder translates one thread's instructions, in order.
type builder struct {
	*asm.Flow
	pos  source.Pos // the instruction's
	text string     // the instruction, as written
	tmps int
	prog *program
}

func (b *builder) emit(op xcfa.Op) { b.Emit(op, b.pos) }

func (b *builder) assign(dst string, v xcfa.Expr) { b.emit(xcfa.Assign{Dst: dst, Value: v}) }

// tmp returns a fresh temporary register name (never an architectural one).
func (b *builder) tmp() string {
	b.tmps++
	return fmt.Sprintf("tmp.%d", b.tmps)
}

// freshRMW returns a new id pairing the read and the write of one atomic
// instruction.
func (b *builder) freshRMW() int {
	b.prog.rmw++
	return b.prog.rmw
}

// location is where an operand lives: a register, or a memory address.
type location struct {
	reg  string
	addr xcfa.Expr // nil for a register
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

// result keeps a computed value in a temporary, so that the flags read the
// value written, whatever the write changes.
func (b *builder) result(v xcfa.Expr) xcfa.Expr {
	t := b.tmp()
	b.assign(t, v)
	return xcfa.Reg{Name: t}
}

// operands checks that in has n operands, at most one of them memory:
// every instruction then has at most one read and one write of memory,
// in sequence, as herd7's iico orders them (xcfa.Program.OrderedInstrs);
// herd7 would read two memory operands in parallel.
func (b *builder) operands(in *parser.Instr, n int) error {
	if len(in.Ops) != n {
		return source.Errorf(in.Pos, "%s takes %d operand(s), found %d", in.Mnem, n, len(in.Ops))
	}
	if n == 2 && in.Ops[0].Kind == parser.MemOp && in.Ops[1].Kind == parser.MemOp {
		return source.Errorf(in.Pos, "unsupported instruction with two memory operands: %s", in.Text)
	}
	return nil
}

func bin(op xcfa.BinOp, x, y xcfa.Expr) xcfa.Expr { return xcfa.Binary{Op: op, X: x, Y: y} }

var zero, one = xcfa.Const{Value: 0}, xcfa.Const{Value: 1}

// The flags, which herd7 keeps as registers in both dialects.
var zf, sf, cf = xcfa.Reg{Name: "ZF"}, xcfa.Reg{Name: "SF"}, xcfa.Reg{Name: "CF"}

// setFlags writes the flags herd7's arithmetic instructions write:
// ZF := x == y, SF := x > y (signed) and, when withCF, CF := 0.
func (b *builder) setFlags(x, y xcfa.Expr, withCF bool) {
	b.assign(zf.Name, bin(xcfa.Eq, x, y))
	b.assign(sf.Name, bin(xcfa.Gt, x, y))
	if withCF {
		b.assign(cf.Name, zero)
	}
}

// jump translates a jump to the label of its only operand: taken is the
// condition of a conditional jump, nil for an unconditional one (a Nop
// edge; code after it is unreachable). A conditional jump is two Assume
// edges, taken and not taken.
func (b *builder) jump(in *parser.Instr, taken xcfa.Expr) error {
	if err := b.operands(in, 1); err != nil {
		return err
	}
	o := in.Ops[0]
	if o.Kind != parser.NameOp {
		return source.Errorf(o.Pos, "%s takes a label, found %s", in.Mnem, o.Text)
	}
	if taken == nil {
		b.Jump(o.Name, b.pos, o.Pos)
	} else {
		b.Branch(o.Name, taken, b.pos, o.Pos)
	}
	return nil
}

// choose is herd7's choiceT on cond within one instruction: then runs
// when cond is non-zero, and nothing otherwise; internal assumptions, no
// branch event.
func (b *builder) choose(cond xcfa.Expr, then func() error) error {
	start, join := b.Cur, b.P.NewLoc("")
	b.emit(xcfa.Assume{Cond: cond, Internal: true})
	if err := then(); err != nil {
		return err
	}
	b.P.AddEdge(b.Cur, join, xcfa.Nop{}, b.pos, b.Instr)
	b.P.AddEdge(start, join, xcfa.Assume{Cond: xcfa.Unary{Op: xcfa.Not, X: cond}, Internal: true}, b.pos, b.Instr)
	b.Cur = join
	return nil
}
