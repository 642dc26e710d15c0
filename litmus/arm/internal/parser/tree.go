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
	Mnem string // as written (herd7 reads ARM mnemonics in upper or lower case)
	Ops  []Operand
	Pos  source.Pos
	Text string // as written
}

// OperandKind is the syntactic form of an operand.
type OperandKind int

const (
	ImmOp    OperandKind = iota // #5, 5, #-1
	NameOp                      // R0, a label, a barrier option (ST, ISH)
	MemOp                       // [R1], [R1,R2], [R1,#4]
	SymRegOp                    // %name
)

// Operand is an instruction's operand as written.
type Operand struct {
	Kind OperandKind
	Imm  int64  // ImmOp: the value; MemOp: the immediate offset
	Name string // NameOp, SymRegOp (with its %): as written; MemOp: the base register
	// MemOp: the index register of [Rn,Rm] ("" for none), and whether an
	// immediate offset [Rn,#k] was written.
	Index    string
	IndexPos source.Pos
	HasImm   bool
	Pos      source.Pos
	Text     string
}

// ParseTable parses the program section into its table of instructions.
func ParseTable(sec litmus.Section) (*asm.Table[Instr], error) {
	lexer := NewARMLexer(nil)
	tree, err := syntax.Parse(sec.File, sec.Src, sec.Start, sec.End, lexer, lexer.BaseLexer, NewARMParser, (*ARMParser).Program)
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

func (b *astBuilder) imm(c IImmContext) int64 {
	t := c.NUM()
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
		o.Kind, o.Imm = ImmOp, b.imm(c.Imm())
	case *NameOperandContext:
		o.Kind, o.Name = NameOp, c.NAME().GetText()
	case *SymRegOperandContext:
		o.Kind, o.Name = SymRegOp, c.SYMREG().GetText()
	case *MemOperandContext:
		o.Kind, o.Name = MemOp, c.GetBase().GetText()
		switch off := c.Offset().(type) {
		case *RegOffsetContext:
			o.Index, o.IndexPos = off.GetText(), b.pos(off)
		case *ImmOffsetContext:
			o.HasImm, o.Imm = true, b.imm(off.Imm())
		}
	}
	return o
}
