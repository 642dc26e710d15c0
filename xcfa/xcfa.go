package xcfa

import (
	"fmt"

	"github.com/purr-mcm/purr/source"
)

// Program is a litmus test's code: one process per thread. The initial
// state and the final condition belong to the test, not to the program.
type Program struct {
	Name  string
	Arch  string // "AArch64", "C", ...
	Procs []*Process
	// OrderedInstrs: program order relates the events of one instruction
	// along its edges, but for parallel parts (Edge.Par). herd7's po
	// includes the data dependencies inside an instruction (iico_data),
	// which sequence C's operations and X86's read-modify-writes whose
	// write computes on the read (INC); an X86 exchange's read and write
	// are parallel. Without it, no two events of one instruction are in
	// program order, as purr builds AArch64's read-modify-writes (SWP,
	// LDADD, CAS).
	OrderedInstrs bool
	// NoBranchEvents: a conditional branch makes no branch (commit) event,
	// and a control dependency ends where the branches join, as in herd7's
	// C semantics.
	NoBranchEvents bool
}

// Process is one thread: a control-flow automaton from Init to Final.
// Locations are numbered in the order they were created; Edges keep the
// order of the source, so that program order among events can be recovered
// by walking from Init.
type Process struct {
	ID     int    // the N of PN
	Name   string // "P0"
	Locs   []*Location
	Edges  []*Edge
	Init   *Location
	Final  *Location
	Params []string // C: the thread's parameters, which are registers holding addresses
	// Instrs are the process's instructions; Edge.Instr numbers them
	// from 1 (Instrs[n-1]).
	Instrs []Instr
}

// Instr is one instruction of a process, as its front end delimits them:
// an assembly instruction, a C statement's access or call, each statement
// of a C macro's body. Two edges are one instruction exactly when the front
// end gives them one number (Edge.Instr), whatever their positions.
type Instr struct {
	Text string // as written ("LDR W0,[X1]"), for messages that quote it; "" when the front end keeps none
}

// Location is a control point of a process.
type Location struct {
	ID    int
	Label string // the source label, if any (AArch64 "L0:")
	Out   []*Edge
}

// Edge moves a process from one location to another, doing Op.
type Edge struct {
	From, To *Location
	Op       Op
	Pos      source.Pos // where the operation is written, for messages
	// Instr is the instruction the edge belongs to (Process.Instrs), 0
	// for none (a join between instructions, which does nothing).
	// Consecutive edges of one instruction along a path are one instance
	// of it (events.Event.Instr: what reads can read from, iico against
	// dependencies); program order among an instance's events is Par's.
	Instr int
	// Par places the edge among the parallel parts of its instruction,
	// outermost first (C: herd evaluates the operands of a binary
	// operator, or the arguments of a call, in parallel: its e1 >>| e2).
	// Program order relates no two events of parallel parts (Parallel).
	Par []Par
}

// Par is one branch of a parallel composition: Node names the
// composition, uniquely in its process; Branch is the part, counted from 0.
type Par struct{ Node, Branch int }

// Parallel tells whether two edges lie in different parts of one parallel
// composition (the first composition their Pars differ at is one node).
// Edges of one instruction that are not parallel are in sequence, in the
// order of the edges along the path: an instruction's events form a
// series-parallel order, as herd's C semantics builds them.
func Parallel(a, b []Par) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i].Node == b[i].Node
		}
	}
	return false
}

// Op is what an edge does. The concrete types are below.
type Op interface{ isOp() }

// Nop does nothing (B, NOP, a join of branches).
type Nop struct{}

// Assign sets a register to the value of an expression. Dependencies flow
// through it: Dst depends on every register Value reads.
type Assign struct {
	Dst   string
	Value Expr
}

// Assume lets the process pass only when Cond is non-zero. A location with
// several outgoing Assume edges is a conditional branch; the registers of
// Cond are the sources of control dependencies. Internal marks an
// assumption that belongs to one instruction's semantics (a CAS comparing
// the value it read): it is no program branch, so it makes no branch event
// and no control dependency. Commit marks, on an internal assumption, the
// point where the instruction commits to its outcome (herd's
// Branching(pred) event of a CAS that succeeds): it makes a branch event
// of the instruction itself, still no control dependency.
type Assume struct {
	Cond     Expr
	Internal bool
	Commit   bool
}

// Load reads Size bytes at Addr into Dst.
type Load struct {
	Dst  string
	Addr Expr
	Size int      // bytes; 0 means the architecture's word
	Tags []string // Cat sets the read event belongs to (A, Q, X, ACQ, Once, ...)
	RMW  int      // non-zero: the read half of the atomic pair with this id
}

// Store writes Value (Size bytes) at Addr.
type Store struct {
	Addr  Expr
	Value Expr
	Size  int
	Tags  []string // Cat sets the write event belongs to (L, X, REL, ...)
	RMW   int      // non-zero: the write half of the atomic pair with this id
	// OneEvent marks the write half of a read-modify-write that herd7
	// builds as one event, both read and write (C11 atomics): a model sees
	// the pair as one event.
	OneEvent bool
	// Status, when set, is the register a store-conditional sets to 0 when
	// it stores, with a dependency on the store (and on what the store
	// depends on), as herd7's success write of RISC-V's sc has one.
	Status string
}

// Fence is a barrier event; Tags name its Cat sets (DMB.SY, ISB, SC, Mb...).
type Fence struct {
	Tags []string
}

func (Nop) isOp()    {}
func (Assign) isOp() {}
func (Assume) isOp() {}
func (Load) isOp()   {}
func (Store) isOp()  {}
func (Fence) isOp()  {}

// Expr is a side-effect-free expression over registers and constants.
// Expressions are kept as written (EOR W2,W0,W0 stays an xor of W0 with
// itself) so that false dependencies survive.
type Expr interface{ isExpr() }

// Const is an integer constant.
type Const struct{ Value int64 }

// Sym is the address of a named location plus a byte offset.
type Sym struct {
	Name   string
	Offset int64
}

// Reg reads a register of the current process.
type Reg struct{ Name string }

// Binary applies an operator to two operands.
type Binary struct {
	Op   BinOp
	X, Y Expr
}

// Unary applies an operator to one operand.
type Unary struct {
	Op UnOp
	X  Expr
}

// Ite is X if Cond is non-zero, else Y (CSEL and friends).
type Ite struct{ Cond, X, Y Expr }

// Label is the address of a code location: the instruction of process
// Proc's source text that the label Name marks (herd's P1:L0). It is a
// constant, distinct from every integer and every data address; two
// Labels are the same address exactly when Proc and Name are equal, which
// the front end guarantees by naming each code position by one canonical
// name. Front ends use it for code addresses as values (AArch64 ADR of a
// code label, the return address BL writes into X30); an indirect jump on
// such a value is a set of Assume edges "R == Label", one per possible
// target (the package documentation has the contract).
type Label struct {
	Proc int
	Name string
}

// Pick is the value of X, selected by the condition Cond, as herd7's
// conditional selects (CSEL, CSET...) work: X's registers flow into the
// result as data; Cond's registers only choose, which herd calls a pick
// dependency (weaker than a data dependency).
type Pick struct{ Cond, X Expr }

func (Const) isExpr()  {}
func (Pick) isExpr()   {}
func (Sym) isExpr()    {}
func (Reg) isExpr()    {}
func (Binary) isExpr() {}
func (Unary) isExpr()  {}
func (Ite) isExpr()    {}
func (Label) isExpr()  {}

// EachReg calls f with each register x reads, in the order written (a
// register read twice, twice).
func EachReg(x Expr, f func(name string)) {
	switch x := x.(type) {
	case Reg:
		f(x.Name)
	case Binary:
		EachReg(x.X, f)
		EachReg(x.Y, f)
	case Unary:
		EachReg(x.X, f)
	case Ite:
		EachReg(x.Cond, f)
		EachReg(x.X, f)
		EachReg(x.Y, f)
	case Pick:
		EachReg(x.Cond, f)
		EachReg(x.X, f)
	}
}

// Registers lists the registers op reads, in the order written, and
// those it sets.
func Registers(op Op) (uses, defs []string) {
	read := func(x Expr) { EachReg(x, func(r string) { uses = append(uses, r) }) }
	switch op := op.(type) {
	case Assign:
		read(op.Value)
		defs = append(defs, op.Dst)
	case Assume:
		read(op.Cond)
	case Load:
		read(op.Addr)
		if op.Dst != "" {
			defs = append(defs, op.Dst)
		}
	case Store:
		read(op.Addr)
		read(op.Value)
		if op.Status != "" {
			defs = append(defs, op.Status)
		}
	case Mark:
		read(op.Addr)
		if op.Value != nil {
			read(op.Value)
		}
	}
	return uses, defs
}

// Reads tells whether x reads register name.
func Reads(x Expr, name string) bool {
	found := false
	EachReg(x, func(r string) { found = found || r == name })
	return found
}

// BinOp is a binary operator.
type BinOp int

// The binary operators. Comparisons give 1 or 0.
const (
	Add BinOp = iota
	Sub
	Mul
	Div
	Mod
	And
	Or
	Xor
	Shl
	Shr  // logical
	Ashr // arithmetic
	Eq
	Ne
	Lt // signed
	Le
	Gt
	Ge
	Ult // unsigned
	Ule
	Ugt
	Uge
	LAnd // logical, on truth values
	LOr
)

var binOpNames = [...]string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>s",
	"==", "!=", "<", "<=", ">", ">=", "<u", "<=u", ">u", ">=u", "&&", "||"}

func (o BinOp) String() string { return binOpNames[o] }

// UnOp is a unary operator.
type UnOp int

// The unary operators.
const (
	Neg   UnOp = iota // arithmetic negation
	Not               // logical: 1 if zero, else 0
	BNot              // bitwise complement
	Zext8             // keep the low 8 bits
	Zext16
	Zext32
	Sext8 // sign-extend the low 8 bits
	Sext16
	Sext32
	// Low8, Low16 and Low32 keep the low bits as X86_64 reads a narrow
	// operand: herd7 clears the bits above them (an address has no bits
	// to clear, where Zext is AArch64's mask).
	Low8
	Low16
	Low32
)

var unOpNames = [...]string{"-", "!", "~", "zext8", "zext16", "zext32", "sext8", "sext16", "sext32", "low8", "low16", "low32"}

func (o UnOp) String() string { return unOpNames[o] }

// NewProcess returns a process with its Init location created.
func NewProcess(id int) *Process {
	p := &Process{ID: id, Name: fmt.Sprintf("P%d", id)}
	p.Init = p.NewLoc("")
	return p
}

// NewLoc adds a location to p.
func (p *Process) NewLoc(label string) *Location {
	l := &Location{ID: len(p.Locs), Label: label}
	p.Locs = append(p.Locs, l)
	return l
}

// NewInstr adds an instruction to p and returns its number.
func (p *Process) NewInstr(text string) int {
	p.Instrs = append(p.Instrs, Instr{Text: text})
	return len(p.Instrs)
}

// Instr returns instruction n of p (Edge.Instr); the zero Instr for 0.
func (p *Process) Instr(n int) Instr {
	if n == 0 {
		return Instr{}
	}
	return p.Instrs[n-1]
}

// AddEdge adds an edge doing op from one location to another, as a part
// of instruction instr (0: none).
func (p *Process) AddEdge(from, to *Location, op Op, pos source.Pos, instr int) *Edge {
	e := &Edge{From: from, To: to, Op: op, Pos: pos, Instr: instr}
	p.Edges = append(p.Edges, e)
	from.Out = append(from.Out, e)
	return e
}

// HasLoop tells whether a path from Init can come back to a location it
// has visited: the process has a loop the engines must unroll. Code no
// path reaches does not count.
func (p *Process) HasLoop() bool {
	const (
		unseen = iota
		onPath // on the path of the depth-first walk: an edge to it closes a loop
		done
	)
	state := make(map[*Location]int, len(p.Locs))
	type frame struct {
		loc  *Location
		next int // the next edge of loc.Out to follow
	}
	stack := []frame{{loc: p.Init}}
	state[p.Init] = onPath
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.loc.Out) {
			state[top.loc] = done
			stack = stack[:len(stack)-1]
			continue
		}
		to := top.loc.Out[top.next].To
		top.next++
		switch state[to] {
		case onPath:
			return true
		case unseen:
			state[to] = onPath
			stack = append(stack, frame{loc: to})
		}
	}
	return false
}
