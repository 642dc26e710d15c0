package litmus_test

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/dialects"
)

const (
	mpAArch64 = `AArch64 MP
{
0:X1=x; 0:X3=y;
1:X1=y; 1:X3=x;
}
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X1] ;
 STR W0,[X1] | LDR W2,[X3] ;
 MOV W2,#1   |             ;
 STR W2,[X3] |             ;
exists (1:X0=1 /\ 1:X2=0)
`
	sbX86 = `X86 SB
{ 0:EAX=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)
`
	mpBPF = `BPF MP
{ 0:r1=data; 0:r2=flag; 0:r4=1; 1:r1=data; 1:r2=flag; }
 P0                    | P1                    ;
 *(u32 *)(r1 + 0) = 1  | r5 = *(u32 *)(r2 + 0) ;
 *(u32 *)(r2 + 0) = r4 | r6 = *(u32 *)(r1 + 0) ;
exists (1:r5=1 /\ 1:r6=0)
`
	sbC = `C SB
{ x=0; }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
}
P1 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(y, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (0:r0=0 /\ 1:r0=0)
`
)

// TestMalformedRefused gives the parser mutants of well-formed tests that
// herd7 refuses because they no longer mean one thing, in each dialect
// where the shape applies, and checks that purr refuses each at the
// position of the fault with herd7's reason.
func TestMalformedRefused(t *testing.T) {
	for _, c := range []struct {
		name, src, old, new string
		at, reason          string
	}{
		// A location or register initialised twice.
		{"aarch64-register-twice", mpAArch64, "1:X3=x;", "1:X3=x; 1:X1=x;", "4:17", `"Location 1:X1 is initialized more than once"`},
		{"aarch64-location-twice", mpAArch64, "{\n", "{\nx=1; x=2;\n", "3:6", `"Location x is initialized more than once"`},
		{"aarch64-location-bracketed", mpAArch64, "{\n", "{\nx=1; [x]=2;\n", "3:7", `"Location x is initialized more than once"`},
		{"aarch64-two-views", mpAArch64, "0:X3=y;", "0:X3=y; 0:W1=y;", "3:17", "0:X1 is initialised twice, under two names of one register"},
		{"x86-location-twice", sbX86, "{ 0:EAX=0; }", "{ x=1; x=2; }", "2:8", `"Location x is initialized more than once"`},
		{"x86-register-twice", sbX86, "{ 0:EAX=0; }", "{ 0:EAX=0; 0:EAX=1; }", "2:12", `"Location 0:EAX is initialized more than once"`},
		{"bpf-register-twice", mpBPF, "1:r2=flag; }", "1:r2=flag; 0:r1=flag; }", "2:55", `"Location 0:r1 is initialized more than once"`},
		{"bpf-two-views", mpBPF, "1:r2=flag; }", "1:r2=flag; 1:R2=flag; }", "2:55", "1:r2 is initialised twice, under two names of one register"},
		{"c-location-twice", sbC, "{ x=0; }", "{ x=1; x=2; }", "2:8", `"Location x is initialized more than once"`},
		{"c-typed-location-twice", sbC, "{ x=0; }", "{ int x=1; int x=2; }", "2:16", `"Location x is initialized more than once"`},
		{"c-register-twice", sbC, "{ x=0; }", "{ 0:r0=1; 0:r0=2; }", "2:11", `"Location 0:r0 is initialized more than once"`},
		// Names that are no register.
		{"aarch64-not-a-register", mpAArch64, "1:X3=x;", "1:X3=x; 1:X11x;", "4:17", `"X11x is not a register"`},
		{"aarch64-dash", mpAArch64, "1:X3=x;", "1:X3=x; 2:X-3=z;", "4:17", `"X-3 is not a register"`},
		{"aarch64-condition", mpAArch64, "1:X2=0)", "1:X31=0)", "11:19", `"X31 is not a register"`},
		// Registers purr does not model: refused, not read as registers no
		// instruction writes.
		{"aarch64-vector-register", mpAArch64, "1:X3=x;", "1:X3=x; 1:V3=1;", "4:17", "1:V3 is a vector, SVE, capability or system register"},
		{"aarch64-system-register", mpAArch64, "1:X2=0)", "1:ELR_EL1=0)", "11:19", "1:ELR_EL1 is a vector, SVE, capability or system register"},
		{"x86-not-a-register", sbX86, "{ 0:EAX=0; }", "{ 1:EXX=2; }", "2:3", `"EXX is not a register"`},
		{"x86-lower-case", sbX86, "{ 0:EAX=0; }", "{ 0:eax=2; }", "2:3", `"eax is not a register"`},
		{"bpf-not-a-register", mpBPF, "1:r2=flag; }", "1:r2=flag; 0:r255=1; }", "2:55", `"r255 is not a register"`},
		// ADR of a data location: herd7 takes ADR's operand for a label.
		{"aarch64-adr-of-data", mpAArch64, " MOV W2,#1   |             ;", " ADR X5,y    |             ;", "9:9", `"Label y not found on P0, although used in the instruction ADR X5,y"`},
		// A program row cut short or run together with the next.
		{"aarch64-short-row", mpAArch64, " STR W0,[X1] | LDR W2,[X3] ;", " STR W0,[X1] ;", "8:2", `"mismatch in instruction lines"`},
		{"aarch64-long-row", mpAArch64, " STR W0,[X1] | LDR W2,[X3] ;", " STR W0,[X1] | LDR W2,[X3] | NOP ;", "8:2", `"mismatch in instruction lines"`},
		{"x86-short-row", sbX86, " MOV EAX,[y] | MOV EAX,[x] ;", " MOV EAX,[y] ;", "5:2", `"mismatch in instruction lines"`},
		{"bpf-short-row", mpBPF, " *(u32 *)(r2 + 0) = r4 | r6 = *(u32 *)(r1 + 0) ;", " *(u32 *)(r2 + 0) = r4 ;", "5:2", `"mismatch in instruction lines"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.src, c.old) {
				t.Fatalf("the test has no %q", c.old)
			}
			if _, err := litmus.Parse("mutant.litmus", []byte(c.src)); err != nil {
				t.Fatalf("the test itself is refused: %v", err)
			}
			src := strings.Replace(c.src, c.old, c.new, 1)
			_, err := litmus.Parse("mutant.litmus", []byte(src))
			if err == nil {
				t.Fatalf("accepted:\n%s", src)
			}
			if want := "mutant.litmus:" + c.at + ": "; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("got %v\nwant it at %s with %s", err, want, c.reason)
			}
		})
	}
}
