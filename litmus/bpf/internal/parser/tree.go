package parser

import (
	"github.com/antlr4-go/antlr/v4"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/asmtable"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// Form is the shape of an instruction as herd7's grammar tells them apart.
type Form int

const (
	AluReg      Form = iota // r1 += r2
	AluImm                  // r1 += 5
	MovReg                  // r1 = r2
	MovImm                  // r1 = 5
	Load                    // r1 = *(u32 *)(r2 + 0)
	Store                   // *(u32 *)(r1 + 0) = r2
	StoreImm                // *(u32 *)(r1 + 0) = 5
	LoadFunc                // r1 = load_acquire((u32 *)(r2 + 0))
	StoreFunc               // store_release((u32 *)(r1 + 0), r2)
	FetchFunc               // r2 = atomic_fetch_add((u64 *)(r1 + 0), r2)
	XchgFunc                // r2 = xchg_64(r1 + 0, r2)
	CmpxchgFunc             // r0 = cmpxchg_64(r1 + 0, r0, r2)
	LockOp                  // lock *(u32 *)(r1 + 0) += r2
	GotoLabel               // goto L
	IfReg                   // if r1 == r2 goto L
	IfImm                   // if r1 == 5 goto L
)

// Instr is one instruction as written.
type Instr struct {
	Form   Form
	Regs   []Operand // the registers, in the order written
	Imm    int64     // the immediate of the ...Imm forms
	Op     string    // the ALU operator (+=, ...) or the condition (==, ...)
	Fn     string    // the function of the ...Func forms
	FnPos  source.Pos
	Ptr    *Pointer // the memory operand (uN *)(r + k), or (r + k) of xchg and cmpxchg
	Target Operand  // goto's label
	Pos    source.Pos
	Text   string // as written
}

// Operand is a register or label name as written.
type Operand struct {
	Name string
	Pos  source.Pos
}

// Pointer is a memory operand: a width (8, 16, 32, 64; 0 when the form has
// none), a base register and an offset.
type Pointer struct {
	Width  int
	Base   Operand
	Offset int64
}

// ParseTable parses the program section into its table of instructions.
func ParseTable(sec litmus.Section) (*asm.Table[Instr], error) {
	lexer := NewBPFLexer(nil)
	tree, err := syntax.Parse(sec.File, sec.Src, sec.Start, sec.End, lexer, lexer.BaseLexer, NewBPFParser, (*BPFParser).Program)
	if err != nil {
		return nil, err
	}
	b := &astBuilder{file: sec.File}
	t := asmtable.ReadTable[IRowContext, ICellContext, ILabelContext](
		sec.File, tree.Header().AllProcName(), tree.AllRow(), sec.Pos(sec.End), b.instr)
	if len(b.errs) > 0 {
		return nil, b.errs.Err()
	}
	return t, nil
}

type astBuilder struct {
	file string
	errs source.ErrorList
}

func (b *astBuilder) pos(c antlr.ParserRuleContext) source.Pos { return syntax.CtxPos(b.file, c) }

func (b *astBuilder) tokPos(t antlr.TerminalNode) source.Pos {
	return syntax.TokenPos(b.file, t.GetSymbol())
}

func (b *astBuilder) reg(c IRegContext) Operand {
	return Operand{Name: c.GetText(), Pos: b.pos(c)}
}

func (b *astBuilder) regs(cs ...IRegContext) []Operand {
	out := make([]Operand, len(cs))
	for i, c := range cs {
		out[i] = b.reg(c)
	}
	return out
}

func (b *astBuilder) imm(c IImmContext) int64 {
	n, err := litmus.ParseInt(c.GetText())
	if err != nil {
		b.errs = append(b.errs, source.Errorf(b.pos(c), "%v", err))
	}
	return n
}

// widths are the bits of herd7's sizes u8 ... u64.
var widths = map[string]int{"u8": 8, "u16": 16, "u32": 32, "u64": 64}

func (b *astBuilder) pointer(c IPointerContext) *Pointer {
	return &Pointer{Width: widths[c.SIZE().GetText()], Base: b.reg(c.Reg()), Offset: b.imm(c.Imm())}
}

func (b *astBuilder) instr(c IInstructionContext) *Instr {
	in := &Instr{Pos: b.pos(c), Text: asmtable.SourceText(c)}
	fn := func(t antlr.TerminalNode) {
		in.Fn, in.FnPos = t.GetText(), b.tokPos(t)
	}
	switch c := c.(type) {
	case *AluRegContext:
		in.Form, in.Regs, in.Op = AluReg, b.regs(c.AllReg()...), c.ALUOP().GetText()
	case *AluImmContext:
		in.Form, in.Regs, in.Op, in.Imm = AluImm, b.regs(c.Reg()), c.ALUOP().GetText(), b.imm(c.Imm())
	case *MovRegContext:
		in.Form, in.Regs = MovReg, b.regs(c.AllReg()...)
	case *MovImmContext:
		in.Form, in.Regs, in.Imm = MovImm, b.regs(c.Reg()), b.imm(c.Imm())
	case *LoadContext:
		in.Form, in.Regs, in.Ptr = Load, b.regs(c.Reg()), b.pointer(c.Pointer())
	case *StoreContext:
		in.Form, in.Regs, in.Ptr = Store, b.regs(c.Reg()), b.pointer(c.Pointer())
	case *StoreImmContext:
		in.Form, in.Ptr, in.Imm = StoreImm, b.pointer(c.Pointer()), b.imm(c.Imm())
	case *LoadFuncContext:
		in.Form, in.Regs, in.Ptr = LoadFunc, b.regs(c.Reg()), b.pointer(c.Pointer())
		fn(c.NAME())
	case *StoreFuncContext:
		in.Form, in.Regs, in.Ptr = StoreFunc, b.regs(c.Reg()), b.pointer(c.Pointer())
		fn(c.NAME())
	case *FetchFuncContext:
		in.Form, in.Regs, in.Ptr = FetchFunc, b.regs(c.AllReg()...), b.pointer(c.Pointer())
		fn(c.NAME())
	case *XchgFuncContext:
		rs := b.regs(c.AllReg()...)
		in.Form, in.Ptr = XchgFunc, &Pointer{Base: rs[1], Offset: b.imm(c.Imm())}
		in.Regs = []Operand{rs[0], rs[2]}
		fn(c.NAME())
	case *CmpxchgFuncContext:
		rs := b.regs(c.AllReg()...)
		in.Form, in.Ptr = CmpxchgFunc, &Pointer{Base: rs[1], Offset: b.imm(c.Imm())}
		in.Regs = []Operand{rs[0], rs[2], rs[3]}
		fn(c.NAME())
	case *LockOpContext:
		in.Form, in.Regs, in.Ptr, in.Op = LockOp, b.regs(c.Reg()), b.pointer(c.Pointer()), c.ALUOP().GetText()
	case *GotoContext:
		in.Form, in.Target = GotoLabel, Operand{Name: c.NAME().GetText(), Pos: b.tokPos(c.NAME())}
	case *IfRegContext:
		in.Form, in.Regs, in.Op = IfReg, b.regs(c.AllReg()...), c.COND().GetText()
		in.Target = Operand{Name: c.NAME().GetText(), Pos: b.tokPos(c.NAME())}
	case *IfImmContext:
		in.Form, in.Regs, in.Op, in.Imm = IfImm, b.regs(c.Reg()), c.COND().GetText(), b.imm(c.Imm())
		in.Target = Operand{Name: c.NAME().GetText(), Pos: b.tokPos(c.NAME())}
	}
	return in
}
