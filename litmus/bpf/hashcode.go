package bpf

import (
	"fmt"
	"strconv"

	"github.com/purr-mcm/purr/litmus/bpf/internal/parser"
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

func hashCode(tab *asm.Table[parser.Instr]) [][]string {
	return asm.HashCode(tab, jumpTarget, hashInstr)
}

// jumpTarget gives the label a jump names.
func jumpTarget(in *parser.Instr) (string, bool) {
	if in.Form == parser.GotoLabel || in.Form == parser.IfReg || in.Form == parser.IfImm {
		return in.Target.Name, true
	}
	return "", false
}

// hashReg prints a register as herd7 does (BPFBase.pp_reg).
func hashReg(o parser.Operand) string {
	n, ok := regNumber(o.Name)
	switch {
	case !ok:
		return o.Name
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

func hashInstr(in *parser.Instr, rename map[string]string) string {
	r := make([]string, len(in.Regs))
	for i, o := range in.Regs {
		r[i] = hashReg(o)
	}
	imm := strconv.FormatInt(in.Imm, 10)
	var base, off string
	var width int
	if in.Ptr != nil {
		base, off, width = hashReg(in.Ptr.Base), hashOffset(in.Ptr.Offset), in.Ptr.Width
	}
	switch in.Form {
	case parser.AluReg:
		return r[0] + " " + in.Op + " " + r[1]
	case parser.AluImm:
		return r[0] + " " + in.Op + " " + imm
	case parser.MovReg:
		return r[0] + " = " + r[1]
	case parser.MovImm:
		return r[0] + " = " + imm
	case parser.Load:
		return fmt.Sprintf("%s = *(u%d *) (%s %s)", r[0], width, base, off)
	case parser.Store:
		return fmt.Sprintf("*(u%d *)(%s %s) = %s", width, base, off, r[0])
	case parser.StoreImm:
		return fmt.Sprintf("*(u%d *)(%s %s) = %s", width, base, off, imm)
	case parser.LoadFunc:
		return fmt.Sprintf("%s = load_acquire((u%d *) (%s %s))", r[0], width, base, off)
	case parser.StoreFunc:
		return fmt.Sprintf("store_release ((u%d *)(%s %s), %s)", width, base, off, r[0])
	case parser.FetchFunc:
		return fmt.Sprintf("%s = %s((u%d *)(%s %s), %s)", r[1], in.Fn, width, base, off, r[1])
	case parser.XchgFunc:
		return fmt.Sprintf("%s = xchg%s(%s %s, %s)", r[1], hashAtomicSize(in.Fn), base, off, r[1])
	case parser.CmpxchgFunc:
		return fmt.Sprintf("r0 = cmpxchg%s(%s %s, r0, %s)", hashAtomicSize(in.Fn), base, off, r[2])
	case parser.LockOp:
		return fmt.Sprintf("lock *(u%d *)(%s %s) %s %s", width, base, off, in.Op, r[0])
	case parser.GotoLabel:
		return "goto " + rename[in.Target.Name]
	case parser.IfReg:
		return fmt.Sprintf("if %s %s %s goto %s", r[0], in.Op, r[1], rename[in.Target.Name])
	case parser.IfImm:
		return fmt.Sprintf("if %s %s %s goto %s", r[0], in.Op, imm, rename[in.Target.Name])
	}
	return in.Text
}
