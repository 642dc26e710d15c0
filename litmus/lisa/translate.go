package lisa

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/lisa/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// sample is a test litmus.Warm reads to set up the parsers.
const sample = `LISA sample
{ x=0; y=0; }
 P0                    | P1                  ;
 w[once] x 1           | r[acquire] r1 y     ;
 f[mb]                 | rmw[] r2 (add r2 1) x ;
 w[release] y 1        | b[] r1 L0           ;
                       | mov r3 (eq r1 0)    ;
                       | L0:                 ;
exists (1:r1=1 /\ 1:r2=0)
`

func init() {
	// LISA has no model of its own: herd7 runs it under the user's bell
	// and cat files, and so does purr (-bell, -m). Its event sets are the
	// annotations the test writes, which the bell declares.
	litmus.RegisterDialect(litmus.Dialect{Arch: "LISA", Translate: Translate, Sample: sample})
}

// Translate turns the program part of a LISA test into an XCFA.
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	if err := t.RenameRegisters(stateRegister); err != nil {
		return nil, err
	}
	if err := refuseBellSections(sec); err != nil {
		return nil, err
	}
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
	t.HashCode = hashCode(tab)
	return prog, nil
}

// refuseBellSections refuses the sections herd7's LISA reads after the
// program's rows (scopes: ..., levels: ..., regions: ...), the thread scope
// trees and memory regions of its GPU models, which purr does not model.
func refuseBellSections(sec litmus.Section) error {
	off := sec.Start
	for _, line := range strings.SplitAfter(sec.Text(), "\n") {
		word := strings.TrimLeft(line, " \t")
		for _, kw := range []string{"scopes", "levels", "regions"} {
			if rest, ok := strings.CutPrefix(word, kw); ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), ":") {
				return source.Errorf(sec.Pos(off+len(line)-len(word)), "unsupported %s section: herd7's scope trees and memory regions of LISA tests purr does not model", kw)
			}
		}
		off += len(line)
	}
	return nil
}

// regNumber reads one of herd7's LISA registers, r0, r1, ... (BellBase's
// parse_reg: r and a number).
func regNumber(name string) (int, bool) {
	if len(name) < 2 || name[0] != 'r' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 || strings.ContainsAny(name[1:], "+-") {
		return 0, false
	}
	return n, true
}

// canonicalReg is the XCFA's name of a register, as herd7 prints it: r0 for r00.
func canonicalReg(n int) string { return "r" + strconv.Itoa(n) }

// stateRegister names a register of the test's state, locations, filter or
// condition by its XCFA register; another name is no register of herd7's
// LISA.
func stateRegister(l litmus.Loc) (string, error) {
	n, ok := regNumber(l.Name)
	if !ok {
		return "", source.Errorf(l.Pos, "%d:%s is no register of herd7's LISA: r0, r1, ...", l.Proc, l.Name)
	}
	return canonicalReg(n), nil
}

// builder translates one thread's instructions, in order.
type builder struct {
	*asm.Flow
	pos  source.Pos
	tmps int
	rmw  *int // the program's last RMW id
	par  []xcfa.Par
}

// emit emits op as the next edge of the instruction, in the parallel part
// b.par when one is set.
func (b *builder) emit(op xcfa.Op) {
	if b.par == nil {
		b.Emit(op, b.pos)
		return
	}
	next := b.P.NewLoc("")
	b.P.AddEdge(b.Cur, next, op, b.pos, b.Instr).Par = b.par
	b.Cur = next
}

func (b *builder) tmp() string {
	b.tmps++
	return fmt.Sprintf("tmp.%d", b.tmps)
}

// tags are the Cat sets of an access or fence annotated with annots: the
// set herd7 makes of each annotation the bell declares, its name upper-cased
// first ('once is Once).
func tags(annots []string) []string {
	var out []string
	for _, a := range annots {
		out = append(out, ast.TagSet(a))
	}
	return out
}

// reg reads a register operand.
func reg(v parser.Value) (string, error) {
	if v.Kind == parser.SymRegVal {
		return "", source.Errorf(v.Pos, "unsupported symbolic register %%%s", v.Name)
	}
	if v.Kind == parser.NameVal {
		if n, ok := regNumber(v.Name); ok {
			return canonicalReg(n), nil
		}
	}
	return "", source.Errorf(v.Pos, "expected a register r0, r1, ..., found %s", v.Text)
}

// value reads a value: a register's, a location's address, a number.
func value(v parser.Value) (xcfa.Expr, error) {
	switch v.Kind {
	case parser.NumVal:
		return xcfa.Const{Value: v.Num}, nil
	case parser.MetaVal:
		return nil, source.Errorf(v.Pos, "unsupported meta-variable &%s: herd7 reads it in test templates only", v.Name)
	case parser.SymRegVal:
		return nil, source.Errorf(v.Pos, "unsupported symbolic register %%%s", v.Name)
	}
	if n, ok := regNumber(v.Name); ok {
		return xcfa.Reg{Name: canonicalReg(n)}, nil
	}
	return xcfa.Sym{Name: v.Name}, nil
}

// address reads an address operand, herd7's addr_op: a register or a
// location, plus a register or a number.
func address(o parser.Operand) (xcfa.Expr, error) {
	if o.X == nil {
		return nil, source.Errorf(o.Pos, "expected an address (x, r1, x+r2, x+4), found %s", o.Text)
	}
	if o.X.Kind == parser.NumVal {
		return nil, source.Errorf(o.Pos, "unsupported numeric address %s: herd7's LISA addresses are locations or registers", o.Text)
	}
	a, err := value(*o.X)
	if err != nil {
		return nil, err
	}
	if o.Plus == nil {
		return a, nil
	}
	if o.Plus.Kind == parser.NameVal {
		if _, ok := regNumber(o.Plus.Name); !ok {
			return nil, source.Errorf(o.Plus.Pos, "an offset is a register or a number, found %s", o.Plus.Text)
		}
	}
	k, err := value(*o.Plus)
	if err != nil {
		return nil, err
	}
	return xcfa.Binary{Op: xcfa.Add, X: a, Y: k}, nil
}

// plain reads an operand that is one value (a register or a number, not
// x+k), as herd7's reg_or_imm.
func plain(o parser.Operand, what string) (xcfa.Expr, error) {
	if o.X == nil || o.Plus != nil {
		return nil, source.Errorf(o.Pos, "expected %s, found %s", what, o.Text)
	}
	return value(*o.X)
}

// ops are herd7's LISA operators, (add x y) ...
var ops = map[string]xcfa.BinOp{"add": xcfa.Add, "xor": xcfa.Xor, "and": xcfa.And, "eq": xcfa.Eq, "neq": xcfa.Ne}

// operation reads herd7's operation: a value or (op x y); regs maps a
// register to the value it stands for (the value an rmw reads).
func operation(o parser.Operand, regs map[string]xcfa.Expr) (xcfa.Expr, error) {
	arg := func(v parser.Value) (xcfa.Expr, error) {
		e, err := value(v)
		if r, ok := e.(xcfa.Reg); ok && regs[r.Name] != nil {
			return regs[r.Name], nil
		}
		return e, err
	}
	if o.Op == "" {
		if o.Plus != nil {
			return nil, source.Errorf(o.Pos, "expected a value or an operation (add x y), found %s", o.Text)
		}
		return arg(*o.X)
	}
	op, ok := ops[o.Op]
	if !ok {
		return nil, source.Errorf(o.Pos, "unsupported operation %s: herd7's LISA has add, xor, and, eq and neq", o.Op)
	}
	if len(o.Args) != 2 {
		return nil, source.Errorf(o.Pos, "(%s x y) takes two values", o.Op)
	}
	x, err := arg(o.Args[0])
	if err != nil {
		return nil, err
	}
	y, err := arg(o.Args[1])
	if err != nil {
		return nil, err
	}
	return xcfa.Binary{Op: op, X: x, Y: y}, nil
}

// usesReg tells whether an operation reads register r.
func usesReg(o parser.Operand, r string) bool {
	vs := o.Args
	if o.X != nil {
		vs = []parser.Value{*o.X}
	}
	for _, v := range vs {
		if n, ok := regNumber(v.Name); ok && v.Kind == parser.NameVal && canonicalReg(n) == r {
			return true
		}
	}
	return false
}

// operands checks an instruction's operand count and annotations.
func (b *builder) operands(in *parser.Instr, counts ...int) error {
	for _, n := range counts {
		if len(in.Ops) == n {
			return nil
		}
	}
	return source.Errorf(in.Pos, "%s takes %v operand(s), found %d", in.Mnem, counts, len(in.Ops))
}

// instruction translates one instruction with herd7's semantics
// (herd/BellSem.ml).
func (b *builder) instruction(in *parser.Instr) error {
	if in.FenceLabels {
		return source.Errorf(in.Pos, "unsupported fence with label sets: %s (herd7 orders the instructions of the labels only)", in.Text)
	}
	switch in.Mnem {
	case "mov":
		if in.Annots != nil {
			return source.Errorf(in.Pos, "mov takes no annotations: %s", in.Text)
		}
	case "r", "w", "f", "rmw", "b":
		if in.Annots == nil {
			return source.Errorf(in.Pos, "%s takes its annotations in brackets, %s[...] (herd7's syntax): %s", in.Mnem, in.Mnem, in.Text)
		}
	case "call":
		return source.Errorf(in.Pos, "unsupported instruction call: herd7 stops on it (\"Obsolete 'call' instruction\")")
	default:
		return source.Errorf(in.Pos, "unsupported instruction %s: herd7's LISA has r, w, f, rmw, b and mov", in.Mnem)
	}
	switch in.Mnem {
	case "r":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		dst, err := plainReg(in.Ops[0])
		if err != nil {
			return err
		}
		addr, err := address(in.Ops[1])
		if err != nil {
			return err
		}
		b.emit(xcfa.Load{Dst: dst, Addr: addr, Tags: tags(in.Annots)})
	case "w":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		addr, err := address(in.Ops[0])
		if err != nil {
			return err
		}
		v, err := plain(in.Ops[1], "a register or a number")
		if err != nil {
			return err
		}
		if _, isSym := v.(xcfa.Sym); isSym {
			return source.Errorf(in.Ops[1].Pos, "a write stores a register or a number, found %s", in.Ops[1].Text)
		}
		b.emit(xcfa.Store{Addr: addr, Value: v, Tags: tags(in.Annots)})
	case "f":
		if err := b.operands(in, 0); err != nil {
			return err
		}
		b.emit(xcfa.Fence{Tags: tags(in.Annots)})
	case "rmw":
		return b.rmwInstr(in)
	case "b":
		if err := b.operands(in, 1, 2); err != nil {
			return err
		}
		last := in.Ops[len(in.Ops)-1]
		if last.X == nil || last.Plus != nil || last.X.Kind != parser.NameVal {
			return source.Errorf(last.Pos, "b takes a label, found %s", last.Text)
		}
		if len(in.Ops) == 1 {
			b.Jump(last.X.Name, b.pos, last.Pos)
			return nil
		}
		r, err := plainReg(in.Ops[0])
		if err != nil {
			return err
		}
		// herd7 branches when the register is non-zero (its bccT).
		b.Branch(last.X.Name, xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: r}, Y: xcfa.Const{Value: 0}}, b.pos, last.Pos)
	case "mov":
		if err := b.operands(in, 2); err != nil {
			return err
		}
		dst, err := plainReg(in.Ops[0])
		if err != nil {
			return err
		}
		v, err := operation(in.Ops[1], nil)
		if err != nil {
			return err
		}
		b.emit(xcfa.Assign{Dst: dst, Value: v})
	}
	return nil
}

// plainReg reads an operand that is a register.
func plainReg(o parser.Operand) (string, error) {
	if o.X == nil || o.Plus != nil {
		return "", source.Errorf(o.Pos, "expected a register r0, r1, ..., found %s", o.Text)
	}
	return reg(*o.X)
}

// rmwInstr is herd7's rmw[...] r op x: an atomic read of x and write of the
// operation's value, r getting the value read. When the operation reads r,
// r stands there for the value read, and the write depends on the read (in
// po after it); otherwise herd7 builds an exchange, whose read and write are
// parallel (its exch).
func (b *builder) rmwInstr(in *parser.Instr) error {
	if err := b.operands(in, 3); err != nil {
		return err
	}
	dst, err := plainReg(in.Ops[0])
	if err != nil {
		return err
	}
	addr, err := address(in.Ops[2])
	if err != nil {
		return err
	}
	*b.rmw++
	id, ts := *b.rmw, tags(in.Annots)
	old := b.tmp()
	if usesReg(in.Ops[1], dst) {
		v, err := operation(in.Ops[1], map[string]xcfa.Expr{dst: xcfa.Reg{Name: old}})
		if err != nil {
			return err
		}
		b.emit(xcfa.Load{Dst: old, Addr: addr, Tags: ts, RMW: id})
		nv := b.tmp()
		b.emit(xcfa.Assign{Dst: nv, Value: v})
		b.emit(xcfa.Store{Addr: addr, Value: xcfa.Reg{Name: nv}, Tags: ts, RMW: id})
		b.emit(xcfa.Assign{Dst: dst, Value: xcfa.Reg{Name: old}})
		return nil
	}
	v, err := operation(in.Ops[1], nil)
	if err != nil {
		return err
	}
	nv := b.tmp()
	b.emit(xcfa.Assign{Dst: nv, Value: v})
	b.par = []xcfa.Par{{Node: b.Instr, Branch: 0}}
	b.emit(xcfa.Load{Dst: old, Addr: addr, Tags: ts, RMW: id})
	b.par = []xcfa.Par{{Node: b.Instr, Branch: 1}}
	b.emit(xcfa.Store{Addr: addr, Value: xcfa.Reg{Name: nv}, Tags: ts, RMW: id})
	b.par = nil
	b.emit(xcfa.Assign{Dst: dst, Value: xcfa.Reg{Name: old}})
	return nil
}
