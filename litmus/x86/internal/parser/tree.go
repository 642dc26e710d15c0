package parser

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/asmtable"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// Instr is one instruction as written: a mnemonic and its operands, or a
// LOCK prefix and the instruction it applies to.
type Instr struct {
	Mnem   string // upper case
	Ops    []Operand
	Locked *Instr // LOCK ; inner
	Pos    source.Pos
	Text   string // as written
}

// OperandKind is the syntactic form of an operand.
type OperandKind int

const (
	ImmOp    OperandKind = iota // $5, 5
	NameOp                      // EAX, a label
	MemOp                       // [x], [EAX], (EAX), (%rax), 8(%rax), 8(%rax,%rcx,4)
	AbsOp                       // [5]
	SymRegOp                    // %r
)

// Operand is an instruction's operand as written.
type Operand struct {
	Kind    OperandKind
	Imm     int64  // ImmOp: the value; AbsOp: the address; MemOp: the displacement
	Name    string // as written, without the % of a SymRegOp or of a MemOp's %r
	Paren   bool   // MemOp written (R)
	Percent bool   // MemOp whose name is written %r
	Disp    bool   // MemOp written with a displacement: 8(%rax)
	// Index is the index register of an indexed MemOp, 8(%rax,%rcx,4),
	// without its %; Scale its factor (1 when not written).
	Index   string
	Scale   int64
	Segment string // the segment register of a prefix (%cs:), without its %
	Pos     source.Pos
	Text    string
}

// ParseTable parses the program section into its table of instructions.
func ParseTable(sec litmus.Section) (*asm.Table[Instr], error) {
	lexer := NewX86Lexer(nil)
	tree, err := syntax.Parse(sec.File, sec.Src, sec.Start, sec.End, lexer, lexer.BaseLexer, NewX86Parser, (*X86Parser).Program)
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
	in := &Instr{Pos: b.pos(c), Text: asmtable.SourceText(c)}
	switch c := c.(type) {
	case *LockedInstructionContext:
		in.Mnem = "LOCK"
		in.Locked = b.instr(c.Instruction())
	case *PlainInstructionContext:
		in.Mnem = strings.ToUpper(c.NAME().GetText())
		for _, o := range c.AllOperand() {
			in.Ops = append(in.Ops, b.operand(o))
		}
	}
	return in
}

func (b *astBuilder) num(t antlr.TerminalNode) int64 {
	n, err := litmus.ParseInt(strings.TrimPrefix(t.GetText(), "$"))
	if err != nil {
		b.errs = append(b.errs, source.Errorf(syntax.TokenPos(b.file, t.GetSymbol()), "%v", err))
	}
	return n
}

// numToken reads a number token that a label names.
func (b *astBuilder) numToken(t antlr.Token) int64 {
	n, err := litmus.ParseInt(t.GetText())
	if err != nil {
		b.errs = append(b.errs, source.Errorf(syntax.TokenPos(b.file, t), "%v", err))
	}
	return n
}

// segment is the register of a segment prefix, without its %, or "".
func segment(c ISegmentContext) string {
	if c == nil {
		return ""
	}
	return strings.TrimPrefix(c.SYMREG().GetText(), "%")
}

func (b *astBuilder) operand(c IOperandContext) Operand {
	o := Operand{Pos: b.pos(c), Text: c.GetText()}
	switch c := c.(type) {
	case *ImmOperandContext:
		t := c.IMM()
		if t == nil {
			t = c.NUM()
		}
		o.Kind, o.Imm = ImmOp, b.num(t)
	case *NameOperandContext:
		o.Kind, o.Name = NameOp, c.NAME().GetText()
	case *SymRegOperandContext:
		o.Kind, o.Name = SymRegOp, strings.TrimPrefix(c.SYMREG().GetText(), "%")
	case *MemOperandContext:
		o.Kind, o.Paren = MemOp, c.LPAR() != nil
		if n := c.NAME(); n != nil {
			o.Name = n.GetText()
		} else {
			o.Name, o.Percent = strings.TrimPrefix(c.SYMREG().GetText(), "%"), true
		}
		if d := c.NUM(); d != nil {
			o.Imm, o.Disp = b.num(d), true
		}
		o.Segment = segment(c.Segment())
	case *IndexedOperandContext:
		o.Kind, o.Scale = MemOp, 1
		o.Name, o.Percent = strings.TrimPrefix(c.GetBase().GetText(), "%"), strings.HasPrefix(c.GetBase().GetText(), "%")
		o.Index = strings.TrimPrefix(c.GetIndex().GetText(), "%")
		if c.GetScale() != nil {
			o.Scale = b.numToken(c.GetScale())
		}
		if d := c.GetDisp(); d != nil {
			o.Imm, o.Disp = b.numToken(d), true
		}
		o.Segment = segment(c.Segment())
	case *AbsOperandContext:
		o.Kind, o.Imm = AbsOp, b.num(c.NUM())
	}
	return o
}
