package bpf_test

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestRefused checks that what purr does not model is refused at the
// instruction or operand, with the reason.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"arithmetic shift", " r1 s>>= 2 ;", "t.litmus:4:2: unsupported operator s>>=: herd7's BPF semantics does not implement it"},
		{"atomic subtraction", " lock *(u32 *)(r1 + 0) -= r2 ;", "t.litmus:4:2: unsupported atomic operator -=: herd7's BPF atomics are +=, &=, |= and ^="},
		{"offset", " r2 = *(u32 *)(r1 + 4) ;", "t.litmus:4:16: unsupported offset 4: purr reads (r + 0) only, the whole location r points to"},
		{"negative offset", " *(u32 *)(r1 - 8) = 1 ;", "t.litmus:4:11: unsupported offset -8: purr reads (r + 0) only, the whole location r points to"},
		{"unknown load function", " r2 = load_relaxed((u32 *)(r1 + 0)) ;", "t.litmus:4:7: unsupported function load_relaxed: herd7's BPF loads with load_acquire only"},
		{"unknown store function", " store_once((u32 *)(r1 + 0), r2) ;", "t.litmus:4:2: unsupported function store_once: herd7's BPF stores with store_release only"},
		{"unknown fetch", " r2 = atomic_fetch_sub((u64 *)(r1 + 0), r2) ;", "t.litmus:4:7: unsupported function atomic_fetch_sub: herd7's BPF fetches with atomic_fetch_add, _and, _or and _xor"},
		{"unknown exchange", " r2 = xchg_16(r1 + 0, r2) ;", "t.litmus:4:7: unsupported function xchg_16: herd7's BPF exchanges with xchg_64 and xchg_32_32"},
		{"unknown cmpxchg", " r0 = cmpxchg_32(r1 + 0, r0, r2) ;", "t.litmus:4:7: unsupported function cmpxchg_32: herd7's BPF compares and exchanges with cmpxchg_64 and cmpxchg32_32"},
		{"not a register", " r11 = 1 ;", "t.litmus:4:2: expected a register r0 ... r10 (or fp), found r11"},
		{"location as register", " x = r1 ;", "t.litmus:4:2: expected a register r0 ... r10 (or fp), found x"},
		{"undefined label", " goto L9 ;", "t.litmus:4:7: label L9 is not defined in P0"},
		{"label twice", " L: r1 = 1 ;\n L: r1 = 2 ;", "t.litmus:5:2: label L is defined twice in P0"},
		{"syntax", " r1 = = 2 ;", "t.litmus:4:7: no viable alternative at input 'r1=='"},
		{"thread name", "", "t.litmus:3:2: found P1 where P0 should be: herd7 requires the threads P0, P1, ... in this order (\"Processes must be P0, P1, ...\")"},
	} {
		t.Run(c.name, func(t *testing.T) {
			head := " P0 ;\n"
			if c.code == "" {
				head, c.code = " P1 ;\n", " r1 = 1 ;"
			}
			src := "BPF T\n{ }\n" + head + c.code + "\nexists (x=1)\n"
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

// TestStateRegisters checks that the state and the condition name the
// registers as the code does (R3 is r3, fp is r10) and that a name that is
// no register of herd7's BPF is refused.
func TestStateRegisters(t *testing.T) {
	src := "BPF T\n{ 0:R1=x; 0:fp=y; }\n P0 ;\n r2 = *(u32 *)(r1 + 0) ;\n *(u32 *)(r10 + 0) = r2 ;\nexists (0:R2=0 /\\ y=0)\n"
	test, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := test.ConditionString(); got != "exists (0:r2=0 /\\ [y]=0)" {
		t.Errorf("condition %s", got)
	}
	if _, err := litmus.Parse("t.litmus", []byte(strings.Replace(src, "0:fp=y", "0:sp=y", 1))); err == nil || !strings.Contains(err.Error(), "0:sp is no register of herd7's BPF") {
		t.Errorf("0:sp accepted or refused for another reason: %v", err)
	}
}
