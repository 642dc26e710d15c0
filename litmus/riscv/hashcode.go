package riscv

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/riscv/internal/parser"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (RISCVBase.dump_instruction): registers as xN, li as ori rd,x0,k, xori
// with a blank before it (herd7's pp_opi), loads and stores with their
// offset, LR and SC with 0(rs1), AMOs with (rs1), .aq.rl as .aqrl, fence
// alone as fence rw,rw; labels renamed L00, L01, ... in the sorted order
// of every label the program defines or names.
func hashCode(tab *asm.Table[parser.Instr]) [][]string {
	return asm.HashCode(tab, jumpTarget, hashInstr)
}

func jumpTarget(in *parser.Instr) (string, bool) {
	d, err := decode(in)
	if err != nil || (d.class != jump && d.class != branch) {
		return "", false
	}
	return d.label, true
}

func hashInstr(in *parser.Instr, rename map[string]string) string {
	d, err := decode(in)
	if err != nil {
		return in.Text
	}
	rd, rs1, rs2 := d.rd.name(), d.rs1.name(), d.rs2.name()
	switch d.class {
	case opImm:
		name := d.name
		if name == "xori" {
			name = " xori"
		}
		return fmt.Sprintf("%s %s,%s,%d", name, rd, rs1, d.imm)
	case opReg:
		return fmt.Sprintf("%s %s,%s,%s", d.name, rd, rs1, rs2)
	case jump:
		return "j " + rename[d.label]
	case branch:
		return fmt.Sprintf("%s %s,%s,%s", d.name, rs1, rs2, rename[d.label])
	case load, store:
		r := rd
		if d.class == store {
			r = rs2
		}
		return fmt.Sprintf("%s%s %s,%d(%s)", d.name, d.mo.suffix(), r, d.imm, rs1)
	case loadRes:
		return fmt.Sprintf("lr.%s%s %s,0(%s)", d.width, d.mo.suffix(), rd, rs1)
	case storeCond:
		return fmt.Sprintf("sc.%s%s %s,%s,0(%s)", d.width, d.mo.suffix(), rd, rs2, rs1)
	case amo:
		return fmt.Sprintf("%s.%s%s %s,%s,(%s)", d.name, d.width, d.mo.suffix(), rd, rs2, rs1)
	case fence:
		return d.barrier
	}
	return in.Text
}
