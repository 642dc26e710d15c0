package aarch64

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// table is the parsed program: thread names and rows of cells.
type table = asm.Table[instr]

type cell = asm.Cell[instr]

type instr struct {
	mnem string // upper case
	ops  []operand
	pos  source.Pos
	text string // as written
}

type operandKind int

const (
	immOp    operandKind = iota // #5, 5
	nameOp                      // X0, EQ, SXTW, a label, a symbol
	shiftOp                     // LSL #3
	memOp                       // [X1, #4]!
	relOp                       // .+8
	symRegOp                    // %name, X%name
)

type operand struct {
	kind      operandKind
	imm       int64
	name      string // as written
	sub       []operand
	writeback bool
	pos       source.Pos
	text      string
}

// parseTable parses the program section.
func parseTable(sec litmus.Section) (*table, error) {
	l := syntax.NewListener(sec.File)
	lexer := parser.NewAArch64Lexer(nil)
	syntax.Feed(lexer.BaseLexer, sec.Src, sec.Start, sec.End)
	p := parser.NewAArch64Parser(antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel))
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
	in := &instr{mnem: strings.ToUpper(c.NAME().GetText()), pos: b.pos(c), text: sourceText(c)}
	ops := c.AllOperand()
	in.ops = make([]operand, 0, len(ops))
	for _, o := range ops {
		in.ops = append(in.ops, b.operand(o))
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
	n, err := litmus.ParseInt(t.GetText())
	if err != nil {
		b.errs = append(b.errs, source.Errorf(syntax.TokenPos(b.file, t.GetSymbol()), "%v", err))
	}
	return n
}

func (b *astBuilder) operand(c parser.IOperandContext) operand {
	o := operand{pos: b.pos(c), text: c.GetText()}
	switch c := c.(type) {
	case *parser.ImmOperandContext:
		o.kind, o.imm = immOp, b.num(c.NUM())
	case *parser.ShiftOperandContext:
		o.kind, o.name, o.imm = shiftOp, c.NAME().GetText(), b.num(c.NUM())
	case *parser.NameOperandContext:
		o.kind, o.name = nameOp, c.NAME().GetText()
		if c.SYMREG() != nil {
			o.kind = symRegOp
		}
	case *parser.SymRegOperandContext:
		o.kind, o.name = symRegOp, c.SYMREG().GetText()
	case *parser.MemOperandContext:
		o.kind, o.writeback = memOp, c.BANG() != nil
		for _, s := range c.AllOperand() {
			o.sub = append(o.sub, b.operand(s))
		}
	case *parser.RelOperandContext:
		o.kind, o.imm = relOp, b.num(c.NUM())
	}
	return o
}
