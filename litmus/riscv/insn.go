package riscv

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/riscv/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// class is the shape of an instruction, as herd7's RISCVBase tells them
// apart.
type class int

const (
	opImm     class = iota // addi rd,rs1,k (li rd,k is ori rd,x0,k)
	opReg                  // add rd,rs1,rs2
	jump                   // j L
	branch                 // beq rs1,rs2,L
	load                   // lw rd,k(rs1)
	store                  // sw rs2,k(rs1)
	loadRes                // lr.w rd,0(rs1)
	storeCond              // sc.w rd,rs2,0(rs1)
	amo                    // amoswap.w rd,rs2,(rs1)
	fence                  // fence r,rw; fence.tso; fence.i
)

// order is an access's memory-order annotation (herd7's mo).
type order int

const (
	rlx order = iota
	acq
	rel
	acqRel
)

// tag is the annotation's Cat set (herd7's annot_sets), "" for none.
func (o order) tag() string {
	return [...]string{"", "Acq", "Rel", "AcqRel"}[o]
}

// suffix is the annotation as herd7 7.57 prints it, .aq.rl as .aqrl.
func (o order) suffix() string {
	return [...]string{"", ".aq", ".rl", ".aqrl"}[o]
}

// insn is one decoded instruction.
type insn struct {
	class    class
	name     string // herd7's printed mnemonic, width and order aside: addi, amoswap, beq, lw
	op       xcfa.BinOp
	width    string // loads, stores, LR/SC, AMOs: "w" or "d"
	unsigned bool   // lwu
	mo       order
	rd       reg // destination (opImm, opReg, load, loadRes, storeCond's status, amo)
	rs1, rs2 reg // sources; rs1 is the base of a memory access
	imm      int64
	label    string
	labelPos source.Pos
	barrier  string // fence: herd7's printing ("fence r,rw") ...
	fenceTag string // ... and its Cat set ("Fence.r.rw")
}

// reg is a register operand: its number, x0 to x31.
type reg struct {
	n   int
	pos source.Pos
}

func (r reg) zero() bool { return r.n == 0 }

// name is the XCFA's name of the register, and herd7's printing: xN.
func (r reg) name() string { return "x" + strconv.Itoa(r.n) }

// The instructions herd7 7.57 reads and gives semantics to (RISCVLexer,
// RISCVSem); the others it reads are refused with herd7's reason.
var (
	immOps = map[string]xcfa.BinOp{"addi": xcfa.Add, "slti": xcfa.Lt, "andi": xcfa.And, "ori": xcfa.Or,
		"xori": xcfa.Xor, "slli": xcfa.Shl, "addiw": xcfa.Add, "slliw": xcfa.Shl}
	regOps = map[string]xcfa.BinOp{"add": xcfa.Add, "slt": xcfa.Lt, "and": xcfa.And, "or": xcfa.Or,
		"xor": xcfa.Xor, "sll": xcfa.Shl, "sub": xcfa.Sub, "addw": xcfa.Add, "sllw": xcfa.Shl, "subw": xcfa.Sub}
	conds = map[string]xcfa.BinOp{"beq": xcfa.Eq, "bne": xcfa.Ne, "blt": xcfa.Lt, "bge": xcfa.Ge}
	// amoOps are the operations of the AMOs; amoswap's is the source.
	amoOps = map[string]xcfa.BinOp{"amoswap": 0, "amoadd": xcfa.Add, "amoand": xcfa.And, "amoor": xcfa.Or,
		"amoxor": xcfa.Xor, "amomax": xcfa.Gt, "amomin": xcfa.Lt}
	// unimplemented are the instructions herd7 reads and has no semantics
	// for ("RISCV operation ... is not implemented (yet)", or not handled).
	unimplemented = map[string]bool{"sltiu": true, "srli": true, "srai": true, "srliw": true, "sraiw": true,
		"sltu": true, "sra": true, "srl": true, "srlw": true, "sraw": true, "bltu": true, "bgeu": true,
		"amomaxu": true, "amominu": true}
	// narrow are the byte and halfword accesses: mixed sizes, which purr
	// does not model.
	narrow       = map[string]bool{"lb": true, "lh": true, "lbu": true, "lhu": true, "sb": true, "sh": true}
	accessFences = map[string]bool{"r": true, "w": true, "rw": true}
)

// splitOrder cuts the memory-order suffix off a mnemonic: .aq, .rl and
// both (.aq.rl or .aqrl).
func splitOrder(m string) (string, order) {
	for _, s := range []struct {
		suffix string
		mo     order
	}{{".aq.rl", acqRel}, {".aqrl", acqRel}, {".aq", acq}, {".rl", rel}} {
		if base, ok := strings.CutSuffix(m, s.suffix); ok {
			return base, s.mo
		}
	}
	return m, rlx
}

// decode gives an instruction its meaning, or refuses it at its position.
func decode(in *parser.Instr) (*insn, error) {
	m := in.Mnem
	d := &insn{name: m}
	base, mo := splitOrder(m)
	switch {
	case m == "li":
		d.class, d.name, d.op = opImm, "ori", xcfa.Or
		return d, d.operands(in, "rk", &d.rd, &d.imm)
	case immOps[m] != 0 || m == "addi" || m == "addiw":
		d.class, d.op = opImm, immOps[m]
		return d, d.operands(in, "rrk", &d.rd, &d.rs1, &d.imm)
	case regOps[m] != 0 || m == "add" || m == "addw":
		d.class, d.op = opReg, regOps[m]
		return d, d.operands(in, "rrr", &d.rd, &d.rs1, &d.rs2)
	case m == "j":
		d.class = jump
		return d, d.operands(in, "l")
	case conds[m] != 0:
		d.class, d.op = branch, conds[m]
		return d, d.operands(in, "rrl", &d.rs1, &d.rs2)
	case m == "fence" || m == "fence.tso" || m == "fence.i":
		return d, d.decodeFence(in)
	}
	switch op := strings.SplitN(base, ".", 2)[0]; {
	case unimplemented[op]:
		return nil, source.Errorf(in.Pos, "unsupported instruction %s: herd7 has no semantics for %s", in.Text, op)
	case narrow[op]:
		return nil, source.Errorf(in.Pos, "mixed-size accesses: %s is a %s access; purr does not support mixed-size accesses yet",
			in.Text, map[byte]string{'b': "byte", 'h': "halfword"}[op[1]])
	}
	d.mo = mo
	switch base {
	case "lw", "ld", "lwu":
		if mo == rel {
			break
		}
		d.class, d.name, d.width, d.unsigned = load, base, base[1:2], base == "lwu"
		return d, d.operands(in, "rm", &d.rd, &d.rs1, &d.imm)
	case "sw", "sd":
		if mo == acq || mo == acqRel {
			break
		}
		d.class, d.name, d.width = store, base, base[1:2]
		return d, d.operands(in, "rm", &d.rs2, &d.rs1, &d.imm)
	case "lr.w", "lr.d":
		d.class, d.name, d.width = loadRes, "lr", base[3:]
		return d, d.operands(in, "r0", &d.rd, &d.rs1)
	case "sc.w", "sc.d":
		d.class, d.name, d.width = storeCond, "sc", base[3:]
		return d, d.operands(in, "rr0", &d.rd, &d.rs2, &d.rs1)
	}
	if op, w, ok := strings.Cut(base, "."); ok && (w == "w" || w == "d") {
		if bin, ok := amoOps[op]; ok {
			d.class, d.name, d.width, d.op = amo, op, w, bin
			return d, d.operands(in, "rr0", &d.rd, &d.rs2, &d.rs1)
		}
	}
	return nil, source.Errorf(in.Pos, "unsupported instruction %s", in.Text)
}

// decodeFence reads fence (rw,rw), fence PRED,SUCC, fence.tso and fence.i.
func (d *insn) decodeFence(in *parser.Instr) error {
	d.class = fence
	switch {
	case in.Mnem != "fence":
		if len(in.Ops) > 0 {
			return source.Errorf(in.Ops[0].Pos, "%s takes no operands", in.Mnem)
		}
		d.barrier, d.fenceTag = in.Mnem, "Fence."+strings.TrimPrefix(in.Mnem, "fence.")
		return nil
	case len(in.Ops) == 0:
		d.barrier, d.fenceTag = "fence rw,rw", "Fence.rw.rw"
		return nil
	case len(in.Ops) != 2:
		return source.Errorf(in.Pos, "fence takes a predecessor and a successor set (fence rw,rw)")
	}
	for _, o := range in.Ops {
		if o.Kind != parser.NameOp || !accessFences[o.Name] {
			return source.Errorf(o.Pos, "expected r, w or rw, found %s (herd7 reads no other fence sets)", o.Text)
		}
	}
	d.barrier = "fence " + in.Ops[0].Name + "," + in.Ops[1].Name
	d.fenceTag = "Fence." + in.Ops[0].Name + "." + in.Ops[1].Name
	return nil
}

// operands reads in's operands by shape: r a register, k an immediate, l
// a label, m a memory operand k(r) or (r) (its register and offset), 0 a
// memory operand without offset, 0(r) or (r).
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
				return source.Errorf(o.Pos, "expected an immediate, found %s", o.Text)
			}
			*dst[0].(*int64) = o.Imm
			dst = dst[1:]
		case 'l':
			if o.Kind != parser.NameOp {
				return source.Errorf(o.Pos, "expected a label, found %s", o.Text)
			}
			d.label, d.labelPos = o.Name, o.Pos
		case 'm', '0':
			if o.Kind != parser.MemOp {
				return source.Errorf(o.Pos, "expected a memory operand k(reg), found %s", o.Text)
			}
			r, err := register(parser.Operand{Kind: parser.NameOp, Name: o.Name, Pos: o.Pos, Text: o.Name})
			if err != nil {
				return err
			}
			if shape[i] == '0' && o.Imm != 0 {
				return source.Errorf(o.Pos, "%s takes no offset: 0(%s) or (%s)", in.Mnem, o.Name, o.Name)
			}
			*dst[0].(*reg) = r
			dst = dst[1:]
			if shape[i] == 'm' {
				*dst[0].(*int64) = o.Imm
				dst = dst[1:]
			}
		}
	}
	return nil
}

// register reads a register operand: x0 ... x31 or its ABI name, as
// herd7 reads them.
func register(o parser.Operand) (reg, error) {
	if o.Kind == parser.NameOp {
		if n, ok := regNumber(o.Name); ok {
			return reg{n: n, pos: o.Pos}, nil
		}
	}
	if o.Kind == parser.SymRegOp {
		return reg{}, source.Errorf(o.Pos, "unsupported symbolic register %s", o.Text)
	}
	return reg{}, source.Errorf(o.Pos, "expected a register x0 ... x31 (or its ABI name), found %s", o.Text)
}
