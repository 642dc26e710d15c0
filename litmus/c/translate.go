package c

import (
	"slices"
	"strconv"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
	"github.com/purr-mcm/purr/xcfa"
)

// translator builds one process; rmwIDs is shared by the whole program so
// that atomic pairs have ids unique in the program.
type translator struct {
	file   string
	proc   *xcfa.Process
	cur    *xcfa.Location
	ptr    map[string]int // pointer depth of the variables declared so far
	ntemp  int
	rmwIDs *int
	source map[xcfa.Pos]string // the program's Source
	text   string              // the statement being translated, as written

	step      int        // the instruction of the statement being translated (xcfa.Pos.Step)
	par       []xcfa.Par // the parallel parts being translated (xcfa.Edge.Par)
	parNodes  int        // the parallel compositions made so far
	macros    *Macros    // herd's macro file, nil for none
	lkmmv2    bool       // herd's variant lkmmv2: RMWs carry their annotations
	frame     *frame     // the parameters of the macro being expanded
	site      *xcfa.Pos  // the call in the thread's code being expanded
	expanding []string   // the macros being expanded, outermost first
}

func translateProgram(file string, tree cparser.IProgramContext, macros *Macros, lkmmv2 bool) (*xcfa.Program, error) {
	prog := &xcfa.Program{Arch: "C", Source: map[xcfa.Pos]string{}, OrderedInstrs: true, NoBranchEvents: true}
	seen := map[int]bool{}
	rmwIDs := 0
	for i, th := range tree.AllThread() {
		tok := th.PROC().GetSymbol()
		id, err := strconv.Atoi(tok.GetText()[1:])
		if err != nil {
			return nil, litmus.Errorf(tokPos(file, tok), "bad thread name %s", tok.GetText())
		}
		if seen[id] {
			return nil, litmus.Errorf(tokPos(file, tok), "thread P%d is defined twice", id)
		}
		seen[id] = true
		if err := litmus.CheckThreadOrder(tokPos(file, tok), i, id); err != nil {
			return nil, err
		}
		t := &translator{file: file, proc: xcfa.NewProcess(id), ptr: map[string]int{}, rmwIDs: &rmwIDs, source: prog.Source, macros: macros, lkmmv2: lkmmv2}
		t.cur = t.proc.Init
		for _, p := range th.AllParam() {
			depth, err := t.typeOf(p.TypeSpec())
			if err != nil {
				return nil, err
			}
			name := p.IDENT().GetText()
			if _, dup := t.ptr[name]; dup {
				return nil, litmus.Errorf(tokPos(file, p.IDENT().GetSymbol()), "parameter %s is declared twice", name)
			}
			t.ptr[name] = depth
			t.proc.Params = append(t.proc.Params, name)
		}
		if err := t.block(th.Block()); err != nil {
			return nil, err
		}
		t.proc.Final = t.cur
		prog.Procs = append(prog.Procs, t.proc)
	}
	if len(prog.Procs) == 0 {
		return nil, litmus.Errorf(xcfa.Pos{File: file, Line: 1, Col: 1}, "the program has no thread")
	}
	return prog, nil
}

// typeOf checks a type and returns its pointer depth.
func (t *translator) typeOf(ts cparser.ITypeSpecContext) (int, error) {
	base := false
	for _, w := range ts.AllTypeWord() {
		switch {
		case w.VOID() != nil, w.TYPE() != nil:
			base = true
		case w.STRUCT() != nil:
			// herd knows one structure, the Linux kernel's srcu_struct.
			if name := w.IDENT().GetText(); name != "srcu_struct" {
				return 0, litmus.Errorf(t.pos(w), "unsupported type struct %s (herd7 knows struct srcu_struct only)", name)
			}
			base = true
		case w.IDENT() != nil:
			return 0, litmus.Errorf(t.pos(w), "unsupported type %s", w.IDENT().GetText())
		}
	}
	if !base {
		return 0, litmus.Errorf(t.pos(ts), "expected a type name")
	}
	return len(ts.AllPointer()), nil
}

// pos is the position of c, or in a macro's body the call it expands:
// the events and errors of an expansion belong to the call.
func (t *translator) pos(c antlr.ParserRuleContext) xcfa.Pos {
	if t.site != nil {
		return *t.site
	}
	return ctxPos(t.file, c)
}

func (t *translator) tokPos(tok antlr.Token) xcfa.Pos {
	if t.site != nil {
		return *t.site
	}
	return tokPos(t.file, tok)
}

// emit adds an edge from the current location to a new one; its position
// quotes the statement it comes from.
func (t *translator) emit(op xcfa.Op, pos xcfa.Pos) {
	pos.Step = t.step
	if t.text != "" {
		t.source[pos] = t.text
	}
	to := t.proc.NewLoc("")
	t.proc.AddEdge(t.cur, to, op, pos).Par = t.par
	t.cur = to
}

// join ends the current path with an edge to the location to, where an
// earlier path ended: the alternatives of a choice meet.
func (t *translator) join(to *xcfa.Location, op xcfa.Op, pos xcfa.Pos) {
	pos.Step = t.step
	t.proc.AddEdge(t.cur, to, op, pos).Par = t.par
	t.cur = to
}

// parallel translates each of parts as one part of a parallel
// composition, herd's e1 >>| e2: program order relates no event of one
// part to an event of another (the operands of a binary operator, the
// arguments of most calls). The parts' edges still follow one another.
func (t *translator) parallel(parts ...func() error) error {
	t.parNodes++
	node, outer := t.parNodes, t.par
	defer func() { t.par = outer }()
	for i, part := range parts {
		// A fresh array for each part: edges keep their Par.
		t.par = append(slices.Clip(outer), xcfa.Par{Node: node, Branch: i})
		if err := part(); err != nil {
			return err
		}
	}
	return nil
}

func (t *translator) temp() string {
	t.ntemp++
	return "$t" + strconv.Itoa(t.ntemp)
}

func (t *translator) newRMW() int {
	*t.rmwIDs++
	return *t.rmwIDs
}

func (t *translator) block(b cparser.IBlockContext) error {
	for _, s := range b.AllStatement() {
		if err := t.statement(s); err != nil {
			return err
		}
	}
	return nil
}

// sourceText is a piece of the program as written, its spaces collapsed
// and without its final semicolon.
func sourceText(c antlr.ParserRuleContext) string {
	start, stop := c.GetStart(), c.GetStop()
	if start == nil || stop == nil || start.GetInputStream() == nil {
		return c.GetText()
	}
	text := start.GetInputStream().GetTextFromInterval(antlr.NewInterval(start.GetStart(), stop.GetStop()))
	return strings.TrimSuffix(strings.Join(strings.Fields(text), " "), ";")
}

func (t *translator) statement(s cparser.IStatementContext) error {
	if t.site == nil {
		t.quote(s)
		t.step = 0
	} else {
		// In a macro's body: the statement quoted is the call's, and each
		// statement is an instruction of its own, as in herd.
		t.step++
	}
	switch s := s.(type) {
	case *cparser.BlockStmtContext:
		return t.block(s.Block())
	case *cparser.SkipStmtContext:
		return nil
	case *cparser.DeclStmtContext:
		depth, err := t.typeOf(s.TypeSpec())
		if err != nil {
			return err
		}
		name := s.IDENT().GetText()
		t.ptr[name] = depth
		if s.Expr() == nil {
			return nil // herd: a declaration alone makes no event
		}
		return t.assignRegister(name, s.Expr(), t.pos(s))
	case *cparser.ExprStmtContext:
		if s.ASSIGN() != nil {
			return t.assign(s)
		}
		if name, ok := nameOf(unparen(s.Expr(0))); ok && (name == "break" || name == "continue") {
			return litmus.Errorf(t.pos(s), "unsupported %s statement", name)
		}
		if p, ok := callOf(s.Expr(0)); ok {
			_, err := t.callPrimary(p, "", true)
			return err
		}
		// herd's statements are calls and assignments: smp_mb; or *x; is
		// a syntax error there.
		return litmus.Errorf(t.pos(s), "unsupported statement %s: herd7 takes a call or an assignment here", sourceText(s))
	case *cparser.IfStmtContext:
		return t.ifStmt(s)
	case *cparser.WhileStmtContext:
		return t.whileStmt(s)
	}
	return litmus.Errorf(t.pos(s), "unsupported statement")
}

// quote records the statement being translated, for the program's Source.
func (t *translator) quote(s cparser.IStatementContext) {
	switch s := s.(type) {
	case *cparser.DeclStmtContext, *cparser.ExprStmtContext:
		t.text = sourceText(s)
	case *cparser.IfStmtContext:
		t.text = "if (" + sourceText(s.Expr()) + ")"
	case *cparser.WhileStmtContext:
		t.text = "while (" + sourceText(s.Expr()) + ")"
	}
}

func (t *translator) assign(s *cparser.ExprStmtContext) error {
	lhs, rhs := s.Expr(0), s.Expr(1)
	pos := t.pos(s)
	// A macro's parameter assigned to is the argument: a register, or *p
	// (herd's substitution of an lvalue).
	target, f := t.resolve(lhs)
	switch l := target.(type) {
	case *cparser.PrimaryExprContext:
		if n, ok := l.Primary().(*cparser.NamePrimaryContext); ok {
			return t.assignRegister(n.IDENT().GetText(), rhs, pos)
		}
	case *cparser.UnaryExprContext:
		if l.GetOp().GetTokenType() == cparser.CParserSTAR {
			// herd evaluates the address and the value in parallel.
			var addr, v value
			err := t.parallel(func() (err error) {
				addr, err = t.in(f, func() (value, error) { return t.value(l.Expr()) })
				return err
			}, func() (err error) {
				v, err = t.value(rhs)
				return err
			})
			if err != nil {
				return err
			}
			t.emit(xcfa.Store{Addr: addr.e, Value: v.e, Tags: plainTags()}, pos)
			return nil
		}
	}
	return litmus.Errorf(t.pos(lhs), "unsupported assignment target %s", lhs.GetText())
}

// assignRegister translates "name = e": the value goes straight into the
// register when e ends with a load.
func (t *translator) assignRegister(name string, e cparser.IExprContext, pos xcfa.Pos) error {
	v, err := t.expr(e, name)
	if err != nil {
		return err
	}
	if v.e == nil {
		return litmus.Errorf(t.pos(e), "%s has no value", e.GetText())
	}
	if _, declared := t.ptr[name]; !declared {
		t.ptr[name] = v.ptr
	}
	if r, ok := v.e.(xcfa.Reg); ok && r.Name == name {
		return nil
	}
	t.emit(xcfa.Assign{Dst: name, Value: v.e}, pos)
	return nil
}

// condition evaluates a branch condition; like herd, a condition that is
// no comparison tests "non-zero", which Assume does by itself.
func (t *translator) condition(e cparser.IExprContext) (xcfa.Expr, error) {
	v, err := t.value(e)
	if err != nil {
		return nil, err
	}
	return v.e, nil
}

func negate(e xcfa.Expr) xcfa.Expr { return xcfa.Unary{Op: xcfa.Not, X: e} }

func (t *translator) ifStmt(s *cparser.IfStmtContext) error {
	cond, err := t.condition(s.Expr())
	if err != nil {
		return err
	}
	pos := t.pos(s)
	branch := t.cur
	then := t.proc.NewLoc("")
	t.proc.AddEdge(branch, then, xcfa.Assume{Cond: cond}, pos)
	t.cur = then
	if err := t.statement(s.Statement(0)); err != nil {
		return err
	}
	thenEnd := t.cur
	if s.ELSE() == nil {
		t.proc.AddEdge(branch, thenEnd, xcfa.Assume{Cond: negate(cond)}, pos)
		t.cur = thenEnd
		return nil
	}
	els := t.proc.NewLoc("")
	t.proc.AddEdge(branch, els, xcfa.Assume{Cond: negate(cond)}, pos)
	t.cur = els
	if err := t.statement(s.Statement(1)); err != nil {
		return err
	}
	t.proc.AddEdge(t.cur, thenEnd, xcfa.Nop{}, t.pos(s.Statement(1)))
	t.cur = thenEnd
	return nil
}

func (t *translator) whileStmt(s *cparser.WhileStmtContext) error {
	pos := t.pos(s)
	head := t.cur
	cond, err := t.condition(s.Expr())
	if err != nil {
		return err
	}
	test := t.cur
	body := t.proc.NewLoc("")
	t.proc.AddEdge(test, body, xcfa.Assume{Cond: cond}, pos)
	t.cur = body
	if err := t.statement(s.Statement()); err != nil {
		return err
	}
	t.proc.AddEdge(t.cur, head, xcfa.Nop{}, t.pos(s.Statement()))
	exit := t.proc.NewLoc("")
	t.proc.AddEdge(test, exit, xcfa.Assume{Cond: negate(cond)}, pos)
	t.cur = exit
	return nil
}
