package mips

import (
	"strconv"

	"github.com/purr-mcm/purr/source"
)

// abiNames are the names herd7 reads for $0 ... $31 beside their numbers,
// and $a4 ... $a7 (MIPSBase.parse_ireg), each with its dollar.
var abiNames = map[string]int{
	"$zero": 0, "$at": 1, "$v0": 2, "$v1": 3, "$a0": 4, "$a1": 5, "$a2": 6, "$a3": 7,
	"$t0": 8, "$t1": 9, "$t2": 10, "$t3": 11, "$t4": 12, "$t5": 13, "$t6": 14, "$t7": 15,
	"$s0": 16, "$s1": 17, "$s2": 18, "$s3": 19, "$s4": 20, "$s5": 21, "$s6": 22, "$s7": 23,
	"$t8": 24, "$t9": 25, "$k0": 26, "$k1": 27, "$gp": 28, "$sp": 29, "$fp": 30, "$ra": 31,
	// The O64 ABI's temporaries beyond $31, which have no number.
	"$a4": 32, "$a5": 33, "$a6": 34, "$a7": 35,
}

// reg is a register operand: its number, $0 to $31, or 32 to 35 for $a4
// to $a7; or a symbolic register.
type reg struct {
	n   int
	sym string // herd7's symbolic register, with its %: "%x0"
	pos source.Pos
}

func (r reg) zero() bool { return r.n == 0 && r.sym == "" }

// name is the XCFA's name of the register, and herd7's printing: $N, and
// $a4 ... $a7.
func (r reg) name() string {
	switch {
	case r.sym != "":
		return r.sym // see asm.Symbolic.Place
	case r.n > 31:
		return "$a" + strconv.Itoa(r.n-28)
	}
	return "$" + strconv.Itoa(r.n)
}

// regNumber reads a register name: $N (0 to 31) or its ABI name.
func regNumber(name string) (int, bool) {
	if n, ok := abiNames[name]; ok {
		return n, true
	}
	if len(name) < 2 || name[0] != '$' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 || n > 31 || strconv.Itoa(n) != name[1:] {
		return 0, false
	}
	return n, true
}
