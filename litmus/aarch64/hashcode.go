package aarch64

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/aarch64/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
)

// Herd7 hashes a test's program as it re-prints the parsed instructions
// (AArch64Base.dump_instruction_hash, the "compat" printer kept for stable
// hashes). hashCode reproduces that printing from our parse of the text:
// canonical register names, immediates "#n" in decimal, no blanks after
// commas, aliases printed as herd7 prints the instruction it parses them
// to, labels renamed L00, L01, ... in the sorted order of every label the
// program defines or names.

// hashCode prints every thread of the table as herd7 does for its hash.
func hashCode(tab *asm.Table[parser.Instr]) [][]string {
	return asm.HashCode(tab, labelTarget, hashInstr)
}

// labelTarget gives the code label a branch-like instruction names.
func labelTarget(in *parser.Instr) (string, bool) {
	if k := labelOperand(in); k >= 0 && k < len(in.Ops) && in.Ops[k].Kind == parser.NameOp {
		return in.Ops[k].Name, true
	}
	return "", false
}

// labelOperand says which operand of a branch-like instruction names a
// code label (herd7's fold_labels), or -1.
func labelOperand(in *parser.Instr) int {
	switch m := in.Mnem; {
	case m == "B" || m == "BL" || strings.HasPrefix(m, "B."):
		return 0
	case m == "CBZ" || m == "CBNZ" || m == "ADR":
		return 1
	case m == "TBZ" || m == "TBNZ":
		return 2
	}
	return -1
}

// herdInverse is herd7's inverse_cond, including its GE -> GT (herd7
// parses CSET Rd,c as CSINC Rd,ZR,ZR,inverse c and prints it back by
// inverting again).
var herdInverse = map[string]string{
	"NE": "EQ", "EQ": "NE", "LE": "GT", "LT": "GE", "GE": "GT", "GT": "LE",
	"CS": "CC", "CC": "CS", "HS": "CC", "LO": "CS", "MI": "PL", "PL": "MI",
	"VS": "VC", "VC": "VS", "HI": "LS", "LS": "HI", "AL": "AL",
}

func condName(c string) string {
	c = strings.ToUpper(c)
	switch c {
	case "HS":
		return "CS"
	case "LO":
		return "CC"
	}
	return c
}

// hashReg prints a register operand with herd7's names.
func hashReg(name string) string {
	u := strings.ToUpper(name)
	if u == "LR" {
		return "X30"
	}
	if r, ok := parseReg(u); ok {
		if r.zero {
			if r.w32 {
				return "WZR"
			}
			return "XZR"
		}
		return u
	}
	return u
}

// xName prints the 64-bit name of a register operand (herd7 prints some
// operands with pp_reg whatever their width).
func xName(o parser.Operand) string {
	s := hashOperand(o, nil)
	if r, ok := parseReg(s); ok && r.w32 {
		if r.zero {
			return "XZR"
		}
		return "X" + s[1:]
	}
	return s
}

func hashImm(n int64) string { return "#" + strconv.FormatInt(n, 10) }

// hashOperand prints one operand in herd7's syntax.
func hashOperand(o parser.Operand, rename map[string]string) string {
	switch o.Kind {
	case parser.ImmOp:
		return hashImm(o.Imm)
	case parser.ShiftOp:
		return strings.ToUpper(o.Name) + " " + hashImm(o.Imm)
	case parser.RelOp:
		return "." + fmt.Sprintf("%+d", o.Imm)
	case parser.SymRegOp:
		// herd7 reads a bare %r as the X register X%r.
		if strings.HasPrefix(o.Text, "%") {
			return "X" + o.Text
		}
		return strings.ToUpper(o.Text[:1]) + o.Text[1:]
	case parser.MemOp:
		return hashMem(o, rename)
	}
	if l, ok := rename[o.Name]; ok {
		return l
	}
	return hashReg(o.Name)
}

// hashMem prints an addressing mode [Xn{,offset}{,extend}]{!}: a zero
// offset and a zero shift are left out.
func hashMem(o parser.Operand, rename map[string]string) string {
	parts := make([]string, 0, len(o.Sub))
	for i, s := range o.Sub {
		switch {
		case i == 1 && s.Kind == parser.ImmOp && s.Imm == 0 && !o.Writeback:
			continue
		case i == 2 && s.Kind == parser.ShiftOp && s.Imm == 0:
			if strings.EqualFold(s.Name, "LSL") {
				continue
			}
			parts = append(parts, strings.ToUpper(s.Name))
			continue
		}
		parts = append(parts, hashOperand(s, rename))
	}
	s := "[" + strings.Join(parts, ",") + "]"
	if o.Writeback {
		s += "!"
	}
	return s
}

// hashInstr prints one instruction as herd7 does for its hash.
func hashInstr(in *parser.Instr, rename map[string]string) string {
	m := in.Mnem
	args := in.Ops
	if n := len(args); n > 0 && args[n-1].Kind == parser.ShiftOp && args[n-1].Imm == 0 && m != "MOVZ" && m != "MOVN" && m != "MOVK" {
		args = args[:n-1] // herd7 leaves out a zero shift of an operand
	}
	ops := make([]string, len(args))
	for i, o := range args {
		ops[i] = hashOperand(o, rename)
	}
	plain := func(mnem string, args ...string) string {
		if len(args) == 0 {
			return mnem
		}
		return mnem + " " + strings.Join(args, ",")
	}
	switch {
	case strings.HasPrefix(m, "B.") && len(ops) == 1:
		return "B." + condName(m[2:]) + " " + ops[0]
	case m == "ADR" && len(ops) == 2:
		return plain("ADDR", ops...)
	case m == "CSET" || m == "CSETM":
		if len(ops) == 2 {
			c := condName(in.Ops[1].Name)
			return plain(m, ops[0], herdInverse[herdInverse[c]])
		}
	case m == "CINC" && len(ops) == 3:
		c := condName(in.Ops[2].Name)
		return plain(m, ops[0], ops[1], herdInverse[herdInverse[c]])
	case (m == "CSINC" || m == "CSINV" || m == "CSEL" || m == "CSNEG") && len(ops) == 4:
		c := condName(in.Ops[3].Name)
		switch {
		case m == "CSINC" && isZero(ops[1]) && isZero(ops[2]):
			return plain("CSET", ops[0], herdInverse[c])
		case m == "CSINV" && isZero(ops[1]) && isZero(ops[2]):
			return plain("CSETM", ops[0], herdInverse[c])
		case m == "CSINC" && ops[1] == ops[2]:
			return plain("CINC", ops[0], ops[1], herdInverse[c])
		}
		return plain(m, ops[0], ops[1], ops[2], c)
	case m == "NEG" || m == "NEGS":
		// The compat printer has no NEG: SUB Rd,ZR,Rm.
		if len(ops) >= 2 {
			zr := "XZR"
			if strings.HasPrefix(ops[0], "W") {
				zr = "WZR"
			}
			return plain(strings.Replace(m, "NEG", "SUB", 1), append([]string{ops[0], zr}, ops[1:]...)...)
		}
	case m == "REV64":
		return plain("REV", ops...)
	case m == "SUBS" && len(ops) >= 3 && isZero(ops[0]):
		return plain("CMP", ops[1:]...)
	case m == "ANDS" && len(ops) >= 3 && isZero(ops[0]):
		return plain("TST", ops[1:]...)
	case m == "ORN" && len(ops) >= 3 && isZero(ops[1]):
		return plain("MVN", append([]string{ops[0]}, ops[2:]...)...)
	case m == "UBFM" || m == "SBFM":
		if len(in.Ops) == 4 {
			return plain(m, xName(in.Ops[0]), xName(in.Ops[1]), ops[2], ops[3])
		}
	case m == "LDUR" && len(in.Ops) == 2:
		return "LDUR " + xName(in.Ops[0]) + ", " + ops[1] // herd7's blank after the comma
	case (m == "LDXP" || m == "LDAXP") && len(ops) == 3:
		// The compat printer prints the first register as a W register.
		first := ops[0]
		if r, ok := parseReg(first); ok && !r.w32 && !r.zero {
			first = "W" + first[1:]
		}
		return plain(m, first, ops[1], ops[2])
	case (m == "MOVZ" || m == "MOVN" || m == "MOVK") && len(in.Ops) == 3 && in.Ops[2].Kind == parser.ShiftOp:
		// herd7 prints the shift after a comma of its own: "MOVK X0,#1,,LSL #16".
		return plain(m, ops[0], ops[1], ","+ops[2])
	}
	// Post-indexed accesses: [Xn],#k prints "[Xn]#k" (" [Xn]#k" for pairs).
	if n := len(in.Ops); n >= 2 && in.Ops[n-1].Kind == parser.ImmOp && in.Ops[n-2].Kind == parser.MemOp && !in.Ops[n-2].Writeback {
		mem := ops[n-2] + ops[n-1]
		if n >= 4 {
			mem = " " + mem
		}
		return plain(m, append(ops[:n-2:n-2], mem)...)
	}
	return plain(m, ops...)
}

func isZero(reg string) bool { return reg == "WZR" || reg == "XZR" }
