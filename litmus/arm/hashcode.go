package arm

import (
	"fmt"

	"github.com/purr-mcm/purr/litmus/arm/internal/parser"
	"github.com/purr-mcm/purr/litmus/internal/asm"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (ARMBase.dump_instruction): mnemonics in upper case with their S and
// condition suffixes, immediates as #k, LDR rt,rn as LDR rt,[rn], XOR as
// EOR, DMB SY as DMB; labels renamed L00, L01, ... in the sorted order of
// every label the program defines or names.
func hashCode(tab *asm.Table[parser.Instr]) [][]string {
	return asm.HashCode(tab, jumpTarget, hashInstr)
}

func jumpTarget(in *parser.Instr) (string, bool) {
	d, err := decode(in)
	if err != nil || (d.class != jump && d.class != branchZ && d.class != branchReg) {
		return "", false
	}
	return d.label, true
}

func hashInstr(in *parser.Instr, rename map[string]string) string {
	d, err := decode(in)
	if err != nil {
		return in.Text
	}
	name := d.name
	if d.setFlags {
		name += "S"
	}
	name += d.cond.suffix()
	switch d.class {
	case opImm:
		return fmt.Sprintf("%s %s,%s,#%d", name, d.rd.name(), d.rn.name(), d.imm)
	case opReg:
		return fmt.Sprintf("%s %s,%s,%s", name, d.rd.name(), d.rn.name(), d.rm.name())
	case move:
		return fmt.Sprintf("%s %s,%s", name, d.rd.name(), d.rm.name())
	case moveImm:
		return fmt.Sprintf("%s %s,#%d", name, d.rd.name(), d.imm)
	case compare:
		return fmt.Sprintf("CMP %s,%s", d.rn.name(), d.rm.name())
	case compareImm:
		return fmt.Sprintf("CMP %s,#%d", d.rn.name(), d.imm)
	case jump, branchZ:
		return name + " " + rename[d.label]
	case branchReg:
		return fmt.Sprintf("%s %s,%s", name, d.rn.name(), rename[d.label])
	case load, store, loadEx:
		if d.indexed {
			return fmt.Sprintf("%s %s,[%s,%s]", name, d.rt.name(), d.rn.name(), d.rm.name())
		}
		return fmt.Sprintf("%s %s,[%s]", name, d.rt.name(), d.rn.name())
	case storeEx:
		return fmt.Sprintf("STREX %s,%s,[%s]", d.rd.name(), d.rt.name(), d.rn.name())
	case barrier:
		if d.option != "" {
			return name + " " + d.option
		}
		return name
	}
	return in.Text
}
