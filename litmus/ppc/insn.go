package ppc

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/ppc/internal/parser"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// class is the shape of an instruction, as herd7's PPCBase tells them
// apart.
type class int

const (
	opReg     class = iota // add rD,rA,rB (add. sets CR0)
	opImm                  // addi rD,rA,k; andi. sets CR0
	loadImm                // li rD,k (and addi rD,r0,k)
	move                   // mr rD,rS
	compare                // cmpw crN,rA,rB; cmpwi crN,rA,k
	jump                   // b L
	branch                 // beq L, on CR0
	load                   // lwz rD,d(rA); lwzu updates rA
	loadX                  // lwzx rD,rA,rB
	store                  // stw rS,d(rA); stwu updates rA
	storeX                 // stwx rS,rA,rB
	loadRes                // lwarx rD,rA,rB
	storeCond              // stwcx. rS,rA,rB
	fence                  // sync, lwsync, eieio, isync
	nop                    // dcbf rA,rB; com "text"
)

// insn is one decoded instruction.
type insn struct {
	class    class
	name     string // herd7's printed mnemonic: add., lwz, stwcx.
	op       xcfa.BinOp
	setCR0   bool // add. and the other dotted forms, andi.: CR0 compares the result with 0
	update   bool // lwzu, stwu: rA gets the address
	cr       int  // compare: the field of the condition register it sets
	bit      int  // branch: the bit of CR0 it reads (crLT, crGT, crEQ) ...
	negate   bool // ... and whether it branches when the bit is clear
	rd, ra   reg  // destination (rS of a store) and first source (base)
	rb       reg  // second source (index)
	imm      int64
	label    string
	labelPos source.Pos
	text     string // com's text
}

// reg is a general-purpose register operand, r0 to r31.
type reg struct {
	n   int
	pos source.Pos
}

// name is the XCFA's name of the register, and herd7's printing: rN.
func (r reg) name() string { return "r" + strconv.Itoa(r.n) }

// herd7's condition-register bits, as values of a field (PPCSem's mask:
// bit 0, LT, is the field's high-order bit).
const (
	crLT = 8
	crGT = 4
	crEQ = 2
)

// The instructions herd7 7.57 reads (PPCLexer) and gives semantics to
// (PPCSem.build_semantics); the others it reads are refused with herd7's
// reason.
var (
	regOps = map[string]xcfa.BinOp{"add": xcfa.Add, "sub": xcfa.Sub, "subf": xcfa.Sub, "or": xcfa.Or,
		"and": xcfa.And, "xor": xcfa.Xor, "mullw": xcfa.Mul, "divw": xcfa.Div}
	immOps = map[string]xcfa.BinOp{"addi": xcfa.Add, "subi": xcfa.Add, "ori": xcfa.Or, "xori": xcfa.Xor,
		"andi.": xcfa.And, "mulli": xcfa.Mul}
	// conds are the conditional branches: the CR0 bit each reads, and
	// whether it branches on the bit clear (bge is "not less than").
	conds = map[string]struct {
		bit    int
		negate bool
	}{"beq": {crEQ, false}, "bne": {crEQ, true}, "blt": {crLT, false}, "bge": {crLT, true},
		"bnl": {crLT, true}, "bgt": {crGT, false}, "ble": {crGT, true}, "bng": {crGT, true}}
	// condNames are the branches as herd7 prints them back (bnl is bge).
	condNames = map[string]string{"bnl": "bge", "bng": "ble"}
	barriers  = map[string]string{"sync": "SYNC", "lwsync": "LWSYNC", "eieio": "EIEIO", "isync": "ISYNC"}
	loads     = map[string]bool{"lwz": true, "ld": true, "lwzu": true}
	stores    = map[string]bool{"stw": true, "std": true, "stwu": true}
	// unimplemented are the instructions herd7 reads and has no semantics
	// for ("Instruction ... not implemented").
	unimplemented = map[string]bool{"nor": true, "nor.": true, "neg": true, "neg.": true, "slw": true,
		"srawi": true, "sraw": true, "bl": true, "blr": true, "mtlr": true, "mflr": true, "lmw": true, "stmw": true}
	// narrow are the byte and halfword accesses: mixed sizes, which purr
	// does not model.
	narrow = map[string]string{"lbz": "byte", "lbzx": "byte", "stb": "byte", "stbx": "byte",
		"lhz": "halfword", "lhzx": "halfword", "sth": "halfword", "sthx": "halfword"}
)

// decode gives an instruction its meaning, or refuses it at its position.
func decode(in *parser.Instr) (*insn, error) {
	m := in.Mnem
	d := &insn{name: m}
	base, dot := strings.CutSuffix(m, ".")
	_, isRegOp := regOps[base]
	_, isImmOp := immOps[m]
	switch {
	case isRegOp:
		d.class, d.op, d.setCR0 = opReg, regOps[base], dot
		return d, d.operands(in, "rrr", &d.rd, &d.ra, &d.rb)
	case isImmOp:
		d.class, d.op, d.setCR0 = opImm, immOps[m], m == "andi."
		if err := d.operands(in, "rrk", &d.rd, &d.ra, &d.imm); err != nil {
			return nil, err
		}
		if m == "subi" {
			d.name, d.imm = "addi", -d.imm
		}
		if d.name == "addi" && d.ra.n == 0 {
			// Power ISA: addi rD,0,k is li; herd7 reads r0 as 0 here.
			d.class = loadImm
		}
		return d, nil
	case m == "li":
		d.class = loadImm
		return d, d.operands(in, "rk", &d.rd, &d.imm)
	case m == "mr":
		d.class = move
		return d, d.operands(in, "rr", &d.rd, &d.ra)
	case m == "cmpw" || m == "cmpwi":
		return d, d.decodeCompare(in)
	case m == "b":
		d.class = jump
		return d, d.operands(in, "l")
	case conds[m].bit != 0:
		d.class, d.bit, d.negate = branch, conds[m].bit, conds[m].negate
		if n, ok := condNames[m]; ok {
			d.name = n
		}
		return d, d.operands(in, "l")
	case loads[m]:
		d.class, d.update = load, m == "lwzu"
		return d, d.memOperands(in)
	case stores[m]:
		d.class, d.update = store, m == "stwu"
		return d, d.memOperands(in)
	case m == "lwzx" || m == "ldx":
		d.class = loadX
		return d, d.operands(in, "rrr", &d.rd, &d.ra, &d.rb)
	case m == "stwx" || m == "stdx":
		d.class = storeX
		return d, d.operands(in, "rrr", &d.rd, &d.ra, &d.rb)
	case m == "lwarx":
		d.class = loadRes
		return d, d.operands(in, "rrr", &d.rd, &d.ra, &d.rb)
	case m == "stwcx.":
		d.class = storeCond
		return d, d.operands(in, "rrr", &d.rd, &d.ra, &d.rb)
	case barriers[m] != "":
		d.class = fence
		return d, d.operands(in, "")
	case m == "dcbf":
		d.class = nop
		return d, d.operands(in, "rr", &d.ra, &d.rb)
	case m == "com":
		d.class = nop
		if len(in.Ops) != 1 || in.Ops[0].Kind != parser.StringOp {
			return nil, source.Errorf(in.Pos, `com takes one string: com "text"`)
		}
		d.text = in.Ops[0].Name
		return d, nil
	case unimplemented[m]:
		return nil, source.Errorf(in.Pos, "unsupported instruction %s: herd7 has no semantics for %s", in.Text, m)
	case narrow[m] != "":
		return nil, source.Errorf(in.Pos, "mixed-size accesses: %s is a %s access; purr does not support mixed-size accesses yet",
			in.Text, narrow[m])
	}
	return nil, source.Errorf(in.Pos, "unsupported instruction %s", in.Text)
}

// decodeCompare reads cmpw [crN,]rA,rB and cmpwi [crN,]rA,k.
func (d *insn) decodeCompare(in *parser.Instr) error {
	d.class = compare
	ops := in.Ops
	if len(ops) == 3 {
		n, ok := crField(ops[0])
		if !ok {
			return source.Errorf(ops[0].Pos, "expected a condition-register field cr0 ... cr7, found %s", ops[0].Text)
		}
		d.cr = n
		in = &parser.Instr{Mnem: in.Mnem, Ops: ops[1:], Pos: in.Pos, Text: in.Text}
	}
	if d.name == "cmpwi" {
		return d.operands(in, "rk", &d.ra, &d.imm)
	}
	return d.operands(in, "rr", &d.ra, &d.rb)
}

// crField reads crN, N a digit 0 to 7, as herd7's lexer does.
func crField(o parser.Operand) (int, bool) {
	if o.Kind != parser.NameOp || len(o.Name) != 3 || o.Name[:2] != "cr" || o.Name[2] < '0' || o.Name[2] > '7' {
		return 0, false
	}
	return int(o.Name[2] - '0'), true
}

// memOperands reads a D-form access's operands: rD,d(rA), or rD,d,rA as
// herd7 also reads them.
func (d *insn) memOperands(in *parser.Instr) error {
	if len(in.Ops) == 3 {
		return d.operands(in, "rkr", &d.rd, &d.imm, &d.ra)
	}
	return d.operands(in, "rm", &d.rd, &d.ra, &d.imm)
}

// operands reads in's operands by shape: r a register, k an immediate, l
// a label, m a memory operand d(r) (its register and offset).
func (d *insn) operands(in *parser.Instr, shape string, dst ...any) error {
	if len(in.Ops) != len(shape) {
		if len(shape) == 0 {
			return source.Errorf(in.Ops[0].Pos, "%s takes no operands", in.Mnem)
		}
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
				return source.Errorf(o.Pos, "expected a memory operand d(rA), found %s", o.Text)
			}
			r, err := register(parser.Operand{Kind: parser.NameOp, Name: o.Name, Pos: o.Pos, Text: o.Name})
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

// register reads a general-purpose register operand, r0 ... r31.
func register(o parser.Operand) (reg, error) {
	if o.Kind == parser.NameOp {
		if n, ok := regNumber(o.Name); ok {
			return reg{n: n, pos: o.Pos}, nil
		}
	}
	if o.Kind == parser.SymRegOp {
		return reg{}, source.Errorf(o.Pos, "unsupported symbolic register %s", o.Text)
	}
	return reg{}, source.Errorf(o.Pos, "expected a register r0 ... r31, found %s", o.Text)
}

// regNumber reads a general-purpose register's name, rN (0 to 31), in
// any case, as herd7 reads it.
func regNumber(name string) (int, bool) {
	if len(name) < 2 || (name[0] != 'r' && name[0] != 'R') {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 || n > 31 || strconv.Itoa(n) != name[1:] {
		return 0, false
	}
	return n, true
}
