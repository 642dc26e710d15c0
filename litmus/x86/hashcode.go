package x86

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/x86/internal/parser"
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
func hashCode(tab *asm.Table[parser.Instr], printInstr func(*parser.Instr, map[string]string) string) [][]string {
	return asm.HashCode(tab, jumpTarget, printInstr)
}

// isJump tells whether an instruction names a label: the jumps of X86 and
// of X86_64 (another dialect's jump never reaches the hash: it is refused).
func isJump(in *parser.Instr) bool {
	_, ok := jumpConditions[in.Mnem]
	return ok || in.Mnem == "JMP"
}

// jumpTarget gives the label a jump names, under any LOCK prefix.
func jumpTarget(in *parser.Instr) (string, bool) {
	for in.Locked != nil {
		in = in.Locked
	}
	if isJump(in) && len(in.Ops) == 1 && in.Ops[0].Kind == parser.NameOp {
		return in.Ops[0].Name, true
	}
	return "", false
}

func hashOperand(o parser.Operand, rename map[string]string) string {
	switch o.Kind {
	case parser.ImmOp:
		return "$" + strconv.FormatInt(o.Imm, 10)
	case parser.MemOp:
		return "[" + o.Name + "]"
	case parser.AbsOp:
		return "[" + strconv.FormatInt(o.Imm, 10) + "]"
	}
	if l, ok := rename[o.Name]; ok {
		return l
	}
	return o.Name
}

func hashX86(in *parser.Instr, rename map[string]string) string {
	if in.Locked != nil {
		return "LOCK; " + hashX86(in.Locked, rename)
	}
	ops := make([]string, len(in.Ops))
	for i, o := range in.Ops {
		ops[i] = hashOperand(o, rename)
	}
	m := in.Mnem
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
