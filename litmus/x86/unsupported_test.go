package x86_test

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"lock prefix", " LOCK; MOV [x],$1 ;", "t.litmus:4:2: unsupported LOCK prefix on MOV: purr models LOCK before ADD, XOR, INC, DEC, XCHG and CMPXCHG"},
		{"lock twice", " LOCK; LOCK; INC [x] ;", "t.litmus:4:8: LOCK prefix twice"},
		{"cmpxchg into an immediate", " CMPXCHG $1,EAX ;", "t.litmus:4:10: CMPXCHG's first operand must be a register or memory, found $1"},
		{"cmpxchg from memory", " CMPXCHG EAX,[x] ;", "t.litmus:4:14: CMPXCHG's second operand must be a register, found [x]"},
		{"indexed address", " MOV EAX,(EBX,ECX,4) ;", "t.litmus:4:10: unsupported indexed address (EBX,ECX,4): herd7's X86 has none (X86_64 has)"},
		{"segment prefix", " MOV EAX,%cs:[x] ;", "t.litmus:4:10: unsupported segment prefix in %cs:[x]: herd7's X86 has none"},
		{"movsd", " MOVSD ;", "t.litmus:4:2: unsupported instruction MOVSD: herd7 does not implement it"},
		{"or", " OR EAX,$1 ;", "t.litmus:4:2: unsupported instruction OR: herd7's X86 semantics has no case for it"},
		{"unknown mnemonic", " SUB EAX,$1 ;", "t.litmus:4:2: unsupported instruction SUB"},
		{"64-bit register", " MOV RAX,$1 ;", "t.litmus:4:6: unsupported register RAX: 64-bit registers belong to herd7's X86_64, not to X86"},
		{"lower-case register", " MOV eax,$1 ;", "t.litmus:4:6: unknown register eax: herd7's X86 registers are upper case (EAX)"},
		{"program counter", " MOV EAX,[EIP] ;", "t.litmus:4:10: unsupported register EIP: it is herd7's X86 program counter"},
		{"bare symbol", " MOV EAX,x ;", "t.litmus:4:10: expected a register, [x], [REG] or $n, found x"},
		{"paren symbol", " MOV EAX,(x) ;", "t.litmus:4:10: expected a register, [x], [REG] or $n, found x"},
		{"absolute address", " MOV EAX,[8] ;", "t.litmus:4:10: unsupported absolute address [8]: purr reads symbolic locations [x] only"},
		{"symbolic register", " MOV %r,$1 ;", "t.litmus:4:6: unsupported symbolic register %r"},
		{"immediate destination", " MOV $1,EAX ;", "t.litmus:4:6: an immediate cannot be written to: $1"},
		{"xchg of memory", " XCHG [x],[y] ;", "t.litmus:4:2: unsupported instruction with two memory operands: XCHG [x],[y]"},
		{"add of memory", " ADD [x],[y] ;", "t.litmus:4:2: unsupported instruction with two memory operands: ADD [x],[y]"},
		{"cmp of memory", " CMP [x],[y] ;", "t.litmus:4:2: unsupported instruction with two memory operands: CMP [x],[y]"},
		{"operand count", " MFENCE EAX ;", "t.litmus:4:2: MFENCE takes 0 operand(s), found 1"},
		{"undefined label", " JNE L9 ;", "t.litmus:4:6: label L9 is not defined in P0"},
		{"label twice", " L: MFENCE ;\n L: MFENCE ;", "t.litmus:5:2: label L is defined twice in P0"},
		{"thread name", "", "t.litmus:3:2: found P1 where P0 should be: herd7 requires the threads P0, P1, ... in this order (\"Processes must be P0, P1, ...\")"},
	} {
		t.Run(c.name, func(t *testing.T) {
			head := " P0 ;\n"
			if c.code == "" {
				head, c.code = " P1 ;\n", " MFENCE ;"
			}
			src := "X86 T\n{ }\n" + head + c.code + "\nexists (x=1)\n"
			_, err := litmus.Parse("t.litmus", []byte(src))
			if err == nil {
				t.Fatalf("accepted, want %q", c.want)
			}
			if got := strings.TrimSpace(err.Error()); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
