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
	instrs map[instrKey]int // the instruction of each position and step (xcfa.Edge.Instr)
	text   string           // the statement being translated, as written

	step      int          // the instruction of a macro's body being translated (instrKey)
	par       []xcfa.Par   // the parallel parts being translated (xcfa.Edge.Par)
	parNodes  int          // the parallel compositions made so far
	macros    *Macros      // herd's macro file, nil for none
	lkmmv2    bool         // herd's variant lkmmv2: RMWs carry their annotations
	frame     *frame       // the parameters of the macro being expanded
	site      *source.Pos  // the call in the thread's code being expanded
	expanding []string     // the macros being expanded, outermost first
	loops     []*loopExits // the loops being translated, innermost last
}

// loopExits are where a loop's continue and break statements go; exit is
// made by the first break, or after the body (locations are numbered in
// the order they are made).
type loopExits struct {
	next, exit *xcfa.Location
}

func (l *loopExits) exitLoc(p *xcfa.Process) *xcfa.Location {
	if l.exit == nil {
		l.exit = p.NewLoc("")
	}
	return l.exit
}

func translateProgram(file string, tree *cast.Program, macros *Macros, lkmmv2 bool) (*xcfa.Program, error) {
	prog := &xcfa.Program{Arch: "C", OrderedInstrs: true, NoBranchEvents: true}
	seen := map[int]bool{}
	rmwIDs := 0
	for i, th := range tree.Threads {
		id, err := strconv.Atoi(th.Name[1:])
		if err != nil {
			return nil, source.Errorf(th.Pos, "bad thread name %s", th.Name)
		}
		if seen[id] {
			return nil, source.Errorf(th.Pos, "thread P%d is defined twice", id)
		}
		seen[id] = true
		if err := litmus.CheckThreadOrder(th.Pos, i, id); err != nil {
			return nil, err
		}
		t := &translator{proc: xcfa.NewProcess(id), ptr: map[string]int{}, rmwIDs: &rmwIDs, instrs: map[instrKey]int{}, macros: macros, lkmmv2: lkmmv2}
		t.cur = t.proc.Init
		for _, p := range th.Params {
			depth, err := t.typeOf(p.Type)
			if err != nil {
				return nil, err
			}
			name := p.Name.Name
			if _, dup := t.ptr[name]; dup {
				return nil, source.Errorf(p.Name.Pos, "parameter %s is declared twice", name)
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
		return nil, source.Errorf(source.Pos{File: file, Line: 1, Col: 1}, "the program has no thread")
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
				return 0, source.Errorf(t.pos(w.Pos), "unsupported type struct %s (herd7 knows struct srcu_struct only)", w.Name)
			}
			base = true
		case cast.Unknown:
			return 0, source.Errorf(t.pos(w.Pos), "unsupported type %s", w.Name)
		}
	}
	if !base {
		return 0, source.Errorf(t.pos(ts.Pos), "expected a type name")
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

// instrKey identifies an instruction: the edges of one source position
// are one instruction, but for the statements of a macro's body, which
// are one each (step counts them; 0 outside a body).
type instrKey struct {
	pos  source.Pos
	step int
}

// instr returns the instruction of pos and step, adding it on first use.
func (t *translator) instr(pos source.Pos, step int) int {
	k := instrKey{pos, step}
	n, ok := t.instrs[k]
	if !ok {
		n = t.proc.NewInstr("")
		t.instrs[k] = n
	}
	return n
}

// emit adds an edge from the current location to a new one; its
// instruction quotes the statement it comes from.
func (t *translator) emit(op xcfa.Op, pos source.Pos) {
	n := t.instr(pos, t.step)
	if t.text != "" {
		t.proc.Instrs[n-1].Text = t.text
	}
	to := t.proc.NewLoc("")
	t.proc.AddEdge(t.cur, to, op, pos, n).Par = t.par
	t.cur = to
}

// join ends the current path with an edge to the location to, where an
// earlier path ended: the alternatives of a choice meet.
func (t *translator) join(to *xcfa.Location, op xcfa.Op, pos source.Pos) {
	t.proc.AddEdge(t.cur, to, op, pos, t.instr(pos, t.step)).Par = t.par
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
			return t.jump(name, t.pos(s.Pos))
		}
		if e, ok := unparen(s.X).(*cast.CallExpr); ok {
			_, err := t.callExpr(e, "", true)
			return err
		}
		// herd's statements are calls and assignments: smp_mb; or *x; is
		// a syntax error there.
		return source.Errorf(t.pos(s.Pos), "unsupported statement %s: herd7 takes a call or an assignment here", s.Text)
	case *cast.IfStmt:
		return t.ifStmt(s)
	case *cast.WhileStmt:
		return t.whileStmt(s)
	case *cast.DoStmt:
		return t.doStmt(s)
	case *cast.ForStmt:
		return t.forStmt(s)
	}
	return source.Errorf(t.pos(s.Position()), "unsupported statement")
}

// quote records the statement being translated, the text of its
// instructions (xcfa.Instr).
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
	case *cast.DoStmt:
		t.text = "while (" + s.CondText + ")"
	case *cast.ForStmt:
		t.text = s.HeaderText
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
	return source.Errorf(t.pos(s.LHS.Position()), "unsupported assignment target %s", cast.Text(s.LHS))
}

// assignRegister translates "name = e": the value goes straight into the
// register when e ends with a load.
func (t *translator) assignRegister(name string, e cast.Expr, pos source.Pos) error {
	v, err := t.expr(e, name)
	if err != nil {
		return err
	}
	if v.e == nil {
		return source.Errorf(t.pos(e.Position()), "%s has no value", cast.Text(e))
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
	pos := t.pos(s.Pos)
	branch := t.cur
	then := t.proc.NewLoc("")
	t.proc.AddEdge(branch, then, xcfa.Assume{Cond: cond}, pos, t.instr(pos, 0))
	t.cur = then
	if err := t.statement(s.Then); err != nil {
		return err
	}
	thenEnd := t.cur
	if s.Else == nil {
		t.proc.AddEdge(branch, thenEnd, xcfa.Assume{Cond: negate(cond)}, pos, t.instr(pos, 0))
		t.cur = thenEnd
		return nil
	}
	els := t.proc.NewLoc("")
	t.proc.AddEdge(branch, els, xcfa.Assume{Cond: negate(cond)}, pos, t.instr(pos, 0))
	t.cur = els
	if err := t.statement(s.Else); err != nil {
		return err
	}
	end := t.pos(s.Else.Position())
	t.proc.AddEdge(t.cur, thenEnd, xcfa.Nop{}, end, t.instr(end, 0))
	t.cur = thenEnd
	return nil
}

func (t *translator) whileStmt(s *cast.WhileStmt) error {
	head := t.cur
	test, err := t.enter(s.Cond, t.pos(s.Pos))
	if err != nil {
		return err
	}
	exits := &loopExits{next: head}
	if err := t.loopBody(s.Body, exits); err != nil {
		return err
	}
	t.back(head, s.Body)
	test.leave(t, exits)
	t.cur = exits.exit
	return nil
}

// loopTest is where a while or for statement tests its condition.
type loopTest struct {
	at   *xcfa.Location
	cond xcfa.Expr
	pos  source.Pos
}

// enter evaluates a loop's condition and enters the body where it holds.
func (t *translator) enter(c cast.Expr, pos source.Pos) (*loopTest, error) {
	cond, err := t.condition(c)
	if err != nil {
		return nil, err
	}
	test := &loopTest{at: t.cur, cond: cond, pos: pos}
	body := t.proc.NewLoc("")
	t.proc.AddEdge(test.at, body, xcfa.Assume{Cond: cond}, pos, t.instr(pos, 0))
	t.cur = body
	return test, nil
}

// leave adds the edge out of the loop where its condition fails, once the
// body is translated (locations are numbered in the order they are made).
func (lt *loopTest) leave(t *translator, exits *loopExits) {
	t.proc.AddEdge(lt.at, exits.exitLoc(t.proc), xcfa.Assume{Cond: negate(lt.cond)}, lt.pos, t.instr(lt.pos, 0))
}

// doStmt translates "do Body while (Cond);": the body once, then again
// while the condition holds.
func (t *translator) doStmt(s *cast.DoStmt) error {
	head := t.cur
	exits := &loopExits{next: t.proc.NewLoc("")}
	if err := t.loopBody(s.Body, exits); err != nil {
		return err
	}
	t.back(exits.next, s.Body)
	t.requote(s)
	cond, err := t.condition(s.Cond)
	if err != nil {
		return err
	}
	pos := t.pos(s.Cond.Position())
	t.proc.AddEdge(t.cur, head, xcfa.Assume{Cond: cond}, pos, t.instr(pos, 0))
	t.proc.AddEdge(t.cur, exits.exitLoc(t.proc), xcfa.Assume{Cond: negate(cond)}, pos, t.instr(pos, 0))
	t.cur = exits.exit
	return nil
}

// forStmt translates "for (Init; Cond; Step) Body" as "Init; while (Cond)
// { Body; Step; }", a continue going to Step.
func (t *translator) forStmt(s *cast.ForStmt) error {
	if s.Init != nil {
		if err := t.clause(s.Init, s); err != nil {
			return err
		}
	}
	head := t.cur
	exits := &loopExits{next: t.proc.NewLoc("")}
	var test *loopTest
	if s.Cond != nil {
		var err error
		if test, err = t.enter(s.Cond, t.pos(s.Pos)); err != nil {
			return err
		}
	}
	if err := t.loopBody(s.Body, exits); err != nil {
		return err
	}
	t.back(exits.next, s.Body)
	if s.Step != nil {
		if err := t.clause(s.Step, s); err != nil {
			return err
		}
	}
	t.back(head, s.Body)
	if test != nil {
		test.leave(t, exits)
	}
	t.cur = exits.exitLoc(t.proc)
	return nil
}

// clause translates a for statement's first or third clause, quoted as
// the statement's header.
func (t *translator) clause(c cast.Stmt, s *cast.ForStmt) error {
	err := t.statement(c)
	t.requote(s)
	return err
}

// requote quotes s again after the statements inside it, but in a macro's
// body, whose instructions quote the call.
func (t *translator) requote(s cast.Stmt) {
	if t.site == nil {
		t.quote(s)
	}
}

// loopBody translates a loop's body, whose continue and break statements
// go to exits.
func (t *translator) loopBody(body cast.Stmt, exits *loopExits) error {
	t.loops = append(t.loops, exits)
	defer func() { t.loops = t.loops[:len(t.loops)-1] }()
	return t.statement(body)
}

// back ends a loop's body with an edge to the location to.
func (t *translator) back(to *xcfa.Location, body cast.Stmt) {
	end := t.pos(body.Position())
	t.proc.AddEdge(t.cur, to, xcfa.Nop{}, end, t.instr(end, 0))
	t.cur = to
}

// jump translates break and continue: an edge to where the innermost
// loop goes on; what follows them in their block is unreachable.
func (t *translator) jump(name string, pos source.Pos) error {
	if len(t.loops) == 0 {
		return source.Errorf(pos, "%s outside a loop", name)
	}
	l := t.loops[len(t.loops)-1]
	to := l.next
	if name == "break" {
		to = l.exitLoc(t.proc)
	}
	t.proc.AddEdge(t.cur, to, xcfa.Nop{}, pos, t.instr(pos, t.step))
	t.cur = t.proc.NewLoc("")
	return nil
}
