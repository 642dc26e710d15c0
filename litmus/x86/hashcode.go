package x86

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (lib/testHash.ml): labels renamed L00, L01, ... in the sorted order of
// every label the program defines or names, each label on a line of its
// own, then each instruction as the dialect's dump_instruction prints it.
//
// X86 (X86Base.dump_instruction): Intel order, operands joined by "," with no
// blank, immediates "$n" in decimal, memory "[x]" (also for (EAX)), MOVQ
// as MOV (herd's norm_ins), INC, DEC and CMP followed by two blanks (its
// printer puts a blank after them and another before the operands), LOCK
// as "LOCK; " before the instruction.

// hashCode prints the program for the hash, each instruction by
// printInstr.
func hashCode(tab *table, printInstr func(*instr, map[string]string) string) [][]string {
	rename := hashLabels(tab)
	code := make([][]string, len(tab.procs))
	for _, row := range tab.rows {
		for col, c := range row {
			if col >= len(code) {
				continue
			}
			for _, l := range c.labels {
				code[col] = append(code[col], rename[l.name]+":")
			}
			if c.instr != nil {
				code[col] = append(code[col], printInstr(c.instr, rename))
			}
		}
	}
	for i := range code {
		if code[i] == nil {
			code[i] = []string{}
		}
	}
	return code
}

// isJump tells whether an instruction names a label: the jumps of X86 and
// of X86_64 (another dialect's jump never reaches the hash: it is refused).
func isJump(in *instr) bool {
	_, ok := jumpConditions[in.mnem]
	return ok || in.mnem == "JMP"
}

func hashLabels(tab *table) map[string]string {
	set := map[string]bool{}
	for _, row := range tab.rows {
		for _, c := range row {
			for _, l := range c.labels {
				set[l.name] = true
			}
			in := c.instr
			for in != nil && in.locked != nil {
				in = in.locked
			}
			if in != nil && isJump(in) && len(in.ops) == 1 && in.ops[0].kind == nameOp {
				set[in.ops[0].name] = true
			}
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	rename := make(map[string]string, len(names))
	for i, n := range names {
		rename[n] = fmt.Sprintf("L%02d", i)
	}
	return rename
}

func hashOperand(o operand, rename map[string]string) string {
	switch o.kind {
	case immOp:
		return "$" + strconv.FormatInt(o.imm, 10)
	case memOp:
		return "[" + o.name + "]"
	case absOp:
		return "[" + strconv.FormatInt(o.imm, 10) + "]"
	}
	if l, ok := rename[o.name]; ok {
		return l
	}
	return o.name
}

func hashX86(in *instr, rename map[string]string) string {
	if in.locked != nil {
		return "LOCK; " + hashX86(in.locked, rename)
	}
	ops := make([]string, len(in.ops))
	for i, o := range in.ops {
		ops[i] = hashOperand(o, rename)
	}
	m := in.mnem
	switch m {
	case "MOVQ":
		m = "MOV"
	case "INC", "DEC", "CMP":
		m += " "
	}
	if len(ops) == 0 {
		return m
	}
	return m + " " + strings.Join(ops, ",")
}
