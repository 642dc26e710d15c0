package arm

import "github.com/purr-mcm/purr/source"

// regNames are the registers herd7's ARM reads (ARMBase.parse_list), in
// upper case only: R0 ... R12, SP, LR and PC.
var regNames = []string{"R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "SP", "LR", "PC"}

// flag is the XCFA register of herd7's condition flag Z, which no test
// names: CMP and the S forms set it, BEQ, BNE and the EQ and NE forms read
// it.
const flag = "Z"

// reg is a register operand: its index in regNames, or a symbolic
// register.
type reg struct {
	n   int
	sym string // herd7's symbolic register, with its %: "%x0"
	pos source.Pos
}

// name is the XCFA's name of the register, and herd7's printing: a
// symbolic register keeps its name (see asm.PlaceSymbolicRegisters).
func (r reg) name() string {
	if r.sym != "" {
		return r.sym
	}
	return regNames[r.n]
}

// regNumber reads a register name.
func regNumber(name string) (int, bool) {
	for i, n := range regNames {
		if n == name {
			return i, true
		}
	}
	return 0, false
}
