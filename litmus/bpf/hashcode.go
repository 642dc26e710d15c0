package bpf

import (
	"fmt"
	"strconv"

	"github.com/purr-mcm/purr/litmus/internal/asm"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (BPFBase.pp_instruction), which is not always as they are written:
// registers lower case and r10 as fp; offsets "+ k" or "- k"; a load
// "r1 = *(u32 *) (r2 + 0)" with a blank before the address, a store
// "*(u32 *)(r1 + 0) = r2" without; load_acquire's address also after a
// blank, store_release followed by one; xchg_32_32 and cmpxchg32_32 print
// as xchg32_32 and cmpxchg32_32, xchg_64 and cmpxchg_64 as written, every
// atomic with its source register on the left and cmpxchg with r0; labels
// renamed L00, L01, ... in the sorted order of every label the program
// defines or names.

func hashCode(tab *table) [][]string {
	return asm.HashCode(tab, jumpTarget, hashInstr)
}

// jumpTarget gives the label a jump names.
func jumpTarget(in *instr) (string, bool) {
	if in.form == gotoLabel || in.form == ifReg || in.form == ifImm {
		return in.target.name, true
	}
	return "", false
}

// hashReg prints a register as herd7 does (BPFBase.pp_reg).
func hashReg(o operand) string {
	n, ok := regNumber(o.name)
	switch {
	case !ok:
		return o.name
	case n == 10:
		return "fp"
	}
	return canonicalReg(n)
}

// hashOffset is herd7's pp_k.
func hashOffset(k int64) string {
	if k < 0 {
		return "- " + strconv.FormatInt(-k, 10)
	}
	return "+ " + strconv.FormatInt(k, 10)
}

// hashAtomicSize is herd7's pp_amo_xchg_s: the suffix of xchg and cmpxchg.
func hashAtomicSize(fn string) string {
	switch fn {
	case "xchg_32_32", "cmpxchg32_32":
		return "32_32"
	}
	return "_64"
}

func hashInstr(in *instr, rename map[string]string) string {
	r := make([]string, len(in.regs))
	for i, o := range in.regs {
		r[i] = hashReg(o)
	}
	imm := strconv.FormatInt(in.imm, 10)
	var base, off string
	var width int
	if in.ptr != nil {
		base, off, width = hashReg(in.ptr.base), hashOffset(in.ptr.offset), in.ptr.width
	}
	switch in.form {
	case aluReg:
		return r[0] + " " + in.op + " " + r[1]
	case aluImm:
		return r[0] + " " + in.op + " " + imm
	case movReg:
		return r[0] + " = " + r[1]
	case movImm:
		return r[0] + " = " + imm
	case load:
		return fmt.Sprintf("%s = *(u%d *) (%s %s)", r[0], width, base, off)
	case store:
		return fmt.Sprintf("*(u%d *)(%s %s) = %s", width, base, off, r[0])
	case storeImm:
		return fmt.Sprintf("*(u%d *)(%s %s) = %s", width, base, off, imm)
	case loadFunc:
		return fmt.Sprintf("%s = load_acquire((u%d *) (%s %s))", r[0], width, base, off)
	case storeFunc:
		return fmt.Sprintf("store_release ((u%d *)(%s %s), %s)", width, base, off, r[0])
	case fetchFunc:
		return fmt.Sprintf("%s = %s((u%d *)(%s %s), %s)", r[1], in.fn, width, base, off, r[1])
	case xchgFunc:
		return fmt.Sprintf("%s = xchg%s(%s %s, %s)", r[1], hashAtomicSize(in.fn), base, off, r[1])
	case cmpxchgFunc:
		return fmt.Sprintf("r0 = cmpxchg%s(%s %s, r0, %s)", hashAtomicSize(in.fn), base, off, r[2])
	case lockOp:
		return fmt.Sprintf("lock *(u%d *)(%s %s) %s %s", width, base, off, in.op, r[0])
	case gotoLabel:
		return "goto " + rename[in.target.name]
	case ifReg:
		return fmt.Sprintf("if %s %s %s goto %s", r[0], in.op, r[1], rename[in.target.name])
	case ifImm:
		return fmt.Sprintf("if %s %s %s goto %s", r[0], in.op, imm, rename[in.target.name])
	}
	return in.text
}
