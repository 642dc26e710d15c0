package aarch64

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

const sample = `AArch64 sample
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; uint64_t z=0; }
 P0             | P1                 ;
 MOV W0,#1      | LDR W0,[X1]        ;
 STR W0,[X1]    | EOR W4,W0,W0       ;
 DMB ISH        | LDR W2,[X3,W4,SXTW] ;
 STLR W0,[X3]   | CBNZ W2,L0         ;
 LDXR X5,[X1]   | ISB                ;
 STXR W6,X5,[X1] | L0: LDAR W5,[X3]  ;
exists (1:X0=1 /\ 1:X2=0 \/ ~(x=1))
`

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "AArch64", Translate: Translate, Model: "aarch64", Sample: sample,
		HerdIncludes: []string{"aarch64hwreqs.cat", "enumerations.cat", "aarch64deps.cat", "aarch64fences.cat", "aarch64util.cat",
			"aarch64show.cat", "cos.cat", "aarch64bbm.cat", "aarch64loc.cat", "cos-ok-opt.cat", "cos-no-opt.cat",
			"aarch64memattrs.cat", "cross.cat"},
		Tags: strings.Fields(
			// Annotations of accesses, and the barriers.
			`A Q L X NoRet NExp
			TLBI TLBIIS TLBInXS DC.CVAU IC.IVAU IC.IALLU IC.IALLUIS TagCheck EXC-RET EXC-ENTRY FAULT T SPURIOUS
			BCC DATA Rreg
			DMB.SY DMB.LD DMB.ST DMB.ISH DMB.ISHLD DMB.ISHST DMB.OSH DMB.OSHLD DMB.OSHST DMB.NSH DMB.NSHLD DMB.NSHST
			DSB.SY DSB.LD DSB.ST DSB.ISH DSB.ISHLD DSB.ISHST DSB.OSH DSB.OSHLD DSB.OSHST DSB.NSH DSB.NSHLD DSB.NSHST
			ISB` +
				// AArch32's barriers: herd7 defines them on AArch64 tests
				// too, where no event carries them (its aarch32.cat reads
				// them).
				` DMB DSB`)})
}

// Translate turns the program part of an AArch64 test into an XCFA. It
// also renames the registers of the initial state, the locations clause
// and the condition to the XCFA's names (w3 and W3 become X3).
func Translate(t *litmus.Test, sec litmus.Section, _ litmus.Options) (*xcfa.Program, error) {
	tab, err := parser.ParseTable(sec)
	if err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tab)
	prog := &xcfa.Program{Name: t.Name, Arch: t.Arch}
	pr := &program{file: sec.File, codes: map[int]*codeMap{}, columns: map[int]int{}, taken: map[xcfa.Label]bool{},
		initRegs: map[int]map[string][]xcfa.Label{}, telechat: hasVariant(t, "telechat"), syms: symbols(t), tab: tab}
	threads := make([]*thread, len(tab.Procs))
	builders := make([]*builder, len(tab.Procs))
	for i, ph := range tab.Procs {
		id, ok := procNumber(ph.Name)
		if !ok {
			return nil, source.Errorf(ph.Pos, "expected a thread name P0, P1, ..., found %q", ph.Name)
		}
		if _, dup := pr.codes[id]; dup {
			return nil, source.Errorf(ph.Pos, "thread %s is named twice", ph.Name)
		}
		if err := litmus.CheckThreadOrder(ph.Pos, i, id); err != nil {
			return nil, err
		}
		pr.codes[id] = newCodeMap(id, tab, i)
		pr.columns[id] = i
		p := xcfa.NewProcess(id)
		prog.Procs = append(prog.Procs, p)
		threads[i] = &thread{prog: pr, p: p, segs: map[int]*builder{}}
		builders[i] = threads[i].newSegment(id)
	}
	for r, row := range tab.Rows {
		if len(row) != len(tab.Procs) {
			return nil, litmus.RowMismatch(tab.RowPos[r], len(row), len(tab.Procs))
		}
	}
	if err := pr.canonicalLabels(t); err != nil {
		return nil, err
	}
	for _, row := range tab.Rows {
		for i, c := range row {
			b := builders[i]
			for _, l := range c.Labels {
				if err := b.defineLabel(l.Name, l.Pos); err != nil {
					return nil, err
				}
			}
			if c.Instr != nil {
				if err := b.instruction(c.Instr); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, b := range builders {
		if err := b.finish(tab.FinalPos); err != nil {
			return nil, err
		}
	}
	for _, th := range threads {
		if err := th.linkJumps(); err != nil {
			return nil, err
		}
	}
	if err := normaliseRegisters(t); err != nil {
		return nil, err
	}
	return prog, nil
}

// hasVariant tells whether the test's Variant line names v.
func hasVariant(t *litmus.Test, v string) bool {
	val, ok := t.InfoValue("Variant")
	if !ok {
		return false
	}
	for _, f := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' }) {
		if strings.EqualFold(f, v) {
			return true
		}
	}
	return false
}

func procNumber(name string) (int, bool) {
	if len(name) < 2 || (name[0] != 'P' && name[0] != 'p') {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	return n, err == nil && n >= 0
}

// symbols collects the memory locations the initial state names, so that
// ADR can tell a data symbol from a code label.
func symbols(t *litmus.Test) map[string]bool {
	s := map[string]bool{}
	for _, e := range t.Init {
		if e.Loc.Kind == litmus.GlobalLoc {
			s[e.Loc.Name] = true
		}
		if e.Value != nil && e.Value.Kind == litmus.AddrValue {
			s[e.Value.Sym] = true
		}
	}
	return s
}

// builder translates the instructions of one thread's text, in order,
// into a segment of a process: the process's own code or a copy of
// another thread's code (see thread).
type builder struct {
	file    string
	th      *thread
	code    *codeMap // the layout of the text being translated
	prefix  string   // "P1:" in a copy of P1's code: location labels show it
	p       *xcfa.Process
	cur     *xcfa.Location
	dead    bool // cur is unreachable (after B)
	labels  map[string]*xcfa.Location
	defined map[string]bool
	refs    map[string]source.Pos // where a forward label was first used
	index   int                   // instructions emitted so far
	rmw     *int
	flags   *flagSetter
	syms    map[string]bool
	pos     source.Pos // of the instruction being translated
	instr   int        // the instruction being translated (xcfa.Edge.Instr)
}

func (b *builder) unsupported(pos source.Pos, format string, args ...any) error {
	return source.Errorf(pos, "unsupported "+format, args...)
}

func (b *builder) errorf(pos source.Pos, format string, args ...any) error {
	return source.Errorf(pos, format, args...)
}

// emit adds an edge doing op from the current location to a new one.
func (b *builder) emit(op xcfa.Op) {
	next := b.p.NewLoc("")
	b.p.AddEdge(b.cur, next, op, b.pos, b.instr)
	b.cur = next
}

// target returns the location of a label, creating it when the label is
// used before it is defined.
func (b *builder) target(name string, pos source.Pos) *xcfa.Location {
	if l, ok := b.labels[name]; ok {
		return l
	}
	l := b.p.NewLoc(b.prefix + name)
	b.labels[name] = l
	b.refs[name] = pos
	return l
}

func relLabel(index int) string { return "." + strconv.Itoa(index) }

func (b *builder) defineLabel(name string, pos source.Pos) error {
	if b.defined[name] {
		return b.errorf(pos, "label %s is defined twice in %s", name, b.p.Name)
	}
	b.defined[name] = true
	if l, ok := b.labels[name]; ok {
		if !b.dead {
			b.p.AddEdge(b.cur, l, xcfa.Nop{}, pos, 0) // a label is no instruction
		}
		b.cur, b.dead = l, false
		return nil
	}
	if b.cur.Label == "" || strings.HasPrefix(strings.TrimPrefix(b.cur.Label, b.prefix), ".") {
		b.cur.Label = b.prefix + name
	}
	b.labels[name] = b.cur
	b.dead = false
	return nil
}

// markIndex makes the current location the target of relative branches to
// the instruction about to be translated (B .+8).
func (b *builder) markIndex() {
	name := relLabel(b.index)
	if l, ok := b.labels[name]; ok {
		if !b.dead {
			b.p.AddEdge(b.cur, l, xcfa.Nop{}, b.pos, b.instr)
		}
		b.cur, b.dead = l, false
	} else {
		b.labels[name] = b.cur
	}
	b.defined[name] = true
}

// jump ends the current straight line with an unconditional branch.
func (b *builder) jump(to *xcfa.Location) {
	b.p.AddEdge(b.cur, to, xcfa.Nop{}, b.pos, b.instr)
	b.cur = b.p.NewLoc("")
	b.dead = true
}

// branch splits on cond: to target when it holds, to the next instruction
// otherwise.
func (b *builder) branch(cond xcfa.Expr, to *xcfa.Location) {
	next := b.p.NewLoc("")
	b.p.AddEdge(b.cur, to, xcfa.Assume{Cond: cond}, b.pos, b.instr)
	b.p.AddEdge(b.cur, next, xcfa.Assume{Cond: negate(cond)}, b.pos, b.instr)
	b.cur = next
}

func (b *builder) finish(end source.Pos) error {
	b.pos, b.instr = end, 0
	b.markIndex()
	for name, l := range b.labels {
		if !b.defined[name] {
			if strings.HasPrefix(name, ".") {
				return b.errorf(b.refs[name], "relative branch beyond the end of %s", b.p.Name)
			}
			return b.errorf(b.refs[name], "label %s is not defined in %s", name, b.p.Name)
		}
		_ = l
	}
	b.p.Final = b.cur
	return nil
}

// tmp returns a fresh temporary register name (never an architectural one).
func (b *builder) tmp() string {
	b.th.tmps++
	return fmt.Sprintf("tmp.%d", b.th.tmps)
}

func (b *builder) freshRMW() int {
	*b.rmw++
	return *b.rmw
}

// negate builds the negation of a condition, flipping comparisons so that
// the XCFA stays readable.
func negate(e xcfa.Expr) xcfa.Expr {
	if bin, ok := e.(xcfa.Binary); ok {
		flip := map[xcfa.BinOp]xcfa.BinOp{
			xcfa.Eq: xcfa.Ne, xcfa.Ne: xcfa.Eq, xcfa.Lt: xcfa.Ge, xcfa.Ge: xcfa.Lt, xcfa.Le: xcfa.Gt, xcfa.Gt: xcfa.Le,
			xcfa.Ult: xcfa.Uge, xcfa.Uge: xcfa.Ult, xcfa.Ule: xcfa.Ugt, xcfa.Ugt: xcfa.Ule,
		}
		if op, ok := flip[bin.Op]; ok {
			return xcfa.Binary{Op: op, X: bin.X, Y: bin.Y}
		}
	}
	if c, ok := e.(xcfa.Const); ok {
		if c.Value == 0 {
			return xcfa.Const{Value: 1}
		}
		return xcfa.Const{Value: 0}
	}
	if u, ok := e.(xcfa.Unary); ok && u.Op == xcfa.Not {
		return u.X
	}
	return xcfa.Unary{Op: xcfa.Not, X: e}
}

// normaliseRegisters renames registers of the test's state and condition
// to the XCFA's names: W3, w3 and x3 are X3. It refuses a name that no
// register of herd7's AArch64 has (1:X11x, 2:X-3, 0:X31), as herd7 does,
// and the names of herd7's other register files (V0, Q1, Z2, P3, C4,
// system registers), which purr does not model: taken for registers no
// instruction writes, they would be answered with a value herd7 does not
// give them.
func normaliseRegisters(t *litmus.Test) error {
	return t.RenameRegisters(func(l litmus.Loc) (string, error) {
		if r, ok := parseReg(l.Name); ok && !r.zero {
			return r.name, nil
		} else if !ok && otherRegisterFile().MatchString(l.Name) {
			return "", source.Errorf(l.Pos, "%d:%s is a vector, SVE, capability or system register of herd7's AArch64, which purr does not model", l.Proc, l.Name)
		} else if ok {
			return l.Name, nil
		}
		return "", source.Errorf(l.Pos, "%s is not a register of herd7's AArch64 (herd7: %q)", l.Name, l.Name+" is not a register")
	})
}

// otherRegisterFile matches the names of herd7's AArch64 registers that
// purr's translation does not read: vector (V0, B0 ... Q0), SVE (Z0, P0),
// capability (C0) and system registers (ELR_EL1, NZCV). It is compiled on
// first use: most tests never need it.
var otherRegisterFile = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:[VBHSDQZC]([0-9]|[12][0-9]|3[01])|P([0-9]|1[0-5])|[A-Z][A-Z0-9]*_EL[0-3]|NZCV)$`)
})
