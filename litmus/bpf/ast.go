package bpf

import (
	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/bpf/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// table is the parsed program: thread names and rows of cells.
type table = asm.Table[instr]

type cell = asm.Cell[instr]

// form is the shape of an instruction as herd7's grammar tells them apart.
type form int

const (
	aluReg      form = iota // r1 += r2
	aluImm                  // r1 += 5
	movReg                  // r1 = r2
	movImm                  // r1 = 5
	load                    // r1 = *(u32 *)(r2 + 0)
	store                   // *(u32 *)(r1 + 0) = r2
	storeImm                // *(u32 *)(r1 + 0) = 5
	loadFunc                // r1 = load_acquire((u32 *)(r2 + 0))
	storeFunc               // store_release((u32 *)(r1 + 0), r2)
	fetchFunc               // r2 = atomic_fetch_add((u64 *)(r1 + 0), r2)
	xchgFunc                // r2 = xchg_64(r1 + 0, r2)
	cmpxchgFunc             // r0 = cmpxchg_64(r1 + 0, r0, r2)
	lockOp                  // lock *(u32 *)(r1 + 0) += r2
	gotoLabel               // goto L
	ifReg                   // if r1 == r2 goto L
	ifImm                   // if r1 == 5 goto L
)

// instr is one instruction as written.
type instr struct {
	form   form
	regs   []operand // the registers, in the order written
	imm    int64     // the immediate of the ...Imm forms
	op     string    // the ALU operator (+=, ...) or the condition (==, ...)
	fn     string    // the function of the ...Func forms
	fnPos  source.Pos
	ptr    *pointer // the memory operand (uN *)(r + k), or (r + k) of xchg and cmpxchg
	target operand  // goto's label
	pos    source.Pos
	text   string // as written
}

// operand is a register or label name as written.
type operand struct {
	name string
	pos  source.Pos
}

// pointer is a memory operand: a width (8, 16, 32, 64; 0 when the form has
// none), a base register and an offset.
type pointer struct {
	width  int
	base   operand
	offset int64
}

// parseTable parses the program section.
func parseTable(sec litmus.Section) (*table, error) {
	l := syntax.NewListener(sec.File)
	lexer := parser.NewBPFLexer(nil)
	syntax.Feed(lexer.BaseLexer, sec.Src, sec.Start, sec.End)
	p := parser.NewBPFParser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
	l.Attach(lexer, p)
	tree := p.Program()
	if len(l.Errs) > 0 {
		return nil, l.Errs.Err()
	}
	b := &astBuilder{file: sec.File}
	t := asm.ReadTable[parser.IRowContext, parser.ICellContext, parser.ILabelContext](
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

func (b *astBuilder) reg(c parser.IRegContext) operand {
	return operand{name: c.GetText(), pos: b.pos(c)}
}

func (b *astBuilder) regs(cs ...parser.IRegContext) []operand {
	out := make([]operand, len(cs))
	for i, c := range cs {
		out[i] = b.reg(c)
	}
	return out
}

func (b *astBuilder) imm(c parser.IImmContext) int64 {
	n, err := litmus.ParseInt(c.GetText())
	if err != nil {
		b.errs = append(b.errs, source.Errorf(b.pos(c), "%v", err))
	}
	return n
}

// widths are the bits of herd7's sizes u8 ... u64.
var widths = map[string]int{"u8": 8, "u16": 16, "u32": 32, "u64": 64}

func (b *astBuilder) pointer(c parser.IPointerContext) *pointer {
	return &pointer{width: widths[c.SIZE().GetText()], base: b.reg(c.Reg()), offset: b.imm(c.Imm())}
}

func (b *astBuilder) instr(c parser.IInstructionContext) *instr {
	in := &instr{pos: b.pos(c), text: sourceText(c)}
	fn := func(t antlr.TerminalNode) {
		in.fn, in.fnPos = t.GetText(), b.tokPos(t)
	}
	switch c := c.(type) {
	case *parser.AluRegContext:
		in.form, in.regs, in.op = aluReg, b.regs(c.AllReg()...), c.ALUOP().GetText()
	case *parser.AluImmContext:
		in.form, in.regs, in.op, in.imm = aluImm, b.regs(c.Reg()), c.ALUOP().GetText(), b.imm(c.Imm())
	case *parser.MovRegContext:
		in.form, in.regs = movReg, b.regs(c.AllReg()...)
	case *parser.MovImmContext:
		in.form, in.regs, in.imm = movImm, b.regs(c.Reg()), b.imm(c.Imm())
	case *parser.LoadContext:
		in.form, in.regs, in.ptr = load, b.regs(c.Reg()), b.pointer(c.Pointer())
	case *parser.StoreContext:
		in.form, in.regs, in.ptr = store, b.regs(c.Reg()), b.pointer(c.Pointer())
	case *parser.StoreImmContext:
		in.form, in.ptr, in.imm = storeImm, b.pointer(c.Pointer()), b.imm(c.Imm())
	case *parser.LoadFuncContext:
		in.form, in.regs, in.ptr = loadFunc, b.regs(c.Reg()), b.pointer(c.Pointer())
		fn(c.NAME())
	case *parser.StoreFuncContext:
		in.form, in.regs, in.ptr = storeFunc, b.regs(c.Reg()), b.pointer(c.Pointer())
		fn(c.NAME())
	case *parser.FetchFuncContext:
		in.form, in.regs, in.ptr = fetchFunc, b.regs(c.AllReg()...), b.pointer(c.Pointer())
		fn(c.NAME())
	case *parser.XchgFuncContext:
		rs := b.regs(c.AllReg()...)
		in.form, in.ptr = xchgFunc, &pointer{base: rs[1], offset: b.imm(c.Imm())}
		in.regs = []operand{rs[0], rs[2]}
		fn(c.NAME())
	case *parser.CmpxchgFuncContext:
		rs := b.regs(c.AllReg()...)
		in.form, in.ptr = cmpxchgFunc, &pointer{base: rs[1], offset: b.imm(c.Imm())}
		in.regs = []operand{rs[0], rs[2], rs[3]}
		fn(c.NAME())
	case *parser.LockOpContext:
		in.form, in.regs, in.ptr, in.op = lockOp, b.regs(c.Reg()), b.pointer(c.Pointer()), c.ALUOP().GetText()
	case *parser.GotoContext:
		in.form, in.target = gotoLabel, operand{name: c.NAME().GetText(), pos: b.tokPos(c.NAME())}
	case *parser.IfRegContext:
		in.form, in.regs, in.op = ifReg, b.regs(c.AllReg()...), c.COND().GetText()
		in.target = operand{name: c.NAME().GetText(), pos: b.tokPos(c.NAME())}
	case *parser.IfImmContext:
		in.form, in.regs, in.op, in.imm = ifImm, b.regs(c.Reg()), c.COND().GetText(), b.imm(c.Imm())
		in.target = operand{name: c.NAME().GetText(), pos: b.tokPos(c.NAME())}
	}
	return in
}

// sourceText is the text of c as written, spaces included.
func sourceText(c antlr.ParserRuleContext) string {
	start, stop := c.GetStart(), c.GetStop()
	if start == nil || stop == nil {
		return c.GetText()
	}
	return start.GetInputStream().GetTextFromInterval(antlr.NewInterval(start.GetStart(), stop.GetStop()))
}
