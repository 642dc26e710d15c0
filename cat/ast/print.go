package ast

import (
	"fmt"
	"io"
	"strings"
)

// Fprint writes node as Cat source. node is a *File, a Stmt, an Expr, a
// Cond or a *Binding. Parentheses are added exactly where herd's
// precedences need them, so that printing a parsed File and parsing the
// output gives the same syntax tree (positions aside). An Include with
// statements (as the Loader leaves it in a cat.Model) is printed as its
// statements between two comments: the output is then self-contained, no
// longer with includes.
func Fprint(w io.Writer, node any) error {
	p := &printer{}
	switch n := node.(type) {
	case *File:
		p.header(n.Arch, n.Title, n.CatDep)
		p.stmts(n.Stmts)
	case Stmt:
		p.stmt(n)
	case Expr:
		p.expr(n)
		p.nl()
	case Cond:
		p.cond(n, 0)
		p.nl()
	case *Binding:
		p.binding(n)
		p.nl()
	default:
		return fmt.Errorf("ast.Fprint: cannot print %T", node)
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

// String returns Cat source for a node (see Fprint), without a final newline.
func String(node any) string {
	var b strings.Builder
	if err := Fprint(&b, node); err != nil {
		return err.Error()
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) w(s ...string) {
	for _, x := range s {
		p.b.WriteString(x)
	}
}

func (p *printer) nl() {
	p.b.WriteByte('\n')
	for i := 0; i < p.indent; i++ {
		p.b.WriteString("  ")
	}
}

func (p *printer) header(arch, title string, catdep bool) {
	switch {
	case arch != "" && title == arch:
		p.w(arch)
		p.nl()
	case arch != "":
		p.w(arch, " ", `"`, title, `"`)
		p.nl()
	case title != "":
		p.w(`"`, title, `"`)
		p.nl()
	}
	if catdep {
		p.w("catdep")
		p.nl()
	}
}

func (p *printer) stmts(list []Stmt) {
	for _, s := range list {
		p.stmt(s)
	}
}

// block prints statements one level deeper, each on its own line.
func (p *printer) block(list []Stmt) {
	p.indent++
	for _, s := range list {
		p.nl()
		p.stmtNoNL(s)
	}
	p.indent--
}

func (p *printer) stmt(s Stmt) {
	p.stmtNoNL(s)
	p.nl()
}

func (p *printer) stmtNoNL(s Stmt) {
	switch s := s.(type) {
	case *Let:
		p.w("let ")
		if s.Rec {
			p.w("rec ")
		}
		p.bindings(s.Bindings)
		if s.When != nil {
			p.w(" when ")
			p.check(s.When)
		}
	case *Check:
		if s.Mode != Require {
			p.w(s.Mode.String(), " ")
		}
		p.check(s)
	case *Show:
		p.w("show ", strings.Join(s.Names, ", "))
	case *ShowAs:
		p.w("show ")
		p.exprAt(s.X, precUnion)
		p.w(" as ", s.Name)
	case *Unshow:
		p.w("unshow ", strings.Join(s.Names, ", "))
	case *Include:
		if s.Stmts == nil {
			p.w(`include "`, s.Path, `"`)
			return
		}
		p.w(`(* include "`, s.Path, `" *)`)
		for _, x := range s.Stmts {
			p.nl()
			p.stmtNoNL(x)
		}
		p.nl()
		p.w(`(* end of "`, s.Path, `" *)`)
	case *Procedure:
		p.w("procedure ")
		if s.Rec {
			p.w("rec ")
		}
		p.w(s.Name, "(", strings.Join(s.Params, ", "), ") =")
		p.block(s.Body)
		p.nl()
		p.w("end")
	case *Call:
		p.w("call ", s.Name, " ")
		p.simpleArg(s.Arg)
		if s.As != "" {
			p.w(" as ", s.As)
		}
	case *Forall:
		p.w("forall ", s.Var, " in ")
		p.expr(s.Set)
		p.w(" do")
		p.block(s.Body)
		p.nl()
		p.w("end")
	case *IfVariant:
		p.w("if ")
		p.cond(s.Cond, 0)
		p.block(s.Then)
		if len(s.Else) > 0 {
			p.nl()
			p.w("else")
			p.block(s.Else)
		}
		p.nl()
		p.w("end")
	case *MatchStmt:
		p.w("match ")
		p.expr(s.X)
		p.w(" with")
		for i, c := range s.Clauses {
			p.nl()
			if i > 0 {
				p.w("|| ")
			}
			p.w("'", c.Tag, " ->")
			p.block(c.Body)
		}
		if s.HasDefault {
			p.nl()
			if len(s.Clauses) > 0 {
				p.w("|| ")
			}
			p.w("_ ->")
			p.block(s.Default)
		}
		p.nl()
		p.w("end")
	case *With:
		p.w("with ", s.Var, " from ")
		p.expr(s.Set)
	case *Enum:
		p.w("enum ", s.Name, " = ")
		for i, t := range s.Tags {
			if i > 0 {
				p.w(" || ")
			}
			p.w("'", t)
		}
	case *Instructions:
		if s.Default {
			p.w("default ")
		} else {
			p.w("instructions ")
		}
		p.w(s.Name, "[")
		for i, a := range s.Args {
			if i > 0 {
				p.w(", ")
			}
			p.exprAt(a, precUnion)
		}
		p.w("]")
	case *Debug:
		p.w("debug ")
		p.expr(s.X)
	default:
		p.w(fmt.Sprintf("(* unknown statement %T *)", s))
	}
}

func (p *printer) check(c *Check) {
	if c.Negated {
		p.w("~")
	}
	p.w(c.Kind.String(), " ")
	p.expr(c.X)
	if c.Name != "" {
		p.w(" as ", c.Name)
	}
}

func (p *printer) bindings(bs []*Binding) {
	for i, b := range bs {
		if i > 0 {
			p.nl()
			p.w("and ")
		}
		p.binding(b)
	}
}

func (p *printer) binding(b *Binding) {
	if f, ok := b.Value.(*Fun); ok && len(b.Names) == 1 && f.Name == b.Names[0] {
		p.w(f.Name, "(", strings.Join(f.Params, ", "), ") = ")
		p.expr(f.Body)
		return
	}
	p.pattern(b.Names)
	p.w(" = ")
	p.expr(b.Value)
}

func (p *printer) pattern(names []string) {
	if len(names) == 1 {
		p.w(names[0])
		return
	}
	p.w("(", strings.Join(names, ", "), ")")
}

// Precedence classes of expressions, loosest first. The classes from
// precCartesian to precInverse are not totally ordered in herd's grammar:
// see needsParens.
const (
	precExp       = iota // let ... in, fun, try, if, match: need parentheses as operands
	precUnion            // |
	precAdd              // ++
	precSeq              // ;
	precDiff             // \
	precInter            // &
	precCartesian        // *
	precCompl            // ~
	precPostfix          // * + ?
	precInverse          // ^-1
	precApp              // f x
	precAtom             // names, constants, {...}, (...), [...]
)

func precOf(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return [...]int{Union: precUnion, Add: precAdd, Seq: precSeq, Diff: precDiff, Inter: precInter, Cartesian: precCartesian}[e.Op]
	case *Unary:
		switch e.Op {
		case Compl:
			return precCompl
		case Inverse:
			return precInverse
		case ToID:
			return precAtom
		}
		return precPostfix
	case *App:
		return precApp
	case *LetIn, *Fun, *Try, *IfExpr, *Match, *MatchSet:
		return precExp
	}
	return precAtom
}

// allowed reports whether an expression of class got may stand where the
// grammar expects class want without parentheses.
func allowed(got, want int) bool {
	switch want {
	case precCartesian: // left operand of A * B: herd rejects ~a * b and a * b * c
		return got == precPostfix || got >= precInverse
	case precCompl: // operand of ~: not a*, a+, a?
		return got == precCompl || got >= precInverse
	case precPostfix: // operand of * + ? ^-1: not ~a, not a * b
		return got >= precPostfix
	}
	if got >= precCartesian && got <= precInverse {
		return want <= precInter || got >= want
	}
	return got >= want
}

func (p *printer) exprAt(e Expr, want int) {
	if allowed(precOf(e), want) {
		p.expr(e)
		return
	}
	p.w("(")
	p.expr(e)
	p.w(")")
}

// simpleArg prints an argument where herd's grammar wants a "simple"
// expression (call arguments): anything but a bracketed form gets ( ).
func (p *printer) simpleArg(e Expr) {
	switch e := e.(type) {
	case *Empty, *Universe, *Tag, *SetLit, *Tuple:
		p.expr(e)
		return
	case *Unary:
		if e.Op == ToID {
			p.expr(e)
			return
		}
	}
	p.w("(")
	p.expr(e)
	p.w(")")
}

func (p *printer) expr(e Expr) {
	switch e := e.(type) {
	case *Var:
		p.w(e.Name)
	case *Empty:
		p.w("0")
	case *Universe:
		p.w("_")
	case *Tag:
		p.w("'", e.Name)
	case *SetLit:
		p.w("{")
		for i, x := range e.Elems {
			if i > 0 {
				p.w(", ")
			}
			p.exprAt(x, precUnion)
		}
		p.w("}")
	case *Tuple:
		p.w("(")
		for i, x := range e.Elems {
			if i > 0 {
				p.w(", ")
			}
			p.exprAt(x, precUnion)
		}
		p.w(")")
	case *Binary:
		p.binary(e)
	case *Unary:
		switch e.Op {
		case ToID:
			p.w("[")
			p.expr(e.X)
			p.w("]")
		case Compl:
			p.w("~")
			p.tightOperand(e.X, true)
		default:
			p.exprAt(e.X, precPostfix)
			p.w(e.Op.String())
		}
	case *App:
		if precOf(e.Fun) >= precApp {
			p.expr(e.Fun)
		} else {
			p.w("(")
			p.expr(e.Fun)
			p.w(")")
		}
		if t, ok := e.Arg.(*Tuple); ok {
			p.expr(t)
		} else {
			p.w("(")
			p.expr(e.Arg)
			p.w(")")
		}
	case *Fun:
		p.w("fun ")
		p.pattern(e.Params)
		p.w(" -> ")
		p.expr(e.Body)
	case *LetIn:
		p.w("let ")
		if e.Rec {
			p.w("rec ")
		}
		p.bindings(e.Bindings)
		p.w(" in ")
		p.expr(e.Body)
	case *Match:
		p.w("match ")
		p.expr(e.X)
		p.w(" with ")
		for i, c := range e.Clauses {
			if i > 0 {
				p.w(" || ")
			}
			p.w("'", c.Tag, " -> ")
			p.expr(c.Body)
		}
		if e.Default != nil {
			if len(e.Clauses) > 0 {
				p.w(" || ")
			}
			p.w("_ -> ")
			p.expr(e.Default)
		}
		p.w(" end")
	case *MatchSet:
		p.w("match ")
		p.expr(e.X)
		p.w(" with {} -> ")
		p.expr(e.Empty)
		p.w(" || ")
		if e.Pre != "" {
			p.w(e.Pre, " | ")
		}
		p.w(e.Elem, " ++ ", e.Rest, " -> ")
		p.expr(e.NonEmpty)
		p.w(" end")
	case *IfExpr:
		p.w("if ")
		p.cond(e.Cond, 0)
		p.w(" then ")
		p.expr(e.Then)
		p.w(" else ")
		p.expr(e.Else)
	case *Try:
		p.w("try ")
		p.expr(e.X)
		p.w(" with ")
		p.expr(e.Fallback)
	default:
		p.w(fmt.Sprintf("(* unknown expression %T *)", e))
	}
}

func (p *printer) binary(e *Binary) {
	l := precOf(e)
	left, right := l+1, l // right-associative: | ++ ; &
	switch e.Op {
	case Diff: // left-associative
		left, right = l, l+1
	case Cartesian: // non-associative; the right operand takes no postfix
		left, right = precCartesian, precInverse
	}
	p.exprAt(e.X, left)
	if e.Op == Seq {
		p.w("; ")
	} else {
		p.w(" ", e.Op.String(), " ")
	}
	if e.Op == Cartesian {
		p.tightOperand(e.Y, false)
	} else {
		p.exprAt(e.Y, right)
	}
}

// tightOperand prints the operand of ~ or the right operand of a cartesian
// product: there herd accepts a primary followed by ^-1 only (and ~ under ~).
func (p *printer) tightOperand(e Expr, complOK bool) {
	switch x := e.(type) {
	case *Unary:
		switch {
		case x.Op == Inverse:
			p.tightOperand(x.X, false)
			p.w("^-1")
			return
		case x.Op == Compl && complOK:
			p.w("~")
			p.tightOperand(x.X, true)
			return
		}
	}
	if precOf(e) >= precApp {
		p.expr(e)
		return
	}
	p.w("(")
	p.expr(e)
	p.w(")")
}

// cond prints a condition where its precedence must be at least least:
// 0 or 1 for ||, 2 for &&, 3 for not and atoms.
func (p *printer) cond(c Cond, least int) {
	open := func(level int) func() {
		if least > level {
			p.w("(")
			return func() { p.w(")") }
		}
		return func() {}
	}
	switch c := c.(type) {
	case *Variant:
		p.w(`"`, c.Name, `"`)
	case *Not:
		p.w("not ")
		p.cond(c.X, 3)
	case *And:
		closeParen := open(2)
		p.cond(c.X, 2)
		p.w(" && ")
		p.cond(c.Y, 3)
		closeParen()
	case *Or:
		closeParen := open(1)
		p.cond(c.X, 1)
		p.w(" || ")
		p.cond(c.Y, 2)
		closeParen()
	case *Compare:
		p.exprAt(c.X, precUnion)
		p.w(" ", c.Op.String(), " ")
		p.exprAt(c.Y, precUnion)
	default:
		p.w(fmt.Sprintf("(* unknown condition %T *)", c))
	}
}
