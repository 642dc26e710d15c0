package asmtable

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/internal/syntax"
	"github.com/purr-mcm/purr/source"
)

// The assembly grammars import the program section of Table.g4 (header of
// procName, rows of cells, a cell's labels and instruction); each
// generates its own types for it, which these interfaces name.

// RowNode is a row of a program section's parse tree.
type RowNode[C any] interface {
	antlr.ParserRuleContext
	AllCell() []C
}

// CellNode is a cell: its labels and its instruction (nil when none).
type CellNode[L LabelNode, N antlr.ParserRuleContext] interface {
	AllLabel() []L
	Instruction() N
}

// LabelNode is a label a cell defines.
type LabelNode interface {
	antlr.ParserRuleContext
	NAME() antlr.TerminalNode
}

// ReadTable builds the table of a program section's parse tree in file:
// the thread heads procs, the rows, and the end of the section, final.
// instr reads a cell's instruction (and keeps its errors: the caller
// reports them).
func ReadTable[R RowNode[C], C CellNode[L, N], L LabelNode, N antlr.ParserRuleContext, P antlr.ParserRuleContext, I any](
	file string, procs []P, rows []R, final source.Pos, instr func(N) *I) *asm.Table[I] {
	t := &asm.Table[I]{FinalPos: final}
	for _, pn := range procs {
		t.Procs = append(t.Procs, asm.Proc{Name: pn.GetText(), Pos: syntax.CtxPos(file, pn)})
	}
	for _, r := range rows {
		var cells []asm.Cell[I]
		for _, c := range r.AllCell() {
			var cl asm.Cell[I]
			for _, lab := range c.AllLabel() {
				cl.Labels = append(cl.Labels, asm.Label{Name: lab.NAME().GetText(), Pos: syntax.CtxPos(file, lab)})
			}
			if in := c.Instruction(); any(in) != nil {
				cl.Instr = instr(in)
			}
			cells = append(cells, cl)
		}
		t.Rows = append(t.Rows, cells)
		t.RowPos = append(t.RowPos, syntax.CtxPos(file, r))
	}
	return t
}

// SourceText is the text of c as written, spaces included, on one line.
func SourceText(c antlr.ParserRuleContext) string {
	start, stop := c.GetStart(), c.GetStop()
	if start == nil || stop == nil {
		return c.GetText()
	}
	text := start.GetInputStream().GetTextFromInterval(antlr.NewInterval(start.GetStart(), stop.GetStop()))
	if strings.ContainsAny(text, "\r\n") {
		// An instruction cut across lines reads as one line: messages and
		// listings quote it on one.
		text = strings.Join(strings.Fields(text), " ")
	}
	return text
}
