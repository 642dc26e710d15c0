package arm

import (
	"strings"

	"github.com/purr-mcm/purr/litmus/arm/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// class is the shape of an instruction, as herd7's ARMBase tells them
// apart.
type class int

const (
	opImm      class = iota // ADD rd,rn,#k; SUB; AND
	opReg                   // ADD rd,rn,rm; SUB; EOR
	move                    // MOV rd,rm
	moveImm                 // MOV rd,#k
	compare                 // CMP rn,rm
	compareImm              // CMP rn,#k
	jump                    // B L
	branchZ                 // BEQ L, BNE L: on the Z flag
	branchReg               // CBZ rn,L, CBNZ rn,L
	load                    // LDR rt,[rn] and LDR rt,[rn,rm]
	store                   // STR rt,[rn] and STR rt,[rn,rm]
	loadEx                  // LDREX rt,[rn]
	storeEx                 // STREX rd,rt,[rn]
	barrier                 // DMB, DSB (with an option), ISB
)

// cond is an instruction's execution condition: always, or on the Z flag.
type cond int

const (
	always cond = iota
	ifEQ
	ifNE
)

func (c cond) suffix() string { return [...]string{"", "EQ", "NE"}[c] }

// insn is one decoded instruction.
type insn struct {
	class    class
	name     string // herd7's printed mnemonic, condition and S aside: ADD, LDR, DMB
	op       xcfa.BinOp
	setFlags bool // ADDS, SUBS, ANDS: Z is set to whether the result is 0
	cond     cond
	rd       reg // destination; STREX's status
	rn, rm   reg // sources; rn is a memory access's base, rm its index
	indexed  bool
	rt       reg // the register a load writes or a store stores
	imm      int64
	label    string
	labelPos source.Pos
	option   string // a barrier's option as herd7 prints it: "" (SY), "ST", "ISH", ...
}

// The arithmetic herd7 reads: with an immediate (ADD, SUB, AND and their S
// forms) or registers (ADD, SUB, EOR).
var (
	immOps = map[string]xcfa.BinOp{"ADD": xcfa.Add, "SUB": xcfa.Sub, "AND": xcfa.And}
	regOps = map[string]xcfa.BinOp{"ADD": xcfa.Add, "SUB": xcfa.Sub, "EOR": xcfa.Xor}
	// barrierOptions are the options of DMB and DSB herd7 reads.
	barrierOptions = map[string]bool{"SY": true, "ST": true, "ISH": true, "ISHST": true,
		"NSH": true, "NSHST": true, "OSH": true, "OSHST": true}
	// narrow are the byte and halfword accesses: mixed sizes, which purr
	// does not model.
	narrow = map[string]string{"LDRB": "byte", "LDRSB": "byte", "STRB": "byte", "LDREXB": "byte", "STREXB": "byte",
		"LDRH": "halfword", "LDRSH": "halfword", "STRH": "halfword", "LDREXH": "halfword", "STREXH": "halfword"}
	// unsupported are instructions of later herd7 versions' ARM that purr
	// does not read.
	unsupported = map[string]bool{"LDA": true, "STL": true, "LDAEX": true, "STLEX": true, "PUSH": true,
		"POP": true, "LDM": true, "LDMIB": true, "LDRD": true, "MOVW": true, "MOVT": true, "BX": true,
		"ORR": true, "ANDEQ": true, "SADD16": true, "SEL": true, "EORS": true, "XORS": true, "NOP": true}
)

// mnemonic is the instruction's mnemonic in upper case: herd7 reads each
// in upper or in lower case, not mixed.
func mnemonic(m string) (string, bool) {
	up := strings.ToUpper(m)
	return up, m == up || m == strings.ToLower(m)
}

// decode gives an instruction its meaning, or refuses it at its position.
func decode(in *parser.Instr) (*insn, error) {
	m, ok := mnemonic(in.Mnem)
	if !ok {
		return nil, source.Errorf(in.Pos, "unsupported instruction %s: herd7 reads ARM mnemonics in upper or lower case", in.Text)
	}
	if m == "XOR" {
		m = "EOR" // herd7 reads XOR as EOR
	}
	d := &insn{name: m}
	switch d.name {
	case "B":
		d.class = jump
		return d, d.operands(in, "l")
	case "BEQ", "BNE":
		d.class, d.name, d.cond = branchZ, "B", map[string]cond{"BEQ": ifEQ, "BNE": ifNE}[d.name]
		return d, d.operands(in, "l")
	case "CBZ", "CBNZ":
		d.class, d.op = branchReg, map[string]xcfa.BinOp{"CBZ": xcfa.Eq, "CBNZ": xcfa.Ne}[d.name]
		return d, d.operands(in, "rl", &d.rn)
	case "CMP":
		if len(in.Ops) == 2 && in.Ops[1].Kind == parser.ImmOp {
			d.class = compareImm
			return d, d.operands(in, "rk", &d.rn, &d.imm)
		}
		d.class = compare
		return d, d.operands(in, "rr", &d.rn, &d.rm)
	case "LDREX":
		d.class = loadEx
		return d, d.operands(in, "rm", &d.rt, &d.rn)
	case "STREX":
		d.class = storeEx
		return d, d.operands(in, "rr[", &d.rd, &d.rt, &d.rn)
	case "DMB", "DSB", "ISB":
		return d, d.decodeBarrier(in)
	}
	base, c := d.name, always
	for _, s := range []struct {
		suffix string
		c      cond
	}{{"EQ", ifEQ}, {"NE", ifNE}} {
		if b, ok := strings.CutSuffix(d.name, s.suffix); ok && (b == "LDR" || b == "STR" || b == "MOV") {
			base, c = b, s.c
		}
	}
	d.name, d.cond = base, c
	switch base {
	case "LDR", "STR":
		d.class = map[string]class{"LDR": load, "STR": store}[base]
		return d, d.operands(in, "rm", &d.rt, &d.rn)
	case "MOV":
		if len(in.Ops) == 2 && in.Ops[1].Kind == parser.ImmOp {
			d.class = moveImm
			return d, d.operands(in, "rk", &d.rd, &d.imm)
		}
		d.class = move
		return d, d.operands(in, "rr", &d.rd, &d.rm)
	}
	if width, ok := narrow[m]; ok {
		return nil, source.Errorf(in.Pos, "mixed-size accesses: %s is a %s access; purr does not support mixed-size accesses yet", in.Text, width)
	}
	if unsupported[m] {
		return nil, source.Errorf(in.Pos, "unsupported instruction %s: purr does not read %s", in.Text, m)
	}
	// ADDS, SUBS and ANDS set the flag (EORS is refused above).
	name, s := m, false
	if _, ok := immOps[m]; !ok && strings.HasSuffix(m, "S") {
		name, s = strings.TrimSuffix(m, "S"), true
	}
	d.name, d.setFlags = name, s
	if len(in.Ops) == 3 && in.Ops[2].Kind == parser.ImmOp {
		if op, ok := immOps[name]; ok {
			d.class, d.op = opImm, op
			return d, d.operands(in, "rrk", &d.rd, &d.rn, &d.imm)
		}
	} else if op, ok := regOps[name]; ok {
		d.class, d.op = opReg, op
		return d, d.operands(in, "rrr", &d.rd, &d.rn, &d.rm)
	}
	if _, ok := immOps[name]; ok {
		return nil, source.Errorf(in.Pos, "unsupported instruction %s: herd7 reads %s with registers rd,rn and an immediate #k", in.Text, m)
	}
	return nil, source.Errorf(in.Pos, "unsupported instruction %s", in.Text)
}

// decodeBarrier reads DMB and DSB with an option (SY when none), and ISB.
func (d *insn) decodeBarrier(in *parser.Instr) error {
	d.class = barrier
	if d.name == "ISB" {
		return d.operands(in, "")
	}
	switch len(in.Ops) {
	case 0:
		return nil
	case 1:
		o := in.Ops[0]
		opt, ok := mnemonic(o.Name)
		if o.Kind != parser.NameOp || !ok || !barrierOptions[opt] {
			return source.Errorf(o.Pos, "expected a barrier option (SY, ST, ISH, ISHST, NSH, NSHST, OSH, OSHST), found %s", o.Text)
		}
		if opt != "SY" {
			d.option = opt
		}
		return nil
	}
	return source.Errorf(in.Pos, "%s takes at most one option", d.name)
}

// tag is the Cat set of a barrier, as herd7's ARM names them
// (ARMArch_herd.barrier_sets): DMB, DMB.ISH, DSB, DMB.ST, DSB.ST and ISB.
// The other barriers (DSB ISH, DMB NSH, ...) are in no set of herd7's but
// F.
func (d *insn) tag() string {
	switch {
	case d.name == "ISB":
		return "ISB"
	case d.option == "":
		return d.name
	case d.option == "ST" || (d.name == "DMB" && d.option == "ISH"):
		return d.name + "." + d.option
	}
	return ""
}

// operands reads in's operands by shape: r a register, k an immediate, l a
// label, m a memory operand [rn], [rn,rm] or a bare rn (its base, and its
// index in d.rm), [ a memory operand [rn] alone.
func (d *insn) operands(in *parser.Instr, shape string, dst ...any) error {
	if len(in.Ops) != len(shape) {
		return source.Errorf(in.Pos, "%s takes %d operands, found %d", in.Mnem, len(shape), len(in.Ops))
	}
	for i, o := range in.Ops {
		switch shape[i] {
		case 'r':
			r, err := register(o)
			if err != nil {
				return err
			}
			*dst[0].(*reg) = r
			dst = dst[1:]
		case 'k':
			if o.Kind != parser.ImmOp {
				return source.Errorf(o.Pos, "expected an immediate #k, found %s", o.Text)
			}
			*dst[0].(*int64) = o.Imm
			dst = dst[1:]
		case 'l':
			if o.Kind != parser.NameOp {
				return source.Errorf(o.Pos, "expected a label, found %s", o.Text)
			}
			if _, ok := regNumber(o.Name); ok {
				return source.Errorf(o.Pos, "expected a label, found the register %s", o.Text)
			}
			d.label, d.labelPos = o.Name, o.Pos
		case 'm', '[':
			if o.Kind == parser.NameOp && shape[i] == 'm' {
				// herd7 reads LDR rt,rn as LDR rt,[rn].
				r, err := register(o)
				if err != nil {
					return err
				}
				*dst[0].(*reg) = r
				dst = dst[1:]
				continue
			}
			if o.Kind != parser.MemOp {
				return source.Errorf(o.Pos, "expected a memory operand [reg], found %s", o.Text)
			}
			if o.HasImm {
				return source.Errorf(o.Pos, "unsupported address %s: purr reads no immediate offset in ARM addresses, only [reg] and [reg,reg]", o.Text)
			}
			r, err := register(regOperand(o.Name, o.Pos))
			if err != nil {
				return err
			}
			*dst[0].(*reg) = r
			dst = dst[1:]
			if o.Index != "" {
				if shape[i] == '[' {
					return source.Errorf(o.Pos, "%s takes a memory operand [reg] without index, found %s", in.Mnem, o.Text)
				}
				if d.rm, err = register(regOperand(o.Index, o.IndexPos)); err != nil {
					return err
				}
				d.indexed = true
			}
		}
	}
	return nil
}

// regOperand is the register of a memory operand as an operand of its own.
func regOperand(name string, pos source.Pos) parser.Operand {
	kind := parser.NameOp
	if strings.HasPrefix(name, "%") {
		kind = parser.SymRegOp
	}
	return parser.Operand{Kind: kind, Name: name, Pos: pos, Text: name}
}

// register reads a register operand: R0 ... R12, SP, LR or PC, as herd7
// reads them, or a symbolic register %name.
func register(o parser.Operand) (reg, error) {
	if o.Kind == parser.NameOp {
		if n, ok := regNumber(o.Name); ok {
			return reg{n: n, pos: o.Pos}, nil
		}
	}
	if o.Kind == parser.SymRegOp {
		return reg{sym: o.Name, pos: o.Pos}, nil
	}
	return reg{}, source.Errorf(o.Pos, "expected a register R0 ... R12, SP, LR or PC, found %s", o.Text)
}
