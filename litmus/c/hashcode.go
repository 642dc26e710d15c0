package c

import (
	"fmt"
	"strings"

	"github.com/purr-mcm/purr/litmus/c/internal/cast"
)

// Herd7 hashes a C test's program as litmus7 parses it: each thread
// function reprinted as "P0(int* x, _Atomic int* y) {\nBODY\n}\n", its
// parameters' types without their outer pointer in herd7's type syntax,
// BODY the text between the function's braces exactly as written. Each
// thread is one cell of the program's columns.

// hashCode prints the threads of tree as herd7 does for its hash.
func hashCode(tree *cast.Program) [][]string {
	var code [][]string
	for _, th := range tree.Threads {
		var params []string
		for _, p := range th.Params {
			params = append(params, hashType(p.Type)+"* "+p.Name.Name)
		}
		code = append(code, []string{fmt.Sprintf("%s(%s) {\n%s\n}\n", th.Name, strings.Join(params, ", "), th.BodyText)})
	}
	return code
}

// hashType prints a parameter's type without its outer pointer as herd7's
// CType.dump does: "int", "_Atomic int" (also for atomic_int), "volatile
// int", "int const", "int*" for a pointer to int.
func hashType(ts *cast.TypeSpec) string {
	var base string
	var atomic, volatile, constant bool
	for _, w := range ts.Words {
		switch w.Kind {
		case cast.Const:
			constant = true
		case cast.Volatile:
			volatile = true
		case cast.Atomic:
			atomic = true
		case cast.Struct:
			base = "struct " + w.Name
		default:
			base = w.Name
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
	for range max(ts.Pointers-1, 0) {
		s += "*"
	}
	return s
}
