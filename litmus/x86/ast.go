package x86

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/litmus/x86/internal/parser"
	"github.com/purr-mcm/purr/source"
)

// table is the parsed program: thread names and rows of cells.
type table = asm.Table[instr]

type cell = asm.Cell[instr]

// instr is one instruction as written: a mnemonic and its operands, or a
// LOCK prefix and the instruction it applies to.
type instr struct {
	mnem   string // upper case
	ops    []operand
	locked *instr // LOCK ; inner
	pos    source.Pos
	text   string // as written
}

type operandKind int

const (
	immOp    operandKind = iota // $5, 5
	nameOp                      // EAX, a label
	memOp                       // [x], [EAX], (EAX), (%rax), 8(%rax)
	absOp                       // [5]
	symRegOp                    // %r
)

type operand struct {
	kind    operandKind
	imm     int64  // immOp: the value; absOp: the address; memOp: the displacement
	name    string // as written, without the % of a symRegOp or of a memOp's %r
	paren   bool   // memOp written (R)
	percent bool   // memOp whose name is written %r
	disp    bool   // memOp written with a displacement: 8(%rax)
	pos     source.Pos
	text    string
}

// parseTable parses the program section.
func parseTable(sec litmus.Section) (*table, error) {
	l := syntax.NewListener(sec.File)
	lexer := parser.NewX86Lexer(nil)
	syntax.Feed(lexer.BaseLexer, sec.Src, sec.Start, sec.End)
	p := parser.NewX86Parser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
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

func (b *astBuilder) instr(c parser.IInstructionContext) *instr {
	in := &instr{pos: b.pos(c), text: sourceText(c)}
	switch c := c.(type) {
	case *parser.LockedInstructionContext:
		in.mnem = "LOCK"
		in.locked = b.instr(c.Instruction())
	case *parser.PlainInstructionContext:
		in.mnem = strings.ToUpper(c.NAME().GetText())
		for _, o := range c.AllOperand() {
			in.ops = append(in.ops, b.operand(o))
		}
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

func (b *astBuilder) num(t antlr.TerminalNode) int64 {
	n, err := litmus.ParseInt(strings.TrimPrefix(t.GetText(), "$"))
	if err != nil {
		b.errs = append(b.errs, source.Errorf(syntax.TokenPos(b.file, t.GetSymbol()), "%v", err))
	}
	return n
}

func (b *astBuilder) operand(c parser.IOperandContext) operand {
	o := operand{pos: b.pos(c), text: c.GetText()}
	switch c := c.(type) {
	case *parser.ImmOperandContext:
		t := c.IMM()
		if t == nil {
			t = c.NUM()
		}
		o.kind, o.imm = immOp, b.num(t)
	case *parser.NameOperandContext:
		o.kind, o.name = nameOp, c.NAME().GetText()
	case *parser.SymRegOperandContext:
		o.kind, o.name = symRegOp, strings.TrimPrefix(c.SYMREG().GetText(), "%")
	case *parser.MemOperandContext:
		o.kind, o.paren = memOp, c.LPAR() != nil
		if n := c.NAME(); n != nil {
			o.name = n.GetText()
		} else {
			o.name, o.percent = strings.TrimPrefix(c.SYMREG().GetText(), "%"), true
		}
		if d := c.NUM(); d != nil {
			o.imm, o.disp = b.num(d), true
		}
	case *parser.AbsOperandContext:
		o.kind, o.imm = absOp, b.num(c.NUM())
	}
	return o
}
