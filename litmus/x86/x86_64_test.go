package x86_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestHash64 checks digests against herd7's own output for one-instruction
// X86_64 programs (its regression expectations): a register operand and an
// initial register written in upper case (hashed as written), a sized
// exchange, byte stores of declared int8_t locations, a locations clause.
func TestHash64(t *testing.T) {
	for _, c := range []struct{ name, src, hash string }{
		{"and", "X86_64 A\n{ 0:RAX=1}\nP0;\nand %eax,%eax;\nforall 0:RAX=1\n", "0f619956115409bcfddfe64524121ac4"},
		{"movq", "X86_64 A\n{\n  uint64_t x;\n  0:RBX=0x202020202020202;\n}\n  P0            ;\n  MOVQ %RBX,(x) ;\nlocations [x;]\nforall [x] = 0x202020202020202\n",
			"a4f2c7b46c9fe04acb695c7d4ca4630b"},
		{"xchgl", "X86_64 A\n{\n  int y;\n}\n  P0         |  P1            ;\n movl $1,(y) | movl $2,%eax   ;\n             | xchgl (y),%eax ;\n~exists 1:rax=1 /\\ [y]=1\n",
			"49bac67e78712413113b7c93e987b364"},
		{"movb", "X86_64 A\n{\n int8_t x=0;\n int8_t y=0;\n}\n P0          | P1          ;\n movb $2,(x) | movb $2,(y) ;\n movb $1,(y) | movb $1,(x) ;\n\nexists ([x]=2 /\\ [y]=2)\n",
			"f312850a77fb8e88a342221481d0a7a7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			test, err := litmus.Parse("A.litmus", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := test.Hash(); got != c.hash {
				t.Errorf("hash %s, want %s", got, c.hash)
			}
		})
	}
}

// TestHashCode64 checks herd7's printing of X86_64 instructions for the
// hash (X86_64Base.dump_instruction): the mnemonic in lower case with its
// suffix, "$n" for n and $n, registers lower case with %, [x] as (x), a
// zero displacement dropped, jlt as jl, lock as "lock; ", labels renamed
// in sorted order on lines of their own.
func TestHashCode64(t *testing.T) {
	src := "X86_64 H\n{ 0:rbx=x; }\n P0 | P1 ;\n MOVQ 1,[x] | b: lock; incq 0(%rbx) ;\n cmp $-1,%EAX | decq 8(%rbx) ;\n" +
		" b: jne b | a: xchgq (y),%CL ;\n a: jlt a | jmp a ;\n mfence | NOP ;\nexists (0:rax=1)\n"
	test, err := litmus.Parse("H.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"movq $1,(x)", "cmp $-1,%eax", "L01:", "jne L01", "L00:", "jl L00", "mfence"},
		{"L01:", "lock; incq (%rbx)", "decq 8(%rbx)", "L00:", "xchgq (y),%cl", "jmp L00", "NOP"},
	}
	if got := test.HashCode; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("hash code %q, want %q", got, want)
	}
}

// TestRefused64 checks that what purr does not model in X86_64 is refused
// at the instruction, operand or location, with the reason.
func TestRefused64(t *testing.T) {
	for _, c := range []struct{ name, code, cond, want string }{
		{"mixed sizes", " movl $1,(x) | movq (x),%rax ;", "1:rax=1",
			"t.litmus:4:21: mixed-size accesses to x: movq (x),%rax (8 bytes) and t.litmus:4:10: movl $1,(x) (4 bytes); purr does not support mixed-size accesses"},
		{"sizes through a register", " movq $1,(%rbx) | movl (y),%eax ;", "1:rax=1",
			"t.litmus:4:10: movq $1,(%rbx) accesses 8 bytes at an address a register holds, while t.litmus:4:24: movl (y),%eax accesses 4 bytes: purr cannot tell that no location is accessed with both sizes; purr does not support mixed-size accesses"},
		{"32-bit register in a condition", " movl $1,%eax | ;", "0:eax=1",
			"t.litmus:5:9: register eax in a state or condition: herd7's X86_64 names registers there by their 64-bit names (rax)"},
		{"flag in a condition", " movl $1,%eax | ;", "0:zf=1",
			"t.litmus:5:9: unsupported register zf: purr's X86_64 states and conditions name the general-purpose registers rax ... r15, rip and cs"},
		{"program counter as an address", " movq (%rip),%rax | ;", "0:rax=1",
			"t.litmus:4:7: unsupported address register %rip: purr reads addresses from the general-purpose registers"},
		{"segment prefix", " movq %fs:(x),%rax | ;", "0:rax=1",
			"t.litmus:4:7: unsupported segment prefix %fs: herd7's X86_64 has one segment register, cs"},
		{"index without base", " movq (x,%rcx,4),%rax | ;", "0:rax=1",
			"t.litmus:4:7: an indexed address needs a base register, as in (%rax,%rcx,4), found (x,%rcx,4)"},
		{"flag as an index", " movq (%rbx,%rip,4),%rax | ;", "0:rax=1",
			"t.litmus:4:7: unsupported index %rip in (%rbx,%rip,4): an index is a general-purpose register"},
		{"lock on shl", " lock; shlq $1,(x) | ;", "0:rax=1", "t.litmus:4:2: unsupported LOCK prefix on SHLQ: herd7 refuses it"},
		{"symbolic register", " movq $1,%r | ;", "0:rax=1", "t.litmus:4:10: unsupported symbolic register %r"},
		{"32-bit address", " movq $1,(%ebx) | ;", "0:rax=1",
			"t.litmus:4:10: unsupported address register %ebx: purr reads addresses from 64-bit registers (%rbx)"},
		{"displacement of a symbol", " movq $1,8(x) | ;", "0:rax=1",
			"t.litmus:4:10: a displacement needs a register address, as in 8(%rax), found 8(x)"},
		{"absolute address", " movq $1,[8] | ;", "0:rax=1",
			"t.litmus:4:10: unsupported absolute address [8]: purr reads symbolic locations (x) only"},
		{"bare symbol", " movq x,%rax | ;", "0:rax=1", "t.litmus:4:7: expected a register, (x), (%reg) or $n, found x"},
		{"immediate destination", " movq %rax,$1 | ;", "0:rax=1", "t.litmus:4:12: an immediate cannot be written to: $1"},
		{"two memory operands", " addq (x),(y) | ;", "0:rax=1", "t.litmus:4:2: unsupported instruction with two memory operands: addq (x),(y)"},
		{"lock on mov", " lock; movq $1,(x) | ;", "0:rax=1", "t.litmus:4:2: unsupported LOCK prefix on MOVQ: herd7 refuses it"},
		{"cmpxchg in AT&T order", " lock; cmpxchgq %rbx,(x) | ;", "0:rax=1",
			"t.litmus:4:22: CMPXCHGQ's second operand must be a register (herd7's X86_64 reads cmpxchg ea,reg, the destination first), found (x)"},
		{"non-temporal store", " movnti %rax,(x) | ;", "0:rax=1",
			"t.litmus:4:2: unsupported instruction MOVNTI: purr does not model herd7's unlocked exchange and non-temporal stores"},
		{"cmp of an immediate", " cmpq %rax,$1 | ;", "0:rax=1", "t.litmus:4:12: CMPQ's second operand must be a register or memory, found $1"},
		{"unknown mnemonic", " subq $1,%rax | ;", "0:rax=1", "t.litmus:4:2: unsupported instruction SUBQ"},
		{"jump to a register", " jmp %rax | ;", "0:rax=1", "t.litmus:4:6: JMP takes a label, found %rax"},
		{"undefined label", " jne L9 | ;", "0:rax=1", "t.litmus:4:6: label L9 is not defined in P0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "X86_64 T\n{ }\n P0 | P1 ;\n" + c.code + "\nexists (" + c.cond + ")\n"
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

// FuzzParseX86_64 feeds arbitrary programs to the X86_64 dialect: errors
// are fine, panics are not.
func FuzzParseX86_64(f *testing.F) {
	for _, p := range []string{
		" P0 | P1 ;\n movl $1,(x) | movl (y),%eax ;\n mfence | L0: cmpl $1,%eax ;\n xchgq %rbx,(y) | jne L0 ;",
		" P0 ;\n lock; incl (x) ;\n cmovcq (%rbx),%rax ;\n setnb (x) ;\n jmp L ;\n L: ;\n movb $1,%ah ;",
		" P0 ;\n movw 8(%rbx),%si ;\n addq $-1,%r15d ;\n NOP ;",
		" P1 | P0 ;\n movq $1,%rax | ;",
		" P0 ;\n movl $1,8(%rbx,%rcx,4) ;\n lock cmpxchgq (x),%rbx ;\n shlq $1,%cs:(x) ;\n endbr64 ;",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		src := "X86_64 F\n{ 0:rbx=x; }\n" + strings.ReplaceAll(prog, "exists", "") + "\nexists (0:rax=1)\n"
		_, _ = litmus.Parse("f.litmus", []byte(src))
	})
}
