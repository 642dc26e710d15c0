package aarch64

import (
	"sort"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/xcfa"
)

// Code addresses as values. A position of a thread's text (before its k-th
// instruction, or its end) has one canonical name: its first source label,
// or ".k" when it has none. Its address is the constant xcfa.Label{Proc,
// canonical name}, so that equal addresses are equal constants.

// codeMap is the layout of one thread's text.
type codeMap struct {
	proc  int
	count int            // instructions
	at    map[string]int // source label or canonical name -> position
	canon []string       // position -> canonical name; len count+1
}

// newCodeMap lays out column col of the table.
func newCodeMap(proc int, tab *asm.Table[parser.Instr], col int) *codeMap {
	c := &codeMap{proc: proc, at: map[string]int{}}
	var first []string
	for _, row := range tab.Rows {
		if col >= len(row) {
			continue
		}
		for _, l := range row[col].Labels {
			if _, dup := c.at[l.Name]; dup {
				continue // reported as an error by the builder
			}
			c.at[l.Name] = c.count
			for len(first) <= c.count {
				first = append(first, "")
			}
			if first[c.count] == "" {
				first[c.count] = l.Name
			}
		}
		if row[col].Instr != nil {
			c.count++
		}
	}
	c.canon = make([]string, c.count+1)
	for k := range c.canon {
		if k < len(first) && first[k] != "" {
			c.canon[k] = first[k]
		} else {
			c.canon[k] = relLabel(k)
			c.at[c.canon[k]] = k
		}
	}
	return c
}

func (c *codeMap) name() string { return procName(c.proc) }

// position returns the address of position k.
func (c *codeMap) position(k int) xcfa.Label {
	return xcfa.Label{Proc: c.proc, Name: c.canon[k]}
}

// label returns the address of a source label.
func (c *codeMap) label(name string) (xcfa.Label, bool) {
	k, ok := c.at[name]
	if !ok || strings.HasPrefix(name, ".") {
		return xcfa.Label{}, false
	}
	return c.position(k), true
}

// program holds what the threads share while they are translated.
type program struct {
	file     string
	codes    map[int]*codeMap
	columns  map[int]int                     // proc -> column of the table
	taken    map[xcfa.Label]bool             // every address some value may hold
	initRegs map[int]map[string][]xcfa.Label // label values of the initial registers
	telechat bool                            // herd's Variant=telechat: RET ends the thread
	rmw      int
	syms     map[string]bool
	tab      *asm.Table[parser.Instr]
}

// indirectJump is a BR, BLR or RET whose targets are added once the
// thread's code is complete.
type indirectJump struct {
	from *xcfa.Location
	reg  string
	pos  xcfa.Pos
}

// thread is one process under construction: its own code, and copies of
// other threads' code it may jump into (herd runs the code at an address
// whoever jumps there: P0 may call a routine of P1's text).
type thread struct {
	prog  *program
	p     *xcfa.Process
	segs  map[int]*builder // by the proc whose text the segment is
	jumps []indirectJump
	exits []indirectJump // telechat RETs: Nop edges to Final
	tmps  int
}

func (th *thread) newSegment(proc int) *builder {
	pr := th.prog
	b := &builder{file: pr.file, th: th, p: th.p, code: pr.codes[proc], labels: map[string]*xcfa.Location{},
		defined: map[string]bool{}, refs: map[string]xcfa.Pos{}, rmw: &pr.rmw, syms: pr.syms}
	if proc == th.p.ID {
		b.cur = th.p.Init
	} else {
		b.prefix = procName(proc) + ":"
		b.cur = th.p.NewLoc(b.prefix + relLabel(0))
	}
	th.segs[proc] = b
	return b
}

func procName(id int) string { return "P" + strconv.Itoa(id) }

// addCopy translates proc's text once more inside th.
func (th *thread) addCopy(proc int) error {
	b := th.newSegment(proc)
	col := th.prog.columns[proc]
	for _, row := range th.prog.tab.Rows {
		if col >= len(row) {
			continue
		}
		c := row[col]
		for _, l := range c.Labels {
			if err := b.defineLabel(l.Name, l.Pos); err != nil {
				return err
			}
		}
		if c.Instr != nil {
			if err := b.instruction(c.Instr); err != nil {
				return err
			}
		}
	}
	b.pos = th.prog.tab.FinalPos
	b.markIndex()
	// Running past the end of another thread's text ends this thread.
	th.p.AddEdge(b.cur, th.p.Final, xcfa.Nop{}, b.pos)
	return nil
}

// labelSet is the set of code addresses a register may hold; top: any
// address some value of the program holds.
type labelSet struct {
	top    bool
	labels map[xcfa.Label]bool
}

func (s *labelSet) add(o labelSet) bool {
	changed := false
	if o.top && !s.top {
		s.top, changed = true, true
	}
	for l := range o.labels {
		if !s.labels[l] {
			if s.labels == nil {
				s.labels = map[xcfa.Label]bool{}
			}
			s.labels[l], changed = true, true
		}
	}
	return changed
}

// labelSets computes, flow-insensitively, the code addresses each register
// of th may hold: labels of its initial value, of ADR, BL and BLR, copied
// by MOV; a register loaded from memory or computed otherwise from a
// register that holds addresses may hold any taken address.
func (th *thread) labelSets() map[string]*labelSet {
	sets := map[string]*labelSet{}
	get := func(r string) *labelSet {
		s := sets[r]
		if s == nil {
			s = &labelSet{}
			sets[r] = s
		}
		return s
	}
	for r, ls := range th.prog.initRegs[th.p.ID] {
		s := get(r)
		for _, l := range ls {
			s.add(labelSet{labels: map[xcfa.Label]bool{l: true}})
		}
	}
	var eval func(e xcfa.Expr) labelSet
	eval = func(e xcfa.Expr) labelSet {
		switch e := e.(type) {
		case xcfa.Label:
			return labelSet{labels: map[xcfa.Label]bool{e: true}}
		case xcfa.Reg:
			if s := sets[e.Name]; s != nil {
				return *s
			}
		case xcfa.Ite:
			var s labelSet
			s.add(eval(e.X))
			s.add(eval(e.Y))
			return s
		case xcfa.Pick:
			return eval(e.X)
		case xcfa.Binary, xcfa.Unary:
			// Arithmetic on an address: whatever it gives, only a
			// taken address can be a jump target.
			var x, y labelSet
			if b, ok := e.(xcfa.Binary); ok {
				x, y = eval(b.X), eval(b.Y)
			} else {
				x = eval(e.(xcfa.Unary).X)
			}
			if x.top || y.top || len(x.labels) > 0 || len(y.labels) > 0 {
				return labelSet{top: true}
			}
		}
		return labelSet{}
	}
	for changed := true; changed; {
		changed = false
		for _, e := range th.p.Edges {
			switch op := e.Op.(type) {
			case xcfa.Assign:
				if get(op.Dst).add(eval(op.Value)) {
					changed = true
				}
			case xcfa.Load:
				if op.Dst != "" && get(op.Dst).add(labelSet{top: true}) {
					changed = true
				}
			}
		}
	}
	return sets
}

// targets lists the possible targets of a jump, sorted by thread and
// position.
func (th *thread) targets(sets map[string]*labelSet, j indirectJump) []xcfa.Label {
	s := sets[j.reg]
	var out []xcfa.Label
	switch {
	case s == nil:
	case s.top:
		for l := range th.prog.taken {
			out = append(out, l)
		}
	default:
		for l := range s.labels {
			out = append(out, l)
		}
	}
	codes := th.prog.codes
	sort.Slice(out, func(i, k int) bool {
		if out[i].Proc != out[k].Proc {
			return out[i].Proc < out[k].Proc
		}
		return codes[out[i].Proc].at[out[i].Name] < codes[out[k].Proc].at[out[k].Name]
	})
	return out
}

// linkJumps adds the copies of other threads' code th may jump into, then
// the Assume edges of every indirect jump.
func (th *thread) linkJumps() error {
	var sets map[string]*labelSet
	for {
		sets = th.labelSets()
		var need []int
		for _, j := range th.jumps {
			for _, l := range th.targets(sets, j) {
				if th.segs[l.Proc] == nil && !contains(need, l.Proc) {
					need = append(need, l.Proc)
				}
			}
		}
		if len(need) == 0 {
			break
		}
		sort.Ints(need)
		for _, q := range need {
			if err := th.addCopy(q); err != nil {
				return err
			}
		}
	}
	for _, j := range th.jumps {
		ts := th.targets(sets, j)
		if len(ts) == 0 {
			// No code address can reach the register: the path blocks.
			th.p.AddEdge(j.from, th.p.NewLoc(""), xcfa.Assume{Cond: cnst(0)}, j.pos)
			continue
		}
		for _, l := range ts {
			seg := th.segs[l.Proc]
			to := seg.labels[relLabel(th.prog.codes[l.Proc].at[l.Name])]
			if to.Label == "" {
				to.Label = seg.prefix + l.Name // name return points in DOT output
			}
			th.p.AddEdge(j.from, to, xcfa.Assume{Cond: bin(xcfa.Eq, xcfa.Reg{Name: j.reg}, l)}, j.pos)
		}
	}
	for _, x := range th.exits {
		th.p.AddEdge(x.from, th.p.Final, xcfa.Nop{}, x.pos)
	}
	return nil
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// canonicalLabels checks the code labels of the initial state and the
// condition and renames them to their canonical names; it also records the
// initial label values of registers and the taken addresses.
func (pr *program) canonicalLabels(t *litmus.Test) error {
	fix := func(v *litmus.Value) error {
		if v == nil || v.Kind != litmus.LabelValue {
			return nil
		}
		c := pr.codes[v.Index]
		if c == nil {
			return litmus.Errorf(v.Pos, "label value %s: the program has no thread P%d", v, v.Index)
		}
		l, ok := c.label(v.Sym)
		if !ok {
			return litmus.Errorf(v.Pos, "label value %s: no label %s in P%d", v, v.Sym, v.Index)
		}
		v.Sym = l.Name
		pr.taken[l] = true
		return nil
	}
	for i := range t.Init {
		e := &t.Init[i]
		if err := fix(e.Value); err != nil {
			return err
		}
		if e.Value != nil && e.Value.Kind == litmus.LabelValue && e.Loc.Kind == litmus.RegLoc {
			name := e.Loc.Name
			if r, ok := parseReg(name); ok {
				name = r.name
			}
			if pr.initRegs[e.Loc.Proc] == nil {
				pr.initRegs[e.Loc.Proc] = map[string][]xcfa.Label{}
			}
			pr.initRegs[e.Loc.Proc][name] = append(pr.initRegs[e.Loc.Proc][name],
				xcfa.Label{Proc: e.Value.Index, Name: e.Value.Sym})
		}
	}
	var walk func(p litmus.Prop) (litmus.Prop, error)
	walk = func(p litmus.Prop) (litmus.Prop, error) {
		var err error
		switch q := p.(type) {
		case litmus.Not:
			q.X, err = walk(q.X)
			return q, err
		case litmus.And:
			return walk2(q.X, q.Y, walk, func(x, y litmus.Prop) litmus.Prop { return litmus.And{X: x, Y: y} })
		case litmus.Or:
			return walk2(q.X, q.Y, walk, func(x, y litmus.Prop) litmus.Prop { return litmus.Or{X: x, Y: y} })
		case litmus.Implies:
			return walk2(q.X, q.Y, walk, func(x, y litmus.Prop) litmus.Prop { return litmus.Implies{X: x, Y: y} })
		case litmus.Eq:
			err = fix(&q.Value)
			return q, err
		}
		return p, nil
	}
	var err error
	if t.Filter != nil {
		if t.Filter, err = walk(t.Filter); err != nil {
			return err
		}
	}
	t.Cond, err = walk(t.Cond)
	return err
}

func walk2(x, y litmus.Prop, walk func(litmus.Prop) (litmus.Prop, error), mk func(x, y litmus.Prop) litmus.Prop) (litmus.Prop, error) {
	x, err := walk(x)
	if err != nil {
		return nil, err
	}
	y, err = walk(y)
	if err != nil {
		return nil, err
	}
	return mk(x, y), nil
}
