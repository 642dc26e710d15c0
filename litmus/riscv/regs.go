package riscv

import "strconv"

// abiNames are the ABI names herd7 reads for x0 ... x31
// (RISCVBase.pp_xregs), beside xN. herd7 spells x26's "10" rather than
// s10, so that s10 is no register of its, nor of purr's.
var abiNames = map[string]int{
	"zero": 0, "ra": 1, "sp": 2, "gp": 3, "tp": 4, "t0": 5, "t1": 6, "t2": 7, "s0": 8, "fp": 8, "s1": 9,
	"a0": 10, "a1": 11, "a2": 12, "a3": 13, "a4": 14, "a5": 15, "a6": 16, "a7": 17,
	"s2": 18, "s3": 19, "s4": 20, "s5": 21, "s6": 22, "s7": 23, "s8": 24, "s9": 25, "s11": 27,
	"t3": 28, "t4": 29, "t5": 30, "t6": 31,
}

// regNumber reads a register name: xN (0 to 31) or an ABI name.
func regNumber(name string) (int, bool) {
	if n, ok := abiNames[name]; ok {
		return n, true
	}
	if len(name) < 2 || name[0] != 'x' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 || n > 31 || strconv.Itoa(n) != name[1:] {
		return 0, false
	}
	return n, true
}
