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

// Instr is one instruction as written: a mnemonic, its annotations (nil
// when it has no brackets), a fence's label sets, and its operands.
type Instr struct {
	Mnem        string
	Annots      []string
	FenceLabels bool // f[...] {...} {...}
	Ops         []Operand
	Pos         source.Pos
	Text        string // as written
}

// ValueKind is the syntactic form of a value.
type ValueKind int

const (
	NameVal   ValueKind = iota // x, r1, L0: a register, a location or a label
	NumVal                     // 1
	MetaVal                    // &k
	SymRegVal                  // %r
)

// Value is a register, location, number or meta-variable as written.
type Value struct {
	Kind ValueKind
	Name string
	Num  int64
	Pos  source.Pos
	Text string
}

// Operand is an operand: a value, an address plus an offset (x+r1, x+1),
// or an operation (add r1 r2).
type Operand struct {
	X, Plus *Value // Plus: the offset of x+k
	Op      string // (op x y): add, xor, and, eq, neq, as written
	Args    []Value
	Pos     source.Pos
	Text    string
}

// ParseTable parses the program section into its table of instructions.
func ParseTable(sec litmus.Section) (*asm.Table[Instr], error) {
	lexer := NewLISALexer(nil)
	tree, err := syntax.Parse(sec.File, sec.Src, sec.Start, sec.End, lexer, lexer.BaseLexer, NewLISAParser, (*LISAParser).Program)
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
	if a := c.Annotations(); a != nil {
		in.Annots = []string{}
		for _, n := range a.AllNAME() {
			in.Annots = append(in.Annots, n.GetText())
		}
	}
	in.FenceLabels = c.FenceLabels() != nil
	for _, o := range c.AllOperand() {
		in.Ops = append(in.Ops, b.operand(o))
	}
	return in
}

func (b *astBuilder) operand(c IOperandContext) Operand {
	o := Operand{Pos: b.pos(c), Text: c.GetText()}
	switch c := c.(type) {
	case *PlainOperandContext:
		vs := c.AllValue()
		x := b.value(vs[0])
		o.X = &x
		if len(vs) > 1 {
			k := b.value(vs[1])
			o.Plus = &k
		}
	case *OpOperandContext:
		o.Op = c.NAME().GetText()
		for _, v := range c.AllValue() {
			o.Args = append(o.Args, b.value(v))
		}
	}
	return o
}

func (b *astBuilder) value(c IValueContext) Value {
	v := Value{Pos: b.pos(c), Text: c.GetText()}
	switch {
	case c.NUM() != nil:
		n, err := litmus.ParseInt(c.GetText())
		if err != nil {
			b.errs = append(b.errs, source.Errorf(v.Pos, "%v", err))
		}
		v.Kind, v.Num = NumVal, n
	case c.META() != nil:
		v.Kind, v.Name = MetaVal, strings.TrimPrefix(c.GetText(), "&")
	case c.SYMREG() != nil:
		v.Kind, v.Name = SymRegVal, strings.TrimPrefix(c.GetText(), "%")
	default:
		v.Kind, v.Name = NameVal, c.GetText()
	}
	return v
}
