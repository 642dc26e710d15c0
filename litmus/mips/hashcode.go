package mips

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/mips/internal/parser"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (MIPSBase.dump_instruction): registers as $N, memory operands as k($N)
// with their offset; labels renamed L00, L01, ... in the sorted order of
// every label the program defines or names.
func hashCode(tab *asm.Table[parser.Instr]) [][]string {
	return asm.HashCode(tab, jumpTarget, hashInstr)
}

func jumpTarget(in *parser.Instr) (string, bool) {
	d, err := decode(in)
	if err != nil || (d.class != jump && d.class != branch && d.class != branchZ) {
		return "", false
	}
	return d.label, true
}

func hashInstr(in *parser.Instr, rename map[string]string) string {
	d, err := decode(in)
	if err != nil {
		return in.Text
	}
	rd, rs, rt := d.rd.name(), d.rs.name(), d.rt.name()
	switch d.class {
	case nop, sync:
		return d.name
	case loadImm:
		return fmt.Sprintf("li %s,%d", rd, d.imm)
	case move:
		return fmt.Sprintf("move %s,%s", rd, rs)
	case opReg:
		return fmt.Sprintf("%s %s,%s,%s", d.name, rd, rs, rt)
	case opImm:
		return fmt.Sprintf("%s %s,%s,%d", d.name, rd, rs, d.imm)
	case jump:
		return "b " + rename[d.label]
	case branch:
		return fmt.Sprintf("%s %s,%s,%s", d.name, rs, rt, rename[d.label])
	case branchZ:
		return fmt.Sprintf("%s %s,%s", d.name, rs, rename[d.label])
	case load, store, loadLinked, storeCond:
		return fmt.Sprintf("%s %s,%d(%s)", d.name, rd, d.imm, rs)
	}
	return in.Text
}
