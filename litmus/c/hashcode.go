package c

import (
	"fmt"
	"strings"

	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
)

// Herd7 hashes a C test's program as litmus7 parses it: each thread
// function reprinted as "P0(int* x, _Atomic int* y) {\nBODY\n}\n", its
// parameters' types without their outer pointer in herd7's type syntax,
// BODY the text between the function's braces exactly as written. Each
// thread is one cell of the program's columns.

// hashCode prints the threads of tree as herd7 does for its hash; text
// is the source the tree was parsed from.
func hashCode(tree cparser.IProgramContext, text []rune) [][]string {
	var code [][]string
	for _, th := range tree.AllThread() {
		var params []string
		for _, p := range th.AllParam() {
			params = append(params, hashType(p.TypeSpec())+"* "+p.IDENT().GetText())
		}
		blk := th.Block()
		from, to := blk.GetStart().GetStart()+1, blk.GetStop().GetStart()
		body := ""
		if from <= to && to <= len(text) {
			body = string(text[from:to])
		}
		code = append(code, []string{fmt.Sprintf("%s(%s) {\n%s\n}\n", th.PROC().GetText(), strings.Join(params, ", "), body)})
	}
	return code
}

// hashType prints a parameter's type without its outer pointer as herd7's
// CType.dump does: "int", "_Atomic int" (also for atomic_int), "volatile
// int", "int const", "int*" for a pointer to int.
func hashType(ts cparser.ITypeSpecContext) string {
	var base string
	var atomic, volatile, constant bool
	for _, w := range ts.AllTypeWord() {
		switch {
		case w.CONST() != nil:
			constant = true
		case w.VOLATILE() != nil:
			volatile = true
		case w.ATOMIC() != nil:
			atomic = true
		case w.STRUCT() != nil:
			base = "struct " + w.IDENT().GetText()
		default:
			base = w.GetText()
		}
	}
	if base == "atomic_int" {
		base, atomic = "int", true
	}
	// herd7's type: Atomic, Volatile and Const wrap the base in this order.
	s, wrapped := base, false
	if atomic {
		s, wrapped = "_Atomic "+s, true
	}
	if volatile {
		if wrapped {
			s += " volatile"
		} else {
			s, wrapped = "volatile "+s, true
		}
	}
	if constant {
		s += " const"
	}
	for range max(len(ts.AllPointer())-1, 0) {
		s += "*"
	}
	return s
}
