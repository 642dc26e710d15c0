package aarch64

import (
	"slices"
	"strings"

	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/xcfa"
)

// access describes a load/store mnemonic once its suffixes are peeled.
type access struct {
	size    int // bytes; 0: the width of the data register
	signed  bool
	tags    []string
	pair    bool
	exclStr bool // STXR/STLXR/STXP/STLXP: the status register comes first
}

// Plain and ordered single loads and stores, by mnemonic. The size of a
// suffix-less form comes from the register (W: 4, X: 8).
var loadForms = map[string]access{
	"LDR": {}, "LDUR": {}, "LDRB": {size: 1}, "LDRH": {size: 2}, "LDURB": {size: 1}, "LDURH": {size: 2},
	"LDRSB": {size: 1, signed: true}, "LDRSH": {size: 2, signed: true}, "LDRSW": {size: 4, signed: true},
	"LDURSB": {size: 1, signed: true}, "LDURSH": {size: 2, signed: true}, "LDURSW": {size: 4, signed: true},
	"LDAR": {tags: []string{"A"}}, "LDARB": {size: 1, tags: []string{"A"}}, "LDARH": {size: 2, tags: []string{"A"}},
	"LDAPR": {tags: []string{"Q"}}, "LDAPRB": {size: 1, tags: []string{"Q"}}, "LDAPRH": {size: 2, tags: []string{"Q"}},
	"LDAPUR": {tags: []string{"Q"}},
	"LDXR":   {tags: []string{"X"}}, "LDXRB": {size: 1, tags: []string{"X"}}, "LDXRH": {size: 2, tags: []string{"X"}},
	"LDAXR": {tags: []string{"A", "X"}}, "LDAXRB": {size: 1, tags: []string{"A", "X"}}, "LDAXRH": {size: 2, tags: []string{"A", "X"}},
	"LDP": {pair: true}, "LDNP": {pair: true}, "LDPSW": {size: 4, signed: true, pair: true},
	"LDIAPP": {pair: true, tags: []string{"Q"}},
	"LDXP":   {pair: true, tags: []string{"X"}}, "LDAXP": {pair: true, tags: []string{"A", "X"}},
}

var storeForms = map[string]access{
	"STR": {}, "STUR": {}, "STRB": {size: 1}, "STRH": {size: 2}, "STURB": {size: 1}, "STURH": {size: 2},
	"STLR": {tags: []string{"L"}}, "STLRB": {size: 1, tags: []string{"L"}}, "STLRH": {size: 2, tags: []string{"L"}},
	"STLUR": {tags: []string{"L"}},
	"STXR":  {tags: []string{"X"}, exclStr: true}, "STXRB": {size: 1, tags: []string{"X"}, exclStr: true}, "STXRH": {size: 2, tags: []string{"X"}, exclStr: true},
	"STLXR": {tags: []string{"L", "X"}, exclStr: true}, "STLXRB": {size: 1, tags: []string{"L", "X"}, exclStr: true}, "STLXRH": {size: 2, tags: []string{"L", "X"}, exclStr: true},
	"STP": {pair: true}, "STNP": {pair: true}, "STILP": {pair: true, tags: []string{"L"}},
	"STXP": {pair: true, tags: []string{"X"}, exclStr: true}, "STLXP": {pair: true, tags: []string{"L", "X"}, exclStr: true},
}

// The LD<op> read-modify-write operations.
var atomicOps = []string{"ADD", "CLR", "EOR", "SET", "SMAX", "SMIN", "UMAX", "UMIN"}

// memory translates loads, stores and atomics; the first result says
// whether the mnemonic is one of them.
func (b *builder) memory(in *parser.Instr) (bool, error) {
	m := in.Mnem
	if a, ok := loadForms[m]; ok {
		return true, b.load(in, a)
	}
	if a, ok := storeForms[m]; ok {
		return true, b.store(in, a)
	}
	// Atomics: BASE{A,L,AL}{B,H}.
	base, acq, rel, size, ok := splitAtomic(m)
	if !ok {
		return false, nil
	}
	switch {
	case base == "CASP":
		return true, b.casPair(in, acq, rel, size)
	case base == "CAS":
		return true, b.cas(in, acq, rel, size)
	case base == "SWP":
		return true, b.swp(in, acq, rel, size)
	case strings.HasPrefix(base, "LD"):
		return true, b.ldop(in, base[2:], acq, rel, size, false)
	case strings.HasPrefix(base, "ST"):
		if acq {
			return false, nil
		}
		return true, b.ldop(in, base[2:], false, rel, size, true)
	}
	return false, nil
}

// splitAtomic recognises CAS/SWP/LD<op>/ST<op> with their ordering and size
// suffixes.
func splitAtomic(m string) (base string, acq, rel bool, size int, ok bool) {
	for _, b := range append([]string{"CASP", "CAS", "SWP"}, prefixed(atomicOps)...) {
		if !strings.HasPrefix(m, b) {
			continue
		}
		rest := m[len(b):]
		switch {
		case strings.HasSuffix(rest, "B"):
			size, rest = 1, rest[:len(rest)-1]
		case strings.HasSuffix(rest, "H"):
			size, rest = 2, rest[:len(rest)-1]
		}
		switch rest {
		case "":
		case "A":
			acq = true
		case "L":
			rel = true
		case "AL":
			acq, rel = true, true
		default:
			continue
		}
		return b, acq, rel, size, true
	}
	return "", false, false, 0, false
}

func prefixed(ops []string) []string {
	var out []string
	for _, o := range ops {
		out = append(out, "LD"+o, "ST"+o)
	}
	return out
}

// address evaluates a memory operand [Xn{, #imm | Xm{, ext/shift}}]{!} and
// an optional post-index immediate. It returns the address to access and
// the register update to do afterwards (nil for none).
func (b *builder) address(ops []parser.Operand) (xcfa.Expr, func(), error) {
	if len(ops) == 0 || ops[0].Kind != parser.MemOp {
		if len(ops) > 0 {
			return nil, nil, b.errorf(ops[0].Pos, "expected a memory operand [Xn...], found %q", ops[0].Text)
		}
		return nil, nil, b.errorf(b.pos, "expected a memory operand [Xn...]")
	}
	mem := ops[0]
	if len(mem.Sub) == 0 {
		return nil, nil, b.errorf(mem.Pos, "empty memory operand")
	}
	base, err := b.reg(mem.Sub[0])
	if err != nil {
		return nil, nil, err
	}
	if base.w32 || base.zero {
		return nil, nil, b.errorf(mem.Sub[0].Pos, "the base register must be an X register or SP")
	}
	addr := base.raw()
	var offset xcfa.Expr
	if len(mem.Sub) > 1 {
		if len(mem.Sub) == 2 && mem.Sub[1].Kind == parser.ImmOp {
			if mem.Sub[1].Imm != 0 {
				offset = cnst(mem.Sub[1].Imm)
			}
		} else {
			e, err := b.op2(mem.Sub[1:], 64)
			if err != nil {
				return nil, nil, err
			}
			offset = e
		}
	}
	if offset != nil {
		addr = bin(xcfa.Add, addr, offset)
	}
	var post func()
	switch {
	case mem.Writeback:
		if len(ops) > 1 {
			return nil, nil, b.errorf(ops[1].Pos, "unexpected operand after a pre-indexed address")
		}
		if offset == nil {
			return nil, nil, b.errorf(mem.Pos, "pre-indexed address without an offset")
		}
		newBase := addr
		post = func() { b.emit(xcfa.Assign{Dst: base.name, Value: newBase}) }
	case len(ops) == 2:
		inc, err := b.imm(ops[1])
		if err != nil {
			return nil, nil, err
		}
		if offset != nil {
			return nil, nil, b.errorf(ops[1].Pos, "post-index with an offset address")
		}
		post = func() { b.emit(xcfa.Assign{Dst: base.name, Value: bin(xcfa.Add, base.raw(), cnst(inc))}) }
	case len(ops) > 2:
		return nil, nil, b.errorf(ops[2].Pos, "unexpected operand %q", ops[2].Text)
	}
	return addr, post, nil
}

func regSize(r reg) int {
	if r.w32 {
		return 4
	}
	return 8
}

func tagsOf(t []string) []string {
	if len(t) == 0 {
		return nil
	}
	return append([]string(nil), t...)
}

// unsupportedPair refuses the pair forms whose semantics purr lacks, on
// which its answers were herd7's only by chance: exclusive pairs (herd7's
// single-copy atomicity of LDXP/STXP pairs; herd's regression tests L031
// and L032 differ) and the FEAT_LRCPC3 ordered pairs with writeback,
// whose two accesses are ordered by the writeback's direction (L083).
func (b *builder) unsupportedPair(in *parser.Instr, a access, writeback bool) error {
	if !a.pair {
		return nil
	}
	if slices.Contains(a.tags, "X") {
		return b.unsupported(in.Pos, "exclusive pair %s: purr has no semantics for exclusive pairs yet", in.Mnem)
	}
	if writeback && (in.Mnem == "STILP" || in.Mnem == "LDIAPP") {
		return b.unsupported(in.Pos, "writeback in %s: purr has no semantics for the order of its accesses yet", in.Mnem)
	}
	return nil
}

func (b *builder) load(in *parser.Instr, a access) error {
	nregs := 1
	if a.pair {
		nregs = 2
	}
	if len(in.Ops) < nregs+1 {
		return b.errorf(in.Pos, "%s takes %d registers and an address", in.Mnem, nregs)
	}
	rs, err := b.regs(in.Ops[:nregs])
	if err != nil {
		return err
	}
	addr, post, err := b.address(in.Ops[nregs:])
	if err != nil {
		return err
	}
	if err := b.unsupportedPair(in, a, post != nil); err != nil {
		return err
	}
	size := a.size
	if size == 0 {
		size = regSize(rs[0])
	}
	if a.pair && rs[0] == rs[1] && !rs[0].zero {
		return b.errorf(in.Pos, "%s loads twice into %s", in.Mnem, in.Ops[0].Text)
	}
	// A load into a register the address reads would change the address
	// of the second access: read the address into a temporary first.
	if a.pair && xcfa.Reads(addr, rs[0].name) {
		t := b.tmp()
		b.emit(xcfa.Assign{Dst: t, Value: addr})
		addr = xcfa.Reg{Name: t}
	}
	for i, r := range rs {
		at := addr
		if i > 0 {
			at = bin(xcfa.Add, addr, cnst(int64(size)))
		}
		dst := r.name
		if r.zero {
			dst = ""
		}
		b.emit(xcfa.Load{Dst: dst, Addr: at, Size: size, Tags: tagsOf(a.tags)})
		if a.signed && !r.zero {
			b.assign(r, signExtend(xcfa.Reg{Name: r.name}, size*8))
		}
	}
	if post != nil {
		post()
	}
	return nil
}

func (b *builder) store(in *parser.Instr, a access) error {
	nregs := 1
	if a.pair {
		nregs = 2
	}
	first := 0
	var status reg
	if a.exclStr {
		if len(in.Ops) < 3 {
			return b.errorf(in.Pos, "%s takes a status register, a register and an address", in.Mnem)
		}
		s, err := b.reg(in.Ops[0])
		if err != nil {
			return err
		}
		status, first = s, 1
	}
	if len(in.Ops) < first+nregs+1 {
		return b.errorf(in.Pos, "%s takes %d registers and an address", in.Mnem, first+nregs)
	}
	rs, err := b.regs(in.Ops[first : first+nregs])
	if err != nil {
		return err
	}
	addr, post, err := b.address(in.Ops[first+nregs:])
	if err != nil {
		return err
	}
	if err := b.unsupportedPair(in, a, post != nil); err != nil {
		return err
	}
	size := a.size
	if size == 0 {
		size = regSize(rs[0])
	}
	if !a.exclStr {
		for i, r := range rs {
			at := addr
			if i > 0 {
				at = bin(xcfa.Add, addr, cnst(int64(size)))
			}
			b.emit(xcfa.Store{Addr: at, Value: r.raw(), Size: size, Tags: tagsOf(a.tags)})
		}
		if post != nil {
			post()
		}
		return nil
	}
	if post != nil {
		return b.unsupported(in.Pos, "writeback addressing in %s", in.Mnem)
	}
	// A store-exclusive may fail: a nondeterministic choice between the
	// store (both stores of STXP) followed by status 0 and no store with
	// status 1.
	from := b.cur
	locs := []*xcfa.Location{from}
	for range rs {
		locs = append(locs, b.p.NewLoc(""))
	}
	join := b.p.NewLoc("")
	for i, r := range rs {
		at := addr
		if i > 0 {
			at = bin(xcfa.Add, addr, cnst(int64(size)))
		}
		b.p.AddEdge(locs[i], locs[i+1], xcfa.Store{Addr: at, Value: r.raw(), Size: size, Tags: tagsOf(a.tags)}, b.pos, b.instr)
	}
	b.p.AddEdge(locs[len(rs)], join, statusAssign(status, 0), b.pos, b.instr)
	b.p.AddEdge(from, join, statusAssign(status, 1), b.pos, b.instr)
	b.cur = join
	return nil
}

func statusAssign(s reg, v int64) xcfa.Op {
	if s.zero {
		return xcfa.Nop{}
	}
	return xcfa.Assign{Dst: s.name, Value: cnst(v)}
}

// rmwRegs parses "Rs, Rt, [Xn]" of SWP/LD<op>/CAS, or "Rs, [Xn]" of ST<op>.
func (b *builder) rmwRegs(in *parser.Instr, noDst bool) (rs, rt reg, addr xcfa.Expr, err error) {
	want := 3
	if noDst {
		want = 2
	}
	if len(in.Ops) != want {
		return rs, rt, nil, b.errorf(in.Pos, "%s takes %d operands", in.Mnem, want)
	}
	if rs, err = b.reg(in.Ops[0]); err != nil {
		return
	}
	if noDst {
		rt, _ = parseReg(zeroLike(in.Ops[0]).Name)
	} else if rt, err = b.reg(in.Ops[1]); err != nil {
		return
	}
	var post func()
	addr, post, err = b.address(in.Ops[want-1:])
	if err == nil && post != nil {
		err = b.errorf(in.Ops[want-1].Pos, "%s takes a plain address [Xn]", in.Mnem)
	}
	return
}

// loadTags are the tags of the read half of an atomic: A for the acquire
// forms, except when the result goes to the zero register (herd then
// marks the read NoRet and does not give it acquire semantics).
func loadTags(acq bool, dst reg) []string {
	if dst.zero {
		return []string{"NoRet"}
	}
	if acq {
		return []string{"A"}
	}
	return nil
}

func storeTags(rel bool) []string {
	if rel {
		return []string{"L"}
	}
	return nil
}

func dataSize(size int, r reg) int {
	if size == 0 {
		return regSize(r)
	}
	return size
}

// snapshot copies an expression into a temporary when the load of an
// atomic is about to overwrite a register it reads.
func (b *builder) snapshot(e xcfa.Expr, overwritten reg) xcfa.Expr {
	if overwritten.zero || !xcfa.Reads(e, overwritten.name) {
		return e
	}
	t := b.tmp()
	b.emit(xcfa.Assign{Dst: t, Value: e})
	return xcfa.Reg{Name: t}
}

// loadDst is where the read half of an atomic puts the old value: the
// destination register, or a temporary when it is the zero register.
func (b *builder) loadDst(rt reg) string {
	if rt.zero {
		return b.tmp()
	}
	return rt.name
}

func (b *builder) swp(in *parser.Instr, acq, rel bool, size int) error {
	rs, rt, addr, err := b.rmwRegs(in, false)
	if err != nil {
		return err
	}
	size = dataSize(size, rs)
	val := b.snapshot(rs.raw(), rt)
	addr = b.snapshot(addr, rt)
	id := b.freshRMW()
	dst := rt.name
	if rt.zero {
		dst = ""
	}
	b.emit(xcfa.Load{Dst: dst, Addr: addr, Size: size, Tags: loadTags(acq, rt), RMW: id})
	b.emit(xcfa.Store{Addr: addr, Value: val, Size: size, Tags: storeTags(rel), RMW: id})
	return nil
}

func (b *builder) ldop(in *parser.Instr, op string, acq, rel bool, size int, noDst bool) error {
	rs, rt, addr, err := b.rmwRegs(in, noDst)
	if err != nil {
		return err
	}
	size = dataSize(size, rs)
	val := b.snapshot(rs.raw(), rt)
	addr = b.snapshot(addr, rt)
	id := b.freshRMW()
	dst := b.loadDst(rt)
	b.emit(xcfa.Load{Dst: dst, Addr: addr, Size: size, Tags: loadTags(acq, rt), RMW: id})
	old := xcfa.Expr(xcfa.Reg{Name: dst})
	width := size * 8
	var nv xcfa.Expr
	switch op {
	case "ADD":
		nv = bin(xcfa.Add, old, val)
	case "CLR":
		nv = bin(xcfa.And, old, xcfa.Unary{Op: xcfa.BNot, X: val})
	case "EOR":
		nv = bin(xcfa.Xor, old, val)
	case "SET":
		nv = bin(xcfa.Or, old, val)
	case "SMAX", "SMIN":
		so, sv := signExtend(old, width), signExtend(val, width)
		cmp := xcfa.Gt
		if op == "SMIN" {
			cmp = xcfa.Lt
		}
		nv = xcfa.Ite{Cond: bin(cmp, so, sv), X: old, Y: val}
	case "UMAX", "UMIN":
		uo, uv := truncate(old, width), truncate(val, width)
		cmp := xcfa.Ugt
		if op == "UMIN" {
			cmp = xcfa.Ult
		}
		nv = xcfa.Ite{Cond: bin(cmp, uo, uv), X: old, Y: val}
	}
	b.emit(xcfa.Store{Addr: addr, Value: nv, Size: size, Tags: storeTags(rel), RMW: id})
	return nil
}

// cas translates CAS Rs, Rt, [Xn] as herd7 does: the old value is read
// and compared with Rs's value before the read; on success Rt is written.
// herd builds each outcome twice, with different dependencies inside the
// instruction, and counts both copies: see casOutcomes.
func (b *builder) cas(in *parser.Instr, acq, rel bool, size int) error {
	rs, rt, addr, err := b.rmwRegs(in, false)
	if err != nil {
		return err
	}
	size = dataSize(size, rs)
	width := size * 8
	expected := rs.raw()
	if !rs.zero {
		t := b.tmp()
		b.emit(xcfa.Assign{Dst: t, Value: expected})
		expected = xcfa.Reg{Name: t}
	}
	val := rt.raw()
	if rt == rs && !rs.zero {
		val = expected
	}
	addr = b.snapshot(addr, rs)
	b.casOutcomes(casShape{
		addrs:    []xcfa.Expr{addr},
		expected: []xcfa.Expr{truncate(expected, width)},
		vals:     []xcfa.Expr{val},
		dsts:     []reg{rs},
		size:     size,
		acq:      acq,
		rel:      rel,
	})
	return nil
}

// casShape is a CAS or CASP: one or two reads, compared with expected
// values, and on success one or two writes.
type casShape struct {
	addrs, expected, vals []xcfa.Expr
	dsts                  []reg // the registers that receive the old values
	size                  int
	acq, rel              bool
}

// casOutcomes emits herd7's four outcomes of a CAS as a nondeterministic
// choice, each with its own read events:
//   - failure, twice (herd's two copies differ only in a control edge
//     between registers, which has no effect on memory events): the read
//     values differ from the expected ones, no write; the registers get
//     the values read;
//   - success with the registers' new values taken from the registers'
//     old values (herd's DataFromRRs: no dependency on the read);
//   - success with the new values taken from the read (DataFromRx).
//
// The comparisons are Internal assumptions: they are not program branches.
func (b *builder) casOutcomes(c casShape) {
	from := b.cur
	join := b.p.NewLoc("")
	for outcome := 0; outcome < 4; outcome++ {
		success := outcome >= 2
		b.cur = b.p.NewLoc("")
		first := true
		var olds []string
		var ids []int
		var eq xcfa.Expr
		for i, a := range c.addrs {
			old := b.tmp()
			olds = append(olds, old)
			id := 0
			if success {
				id = b.freshRMW()
			}
			ids = append(ids, id)
			ld := xcfa.Load{Dst: old, Addr: a, Size: c.size, Tags: loadTags(c.acq, c.dsts[i]), RMW: id}
			if first {
				// The first read leaves the choice point itself.
				b.p.AddEdge(from, b.cur, ld, b.pos, b.instr)
				first = false
			} else {
				b.emit(ld)
			}
			cmp := bin(xcfa.Eq, xcfa.Reg{Name: old}, c.expected[i])
			if eq == nil {
				eq = cmp
			} else {
				eq = bin(xcfa.LAnd, eq, cmp)
			}
		}
		if success {
			b.emit(xcfa.Assume{Cond: eq, Internal: true, Commit: true})
			for i, a := range c.addrs {
				// The value is Rt's; the comparison (the value read and Rs)
				// only decides that the write happens: a pick dependency.
				v := xcfa.Pick{Cond: eq, X: c.vals[i]}
				b.emit(xcfa.Store{Addr: a, Value: v, Size: c.size, Tags: storeTags(c.rel), RMW: ids[i]})
			}
		} else {
			b.emit(xcfa.Assume{Cond: negate(eq), Internal: true})
		}
		for i, dst := range c.dsts {
			if dst.zero {
				continue
			}
			var v xcfa.Expr = xcfa.Reg{Name: olds[i]}
			if outcome == 2 {
				// Equal to the value read, but computed from the old register;
				// the read only decides (herd's DataFromRRs).
				v = xcfa.Pick{Cond: xcfa.Reg{Name: olds[i]}, X: c.expected[i]}
			}
			b.emit(xcfa.Assign{Dst: dst.name, Value: v}) // reads zero-extend already
		}
		b.p.AddEdge(b.cur, join, xcfa.Nop{}, b.pos, b.instr)
	}
	b.cur = join
}

// casPair translates CASP Rs, Rs+1, Rt, Rt+1, [Xn]: two reads at addr and
// addr+size compared with the two registers; if both are equal, two
// writes of Rt and Rt+1. Each read/write pair has its own RMW id.
func (b *builder) casPair(in *parser.Instr, acq, rel bool, size int) error {
	if size != 0 {
		return b.unsupported(in.Pos, "instruction %s", in.Mnem)
	}
	if len(in.Ops) != 5 {
		return b.errorf(in.Pos, "%s takes 5 operands", in.Mnem)
	}
	rs, err := b.regs(in.Ops[:4])
	if err != nil {
		return err
	}
	addr, post, err := b.address(in.Ops[4:])
	if err != nil {
		return err
	}
	if post != nil {
		return b.errorf(in.Ops[4].Pos, "%s takes a plain address [Xn]", in.Mnem)
	}
	size = regSize(rs[0])
	var expected, vals [2]xcfa.Expr
	for i := 0; i < 2; i++ {
		expected[i] = rs[i].raw()
		if !rs[i].zero {
			t := b.tmp()
			b.emit(xcfa.Assign{Dst: t, Value: expected[i]})
			expected[i] = xcfa.Reg{Name: t}
		}
		vals[i] = rs[2+i].raw()
		if !rs[2+i].zero {
			t := b.tmp()
			b.emit(xcfa.Assign{Dst: t, Value: vals[i]})
			vals[i] = xcfa.Reg{Name: t}
		}
	}
	if !rs[0].zero || !rs[1].zero {
		t := b.tmp()
		b.emit(xcfa.Assign{Dst: t, Value: addr})
		addr = xcfa.Reg{Name: t}
	}
	b.casOutcomes(casShape{
		addrs:    []xcfa.Expr{addr, bin(xcfa.Add, addr, cnst(int64(size)))},
		expected: []xcfa.Expr{truncate(expected[0], size*8), truncate(expected[1], size*8)},
		vals:     vals[:],
		dsts:     []reg{rs[0], rs[1]},
		size:     size,
		acq:      acq,
		rel:      rel,
	})
	return nil
}
