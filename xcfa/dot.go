package xcfa

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// FormatExpr prints an expression in a C-like syntax, fully parenthesised
// below the top level: "(X0 ^ X0) + x+4".
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, true)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr, top bool) {
	switch e := e.(type) {
	case Const:
		b.WriteString(strconv.FormatInt(e.Value, 10))
	case Sym:
		b.WriteString("&" + e.Name)
		if e.Offset != 0 {
			fmt.Fprintf(b, "%+d", e.Offset)
		}
	case Reg:
		b.WriteString(e.Name)
	case Label:
		fmt.Fprintf(b, "P%d:%s", e.Proc, e.Name)
	case Binary:
		if !top {
			b.WriteByte('(')
		}
		writeExpr(b, e.X, false)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, e.Y, false)
		if !top {
			b.WriteByte(')')
		}
	case Unary:
		b.WriteString(e.Op.String())
		b.WriteByte('(')
		writeExpr(b, e.X, true)
		b.WriteByte(')')
	case Pick:
		b.WriteString("pick(")
		writeExpr(b, e.Cond, true)
		b.WriteString(", ")
		writeExpr(b, e.X, true)
		b.WriteByte(')')
	case Ite:
		if !top {
			b.WriteByte('(')
		}
		writeExpr(b, e.Cond, false)
		b.WriteString(" ? ")
		writeExpr(b, e.X, false)
		b.WriteString(" : ")
		writeExpr(b, e.Y, false)
		if !top {
			b.WriteByte(')')
		}
	case nil:
		b.WriteString("<nil>")
	default:
		fmt.Fprintf(b, "%v", e)
	}
}

// FormatOp prints an operation the way edges are labelled in DOT output:
// "X0 := X1 + 1", "assume X2 == 0", "load X0 <- [X1] {A} rmw1".
func FormatOp(op Op) string {
	switch op := op.(type) {
	case Nop:
		return "nop"
	case Assign:
		return op.Dst + " := " + FormatExpr(op.Value)
	case Assume:
		if op.Internal {
			return "check " + FormatExpr(op.Cond) // part of an instruction, not a branch
		}
		return "assume " + FormatExpr(op.Cond)
	case Load:
		return "load " + op.Dst + " <- [" + FormatExpr(op.Addr) + "]" + sizeTagsRMW(op.Size, op.Tags, op.RMW)
	case Store:
		s := "store [" + FormatExpr(op.Addr) + "] <- " + FormatExpr(op.Value) + sizeTagsRMW(op.Size, op.Tags, op.RMW)
		if op.Status != "" {
			s += "; " + op.Status + " := 0 (depends on the store)"
		}
		return s
	case Fence:
		return "fence {" + strings.Join(op.Tags, ",") + "}"
	case Mark:
		return op.String()
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("%v", op)
}

func sizeTagsRMW(size int, tags []string, rmw int) string {
	s := ""
	if size != 0 {
		s += fmt.Sprintf(" size%d", size)
	}
	if len(tags) > 0 {
		s += " {" + strings.Join(tags, ",") + "}"
	}
	if rmw != 0 {
		s += fmt.Sprintf(" rmw%d", rmw)
	}
	return s
}

// WriteDOT writes the program as a Graphviz digraph: one cluster per
// process, one node per location (labelled with its source label if any),
// one edge per XCFA edge labelled with its operation. The output depends
// only on the program, so it can be compared with golden files.
func WriteDOT(w io.Writer, prog *Program) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", strconv.Quote(prog.Name))
	b.WriteString("  node [shape=circle, fontsize=10];\n  edge [fontsize=10];\n")
	for _, p := range prog.Procs {
		fmt.Fprintf(&b, "  subgraph \"cluster_%s\" {\n", p.Name)
		label := p.Name
		if len(p.Params) > 0 {
			label += "(" + strings.Join(p.Params, ", ") + ")"
		}
		fmt.Fprintf(&b, "    label=%s;\n", strconv.Quote(label))
		for _, l := range p.Locs {
			name := strconv.Itoa(l.ID)
			if l.Label != "" {
				name += "\n" + l.Label
			}
			attrs := ""
			switch l {
			case p.Init:
				attrs = ", style=bold"
			case p.Final:
				attrs = ", shape=doublecircle"
			}
			fmt.Fprintf(&b, "    %s [label=%s%s];\n", dotNode(p, l), strconv.Quote(name), attrs)
		}
		for _, e := range p.Edges {
			fmt.Fprintf(&b, "    %s -> %s [label=%s];\n", dotNode(p, e.From), dotNode(p, e.To), strconv.Quote(FormatOp(e.Op)+formatPar(e.Par)))
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// formatPar prints an edge's place among parallel parts (Edge.Par),
// outermost first, as " par N.B": part B of composition N.
func formatPar(par []Par) string {
	var s strings.Builder
	for _, p := range par {
		fmt.Fprintf(&s, " par %d.%d", p.Node, p.Branch)
	}
	return s.String()
}

func dotNode(p *Process, l *Location) string {
	return strconv.Quote(fmt.Sprintf("%s_%d", p.Name, l.ID))
}
