package lisa

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus/internal/asm"
	"github.com/purr-mcm/purr/litmus/lisa/internal/parser"
)

// herd7 hashes a test's program as it prints the parsed instructions back
// (BellBase.dump_instruction): "r[a,b] r1 x", "w[] x+r2 1",
// "rmw[] r1 (add r1 1) x", "f[mb]", "b[] r1 L00", "mov r1 (xor r2 r2)":
// annotations joined by ",", registers r<n>, numbers in decimal, labels
// renamed L00, L01, ... in the sorted order of every label the program
// defines or names.

func hashCode(tab *asm.Table[parser.Instr]) [][]string {
	return asm.HashCode(tab, jumpTarget, hashInstr)
}

// jumpTarget gives the label a branch names.
func jumpTarget(in *parser.Instr) (string, bool) {
	if in.Mnem != "b" || len(in.Ops) == 0 {
		return "", false
	}
	last := in.Ops[len(in.Ops)-1]
	if last.X == nil {
		return "", false
	}
	return last.X.Name, true
}

func hashValue(v parser.Value) string {
	switch v.Kind {
	case parser.NumVal:
		return strconv.FormatInt(v.Num, 10)
	case parser.NameVal:
		if n, ok := regNumber(v.Name); ok {
			return canonicalReg(n)
		}
	}
	return v.Text
}

func hashOperand(o parser.Operand) string {
	if o.Op != "" {
		args := make([]string, len(o.Args))
		for i, a := range o.Args {
			args[i] = hashValue(a)
		}
		return "(" + o.Op + " " + strings.Join(args, " ") + ")"
	}
	s := hashValue(*o.X)
	if o.Plus != nil {
		s += "+" + hashValue(*o.Plus)
	}
	return s
}

func hashInstr(in *parser.Instr, rename map[string]string) string {
	parts := []string{in.Mnem}
	if in.Mnem != "mov" {
		parts[0] += "[" + strings.Join(in.Annots, ",") + "]"
	}
	for i, o := range in.Ops {
		if l, ok := rename[hashOperand(o)]; ok && in.Mnem == "b" && i == len(in.Ops)-1 {
			parts = append(parts, l)
			continue
		}
		parts = append(parts, hashOperand(o))
	}
	return strings.Join(parts, " ")
}
