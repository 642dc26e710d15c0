package ppc

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/ppc/internal/parser"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (PPCBase.dump_instruction): registers as rN, subi as addi of the
// negated immediate, D-form accesses as d(rA), cmpw and cmpwi without
// their field when it is cr0, "b   L" and "beq  L" with herd7's blanks,
// bnl and bng as bge and ble; labels renamed L00, L01, ... in the sorted
// order of every label the program defines or names.
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
	rd, ra, rb := d.rd.name(), d.ra.name(), d.rb.name()
	switch d.class {
	case opReg, loadX, storeX, loadRes, storeCond:
		return fmt.Sprintf("%s %s,%s,%s", d.name, rd, ra, rb)
	case opImm:
		return fmt.Sprintf("%s %s,%s,%d", d.name, rd, ra, d.imm)
	case loadImm:
		if d.name == "li" {
			return fmt.Sprintf("li %s,%d", rd, d.imm)
		}
		return fmt.Sprintf("addi %s,%s,%d", rd, ra, d.imm)
	case move:
		return fmt.Sprintf("mr %s,%s", rd, ra)
	case compare:
		var field string
		if d.cr != 0 {
			field = fmt.Sprintf("cr%d,", d.cr)
		}
		if d.name == "cmpwi" {
			return fmt.Sprintf("cmpwi %s%s,%d", field, ra, d.imm)
		}
		return fmt.Sprintf("cmpw %s%s,%s", field, ra, rb)
	case jump:
		return "b   " + rename[d.label]
	case branch:
		return d.name + "  " + rename[d.label]
	case load, store:
		return fmt.Sprintf("%s %s,%d(%s)", d.name, rd, d.imm, ra)
	case fence:
		return d.name
	case nop:
		if d.name == "com" {
			return `com "` + d.text + `"`
		}
		return fmt.Sprintf("dcbf %s,%s", ra, rb)
	}
	return in.Text
}
