package mips

import (
	"strings"

	"github.com/purr-mcm/purr/litmus/mips/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// class is the shape of an instruction, as herd7's MIPSBase tells them
// apart.
type class int

const (
	nop        class = iota // nop
	loadImm                 // li rd,k
	move                    // move rd,rs
	opReg                   // addu rd,rs,rt
	opImm                   // addiu rd,rs,k
	jump                    // b L
	branch                  // beq rs,rt,L
	branchZ                 // blez rs,L
	load                    // lw rt,k(rs)
	store                   // sw rt,k(rs)
	loadLinked              // ll rt,k(rs)
	storeCond               // sc rt,k(rs)
	sync                    // sync
)

// insn is one decoded instruction.
type insn struct {
	class    class
	name     string // herd7's printed mnemonic
	op       xcfa.BinOp
	nor      bool // nor: the complement of or
	rd       reg  // destination; the register a load writes or a store stores
	rs, rt   reg  // sources; rs is a memory access's base
	imm      int64
	label    string
	labelPos source.Pos
}

// The operations herd7 reads (MIPSParser, MIPSSem.tr_op): herd7 gives the
// unsigned and doubleword forms the operation of the plain one (sltu is
// a signed comparison, as slt).
var (
	regOps = map[string]xcfa.BinOp{"add": xcfa.Add, "addu": xcfa.Add, "daddu": xcfa.Add, "sub": xcfa.Sub,
		"subu": xcfa.Sub, "slt": xcfa.Lt, "sltu": xcfa.Lt, "and": xcfa.And, "or": xcfa.Or, "xor": xcfa.Xor, "nor": xcfa.Or}
	// immOps take a signed 16-bit immediate, logicalOps an unsigned one.
	immOps = map[string]xcfa.BinOp{"addi": xcfa.Add, "addiu": xcfa.Add, "daddiu": xcfa.Add, "subi": xcfa.Sub,
		"subiu": xcfa.Sub, "slti": xcfa.Lt, "sltiu": xcfa.Lt}
	logicalOps = map[string]xcfa.BinOp{"andi": xcfa.And, "ori": xcfa.Or, "xori": xcfa.Xor}
	conds      = map[string]xcfa.BinOp{"beq": xcfa.Eq, "bne": xcfa.Ne}
	zeroConds  = map[string]xcfa.BinOp{"blez": xcfa.Le, "bgtz": xcfa.Gt, "bltz": xcfa.Lt, "bgez": xcfa.Ge}
	// narrow are the accesses of other sizes than lw's and sw's: mixed
	// sizes, which purr does not model.
	narrow = map[string]string{"lb": "byte", "lbu": "byte", "sb": "byte", "lh": "halfword", "lhu": "halfword",
		"sh": "halfword", "ld": "doubleword", "sd": "doubleword"}
	// unsupported are instructions of herd7's MIPS that purr does not
	// read.
	unsupported = map[string]string{"lui": "", "jr": "an indirect jump",
		"dsll": "", "dext": ""}
)

// decode gives an instruction its meaning, or refuses it at its position.
func decode(in *parser.Instr) (*insn, error) {
	m := in.Mnem
	d := &insn{name: m}
	switch {
	case m == "nop":
		d.class = nop
		return d, d.operands(in, "")
	case m == "sync":
		d.class = sync
		return d, d.operands(in, "")
	case m == "li":
		d.class = loadImm
		if err := d.operands(in, "rk", &d.rd, &d.imm); err != nil {
			return nil, err
		}
		return d, d.unsigned16(in)
	case m == "move":
		d.class = move
		return d, d.operands(in, "rr", &d.rd, &d.rs)
	case m == "b":
		d.class = jump
		return d, d.operands(in, "l")
	case conds[m] != 0:
		d.class, d.op = branch, conds[m]
		return d, d.operands(in, "rrl", &d.rs, &d.rt)
	case zeroConds[m] != 0:
		d.class, d.op = branchZ, zeroConds[m]
		return d, d.operands(in, "rl", &d.rs)
	case m == "lw" || m == "sw" || m == "ll" || m == "sc":
		d.class = map[string]class{"lw": load, "sw": store, "ll": loadLinked, "sc": storeCond}[m]
		return d, d.operands(in, "rm", &d.rd, &d.rs, &d.imm)
	}
	if op, ok := regOps[m]; ok {
		d.class, d.op, d.nor = opReg, op, m == "nor"
		return d, d.operands(in, "rrr", &d.rd, &d.rs, &d.rt)
	}
	if op, ok := immOps[m]; ok {
		d.class, d.op = opImm, op
		if err := d.operands(in, "rrk", &d.rd, &d.rs, &d.imm); err != nil {
			return nil, err
		}
		if d.imm < -0x8000 || d.imm > 0x7fff {
			return nil, source.Errorf(in.Pos, "unsupported immediate in %s: purr reads %s's from -32768 to 32767 (herd7 takes their low 16 bits, signed)", in.Text, m)
		}
		return d, nil
	}
	if op, ok := logicalOps[m]; ok {
		d.class, d.op = opImm, op
		if err := d.operands(in, "rrk", &d.rd, &d.rs, &d.imm); err != nil {
			return nil, err
		}
		return d, d.unsigned16(in)
	}
	if width, ok := narrow[m]; ok {
		return nil, source.Errorf(in.Pos, "mixed-size accesses: %s is a %s access; purr does not support mixed-size accesses yet", in.Text, width)
	}
	if why, ok := unsupported[m]; ok {
		if why != "" {
			why = " (" + why + ")"
		}
		return nil, source.Errorf(in.Pos, "unsupported instruction %s: purr does not read %s%s", in.Text, m, why)
	}
	return nil, source.Errorf(in.Pos, "unsupported instruction %s", in.Text)
}

// unsigned16 refuses an immediate that is no unsigned 16-bit value, whose
// low 16 bits herd7 would take.
func (d *insn) unsigned16(in *parser.Instr) error {
	if d.imm < 0 || d.imm > 0xffff {
		return source.Errorf(in.Pos, "unsupported immediate in %s: purr reads %s's from 0 to 65535 (herd7 takes their low 16 bits, unsigned)", in.Text, d.name)
	}
	return nil
}

// operands reads in's operands by shape: r a register, k an immediate, l a
// label, m a memory operand k(rs) or (rs) (its register and offset).
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
		case 'm':
			if o.Kind != parser.MemOp {
				return source.Errorf(o.Pos, "expected a memory operand k($reg), found %s", o.Text)
			}
			kind := parser.RegOp
			if strings.HasPrefix(o.Name, "%") {
				kind = parser.SymRegOp
			}
			r, err := register(parser.Operand{Kind: kind, Name: o.Name, Pos: o.Pos, Text: o.Name})
			if err != nil {
				return err
			}
			*dst[0].(*reg) = r
			*dst[1].(*int64) = o.Imm
			dst = dst[2:]
		}
	}
	return nil
}

// register reads a register operand: $0 ... $31 or its ABI name, with or
// without its dollar, as herd7 reads them.
func register(o parser.Operand) (reg, error) {
	if o.Kind == parser.RegOp {
		if n, ok := regNumber(o.Name); ok {
			return reg{n: n, pos: o.Pos}, nil
		}
	}
	if o.Kind == parser.NameOp {
		// herd7 also reads the ABI names without their dollar (move v0,v1).
		if n, ok := abiNames["$"+o.Name]; ok {
			return reg{n: n, pos: o.Pos}, nil
		}
	}
	if o.Kind == parser.SymRegOp {
		return reg{sym: o.Name, pos: o.Pos}, nil
	}
	return reg{}, source.Errorf(o.Pos, "expected a register $0 ... $31 (or its ABI name, $v0, $a0, ...), found %s", o.Text)
}
