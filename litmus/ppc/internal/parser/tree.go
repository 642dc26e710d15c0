package parser

import (
	"github.com/antlr4-go/antlr/v4"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/asmtable"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// Instr is an instruction as written: a mnemonic and its operands, which
// the translator gives meaning to.
type Instr struct {
	Mnem string // as written (herd7's Power mnemonics are lower case)
	Ops  []Operand
	Pos  source.Pos
	Text string // as written
}

// OperandKind is the syntactic form of an operand.
type OperandKind int

const (
	ImmOp    OperandKind = iota // 5, -8, 0x10
	NameOp                      // r5, cr1, a label
	MemOp                       // 8(r6)
	SymRegOp                    // %name
	StringOp                    // "text" (com's)
)

// Operand is an instruction's operand as written.
type Operand struct {
	Kind OperandKind
	Imm  int64  // ImmOp: the value; MemOp: the offset
	Name string // NameOp, SymRegOp: as written; MemOp: the base register; StringOp: between the quotes
	Pos  source.Pos
	Text string
}

// ParseTable parses the program section into its table of instructions.
func ParseTable(sec litmus.Section) (*asm.Table[Instr], error) {
	lexer := NewPPCLexer(nil)
	tree, err := syntax.Parse(sec.File, sec.Src, sec.Start, sec.End, lexer, lexer.BaseLexer, NewPPCParser, (*PPCParser).Program)
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

func (b *astBuilder) instr(c IInstructionContext) *Instr {
	in := &Instr{Mnem: c.NAME().GetText(), Pos: b.pos(c), Text: asmtable.SourceText(c)}
	ops := c.AllOperand()
	in.Ops = make([]Operand, 0, len(ops))
	for _, o := range ops {
		in.Ops = append(in.Ops, b.operand(o))
	}
	return in
}

func (b *astBuilder) num(t antlr.TerminalNode) int64 {
	n, err := litmus.ParseInt(t.GetText())
	if err != nil {
		b.errs = append(b.errs, source.Errorf(syntax.TokenPos(b.file, t.GetSymbol()), "%v", err))
	}
	return n
}

func (b *astBuilder) operand(c IOperandContext) Operand {
	o := Operand{Pos: b.pos(c), Text: c.GetText()}
	switch c := c.(type) {
	case *ImmOperandContext:
		o.Kind, o.Imm = ImmOp, b.num(c.NUM())
	case *NameOperandContext:
		o.Kind, o.Name = NameOp, c.NAME().GetText()
	case *SymRegOperandContext:
		o.Kind, o.Name = SymRegOp, c.SYMREG().GetText()
	case *MemOperandContext:
		o.Kind, o.Name, o.Imm = MemOp, c.NAME().GetText(), b.num(c.NUM())
	case *StringOperandContext:
		s := c.STRING().GetText()
		o.Kind, o.Name = StringOp, s[1:len(s)-1]
	}
	return o
}
