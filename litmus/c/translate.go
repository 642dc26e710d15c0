package c

import (
	"slices"
	"strconv"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// translator builds one process; rmwIDs is shared by the whole program so
// that atomic pairs have ids unique in the program.
type translator struct {
	proc   *xcfa.Process
	cur    *xcfa.Location
	ptr    map[string]int // pointer depth of the variables declared so far
	ntemp  int
	rmwIDs *int
	source map[xcfa.Pos]string // the program's Source
	text   string              // the statement being translated, as written

	step      int         // the instruction of the statement being translated (xcfa.Pos.Step)
	par       []xcfa.Par  // the parallel parts being translated (xcfa.Edge.Par)
	parNodes  int         // the parallel compositions made so far
	macros    *Macros     // herd's macro file, nil for none
	lkmmv2    bool        // herd's variant lkmmv2: RMWs carry their annotations
	frame     *frame      // the parameters of the macro being expanded
	site      *source.Pos // the call in the thread's code being expanded
	expanding []string    // the macros being expanded, outermost first
}

func translateProgram(file string, tree *cast.Program, macros *Macros, lkmmv2 bool) (*xcfa.Program, error) {
	prog := &xcfa.Program{Arch: "C", Source: map[xcfa.Pos]string{}, OrderedInstrs: true, NoBranchEvents: true}
	seen := map[int]bool{}
	rmwIDs := 0
	for i, th := range tree.Threads {
		id, err := strconv.Atoi(th.Name[1:])
		if err != nil {
			return nil, errorf(th.Pos, "bad thread name %s", th.Name)
		}
		if seen[id] {
			return nil, errorf(th.Pos, "thread P%d is defined twice", id)
		}
		seen[id] = true
		if err := litmus.CheckThreadOrder(xcfaPos(th.Pos), i, id); err != nil {
			return nil, err
		}
		t := &translator{proc: xcfa.NewProcess(id), ptr: map[string]int{}, rmwIDs: &rmwIDs, source: prog.Source, macros: macros, lkmmv2: lkmmv2}
		t.cur = t.proc.Init
		for _, p := range th.Params {
			depth, err := t.typeOf(p.Type)
			if err != nil {
				return nil, err
			}
			name := p.Name.Name
			if _, dup := t.ptr[name]; dup {
				return nil, errorf(p.Name.Pos, "parameter %s is declared twice", name)
			}
			t.ptr[name] = depth
			t.proc.Params = append(t.proc.Params, name)
		}
		if err := t.block(th.Body); err != nil {
			return nil, err
		}
		t.proc.Final = t.cur
		prog.Procs = append(prog.Procs, t.proc)
	}
	if len(prog.Procs) == 0 {
		return nil, errorf(source.Pos{File: file, Line: 1, Col: 1}, "the program has no thread")
	}
	return prog, nil
}

// typeOf checks a type and returns its pointer depth.
func (t *translator) typeOf(ts *cast.TypeSpec) (int, error) {
	base := false
	for _, w := range ts.Words {
		switch w.Kind {
		case cast.Void, cast.BaseType:
			base = true
		case cast.Struct:
			// herd knows one structure, the Linux kernel's srcu_struct.
			if w.Name != "srcu_struct" {
				return 0, errorf(t.pos(w.Pos), "unsupported type struct %s (herd7 knows struct srcu_struct only)", w.Name)
			}
			base = true
		case cast.Unknown:
			return 0, errorf(t.pos(w.Pos), "unsupported type %s", w.Name)
		}
	}
	if !base {
		return 0, errorf(t.pos(ts.Pos), "expected a type name")
	}
	return ts.Pointers, nil
}

// pos is p, a position in the thread's code, or in a macro's body the
// call it expands: the events and errors of an expansion belong to the
// call.
func (t *translator) pos(p source.Pos) source.Pos {
	if t.site != nil {
		return *t.site
	}
	return p
}

// edgePos is the position of an edge made at pos: its instruction is the
// statement being translated.
func (t *translator) edgePos(pos source.Pos) xcfa.Pos {
	p := xcfaPos(pos)
	p.Step = t.step
	return p
}

// emit adds an edge from the current location to a new one; its position
// quotes the statement it comes from.
func (t *translator) emit(op xcfa.Op, pos source.Pos) {
	p := t.edgePos(pos)
	if t.text != "" {
		t.source[p] = t.text
	}
	to := t.proc.NewLoc("")
	t.proc.AddEdge(t.cur, to, op, p).Par = t.par
	t.cur = to
}

// join ends the current path with an edge to the location to, where an
// earlier path ended: the alternatives of a choice meet.
func (t *translator) join(to *xcfa.Location, op xcfa.Op, pos source.Pos) {
	t.proc.AddEdge(t.cur, to, op, t.edgePos(pos)).Par = t.par
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

func (t *translator) block(b *cast.BlockStmt) error {
	for _, s := range b.Stmts {
		if err := t.statement(s); err != nil {
			return err
		}
	}
	return nil
}

func (t *translator) statement(s cast.Stmt) error {
	if t.site == nil {
		t.quote(s)
		t.step = 0
	} else {
		// In a macro's body: the statement quoted is the call's, and each
		// statement is an instruction of its own, as in herd.
		t.step++
	}
	switch s := s.(type) {
	case *cast.BlockStmt:
		return t.block(s)
	case *cast.EmptyStmt:
		return nil
	case *cast.DeclStmt:
		depth, err := t.typeOf(s.Type)
		if err != nil {
			return err
		}
		t.ptr[s.Name] = depth
		if s.Init == nil {
			return nil // herd: a declaration alone makes no event
		}
		return t.assignRegister(s.Name, s.Init, t.pos(s.Pos))
	case *cast.AssignStmt:
		return t.assign(s)
	case *cast.ExprStmt:
		if name, ok := nameOf(unparen(s.X)); ok && (name == "break" || name == "continue") {
			return errorf(t.pos(s.Pos), "unsupported %s statement", name)
		}
		if e, ok := unparen(s.X).(*cast.CallExpr); ok {
			_, err := t.callExpr(e, "", true)
			return err
		}
		// herd's statements are calls and assignments: smp_mb; or *x; is
		// a syntax error there.
		return errorf(t.pos(s.Pos), "unsupported statement %s: herd7 takes a call or an assignment here", s.Text)
	case *cast.IfStmt:
		return t.ifStmt(s)
	case *cast.WhileStmt:
		return t.whileStmt(s)
	}
	return errorf(t.pos(s.Position()), "unsupported statement")
}

// quote records the statement being translated, for the program's Source.
func (t *translator) quote(s cast.Stmt) {
	switch s := s.(type) {
	case *cast.DeclStmt:
		t.text = s.Text
	case *cast.AssignStmt:
		t.text = s.Text
	case *cast.ExprStmt:
		t.text = s.Text
	case *cast.IfStmt:
		t.text = "if (" + s.CondText + ")"
	case *cast.WhileStmt:
		t.text = "while (" + s.CondText + ")"
	}
}

func (t *translator) assign(s *cast.AssignStmt) error {
	pos := t.pos(s.Pos)
	// A macro's parameter assigned to is the argument: a register, or *p
	// (herd's substitution of an lvalue).
	target, f := t.resolve(s.LHS)
	switch l := target.(type) {
	case *cast.Ident:
		return t.assignRegister(l.Name, s.RHS, pos)
	case *cast.UnaryExpr:
		if l.Op == "*" {
			// herd evaluates the address and the value in parallel.
			var addr, v value
			err := t.parallel(func() (err error) {
				addr, err = t.in(f, func() (value, error) { return t.value(l.X) })
				return err
			}, func() (err error) {
				v, err = t.value(s.RHS)
				return err
			})
			if err != nil {
				return err
			}
			t.emit(xcfa.Store{Addr: addr.e, Value: v.e, Tags: plainTags()}, pos)
			return nil
		}
	}
	return errorf(t.pos(s.LHS.Position()), "unsupported assignment target %s", cast.Text(s.LHS))
}

// assignRegister translates "name = e": the value goes straight into the
// register when e ends with a load.
func (t *translator) assignRegister(name string, e cast.Expr, pos source.Pos) error {
	v, err := t.expr(e, name)
	if err != nil {
		return err
	}
	if v.e == nil {
		return errorf(t.pos(e.Position()), "%s has no value", cast.Text(e))
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
func (t *translator) condition(e cast.Expr) (xcfa.Expr, error) {
	v, err := t.value(e)
	if err != nil {
		return nil, err
	}
	return v.e, nil
}

func negate(e xcfa.Expr) xcfa.Expr { return xcfa.Unary{Op: xcfa.Not, X: e} }

func (t *translator) ifStmt(s *cast.IfStmt) error {
	cond, err := t.condition(s.Cond)
	if err != nil {
		return err
	}
	pos := xcfaPos(t.pos(s.Pos))
	branch := t.cur
	then := t.proc.NewLoc("")
	t.proc.AddEdge(branch, then, xcfa.Assume{Cond: cond}, pos)
	t.cur = then
	if err := t.statement(s.Then); err != nil {
		return err
	}
	thenEnd := t.cur
	if s.Else == nil {
		t.proc.AddEdge(branch, thenEnd, xcfa.Assume{Cond: negate(cond)}, pos)
		t.cur = thenEnd
		return nil
	}
	els := t.proc.NewLoc("")
	t.proc.AddEdge(branch, els, xcfa.Assume{Cond: negate(cond)}, pos)
	t.cur = els
	if err := t.statement(s.Else); err != nil {
		return err
	}
	t.proc.AddEdge(t.cur, thenEnd, xcfa.Nop{}, xcfaPos(t.pos(s.Else.Position())))
	t.cur = thenEnd
	return nil
}

func (t *translator) whileStmt(s *cast.WhileStmt) error {
	pos := xcfaPos(t.pos(s.Pos))
	head := t.cur
	cond, err := t.condition(s.Cond)
	if err != nil {
		return err
	}
	test := t.cur
	body := t.proc.NewLoc("")
	t.proc.AddEdge(test, body, xcfa.Assume{Cond: cond}, pos)
	t.cur = body
	if err := t.statement(s.Body); err != nil {
		return err
	}
	t.proc.AddEdge(t.cur, head, xcfa.Nop{}, xcfaPos(t.pos(s.Body.Position())))
	exit := t.proc.NewLoc("")
	t.proc.AddEdge(test, exit, xcfa.Assume{Cond: negate(cond)}, pos)
	t.cur = exit
	return nil
}
