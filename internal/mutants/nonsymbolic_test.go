package mutants

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm"
)

// TestNonSymbolicAccessRefused checks, with both engines, that an access
// through a register that holds a number rather than an address (its
// line of the initial state deleted, a null pointer) is refused at the
// access with herd7's reason, in each dialect. An address read from
// memory is refused when a candidate execution makes it a number for a
// write (TestWriteThroughNumberReadFromMemoryRefused), not for a read
// (TestAddressReadFromMemoryAnswered).
func TestNonSymbolicAccessRefused(t *testing.T) {
	const reason = `"Non-symbolic memory access found on '[0]'"`
	for _, c := range []struct{ name, src, at string }{
		{"aarch64-store", `AArch64 MP
{
0:X3=y;
1:X1=y; 1:X3=x;
}
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X1] ;
 STR W0,[X1] | LDR W2,[X3] ;
 MOV W2,#1   |             ;
 STR W2,[X3] |             ;
exists (1:X0=1 /\ 1:X2=0)
`, "8:2"},
		{"aarch64-load", `AArch64 MP
{
0:X1=x; 0:X3=y;
1:X3=x;
}
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X1] ;
 STR W0,[X1] | LDR W2,[X3] ;
 MOV W2,#1   |             ;
 STR W2,[X3] |             ;
exists (1:X0=1 /\ 1:X2=0)
`, "7:16"},
		{"x86-store", `X86 deref
{ 0:ESI=y; }
 P0             ;
 MOV [EBX],$1   ;
 MOV EAX,(EBX)  ;
 XCHG [ESI],EAX ;
forall (0:EAX=0 /\ y=1)
`, "4:2"},
		{"bpf-store", `BPF MP
{ 0:r2=flag; 0:r4=1; 1:r1=data; 1:r2=flag; }
 P0                    | P1                    ;
 *(u32 *)(r1 + 0) = 1  | r5 = *(u32 *)(r2 + 0) ;
 *(u32 *)(r2 + 0) = r4 | r6 = *(u32 *)(r1 + 0) ;
exists (1:r5=1 /\ 1:r6=0)
`, "4:2"},
		{"c-null-pointer-store", `C P
{ }
P0 (int *x) {
  int *r1 = 0;
  *r1 = 1;
}
exists (x=0)
`, "5:3"},
		{"c-null-pointer-load", `C P
{ }
P0 (int *x) {
  int *r1 = 0;
  int r2 = *r1;
}
exists (x=0)
`, "5:12"},
	} {
		t.Run(c.name, func(t *testing.T) { refusedByBothEngines(t, c.src, c.at, reason) })
	}
}

// TestWriteThroughNumberReadFromMemoryRefused checks, with both engines,
// that a write through a pointer read from memory is refused at the write
// when a candidate execution, whatever the model, reads 0 for the
// pointer: herd7 stops on the Linux kernel's C-JO-OOTA-7 so ("Non-symbolic
// memory access found on '[0]'"). Any pairing of reads with writes makes
// a candidate, even one the model rejects (the last case: a read of a
// later write of its own thread).
func TestWriteThroughNumberReadFromMemoryRefused(t *testing.T) {
	const reason = `"Non-symbolic memory access found on '[0]'"`
	for _, c := range []struct{ name, src, at string }{
		{"aarch64", `AArch64 S
{ 0:X1=p; 1:X1=p; 1:X3=x; 0:X3=1; }
 P0          | P1          ;
 LDR X2,[X1] | STR X3,[X1] ;
 STR X3,[X2] |             ;
exists (x=1)
`, "5:2"},
		{"c", `C W
{ }
P0(int *x, int *y) {
  int *r1 = *y;
  *r1 = 1;
}
P1(int *x, int *y) {
  *y = x;
}
exists (x=1)
`, "5:3"},
		{"c-in-a-branch", `C C-JO-OOTA-7-like
{ 0:r2=a; }
P0(int *a, int *x) {
  int r1 = *x;
  int *r2;
  if (r1 == 1) {
    r2 = *a;
  }
  *r2 = 1;
}
P1(int *x) {
  *x = 1;
}
exists (0:r1=1)
`, "9:3"},
		{"c-read-of-a-later-write", `C W2
{ y=x; }
P0(int *x, int *y) {
  int *r1 = *y;
  *r1 = 1;
  *y = 0;
}
exists (x=1)
`, "5:3"},
	} {
		t.Run(c.name, func(t *testing.T) { refusedByBothEngines(t, c.src, c.at, reason) })
	}
}

// TestIllegalOperationRefused checks, with both engines, that an
// operation with no value on an address (EOR of two addresses, AND with a
// mask, a 32-bit view of one on AArch64 and X86_64) is refused at its
// instruction when a candidate execution computes it, whatever the model:
// herd7 stops ("Illegal operation ^ on x and p", "Illegal operation mask32
// on x").
// The false-dependency idiom EOR X3,X1,X1 has a value, and is answered.
func TestIllegalOperationRefused(t *testing.T) {
	for _, c := range []struct{ name, src, at, reason string }{
		{"aarch64-eor-of-address-read", `AArch64 I
{ 0:X1=p; p=x; 1:X1=p; 1:X2=y; }
 P0              | P1          ;
 LDR X2,[X1]     | STR X2,[X1] ;
 EOR X3,X2,X1    |             ;
exists (0:X3=0)
`, "5:2", `"Illegal operation ^ on x and p"`},
		{"aarch64-and-of-address-read", `AArch64 I
{ 0:X1=p; p=x; }
 P0              ;
 LDR X2,[X1]     ;
 AND X3,X2,#255  ;
exists (0:X3=0)
`, "5:2", `"Illegal operation & on x and 255"`},
		{"aarch64-32-bit-view-of-an-address", `AArch64 W
{ 0:X1=x; }
 P0           ;
 MOV W3,W1    ;
exists (0:X3=0)
`, "4:2", `"Illegal operation mask32 on x"`},
		{"x86_64-32-bit-store-of-an-address", `X86_64 X
{ 0:rax=x; y=0; }
 P0              ;
 movl %eax,(y)   ;
exists (y=0)
`, "4:2", `"Illegal operation unset 32 bits to the left from 32th bit on x"`},
		{"x86_64-32-bit-load-of-an-address", `X86_64 X
{ int64_t *p = &x; 0:rbx=p; }
 P0                ;
 movl (%rbx),%eax  ;
exists (0:rax=0)
`, "4:2", `"Illegal operation unset 32 bits to the left from 32th bit on x"`},
	} {
		t.Run(c.name, func(t *testing.T) { refusedByBothEngines(t, c.src, c.at, c.reason) })
	}
	lt, err := litmus.Parse("idiom.litmus", []byte(`AArch64 I
{ 0:X1=p; p=x; }
 P0              ;
 LDR X2,[X1]     ;
 EOR X3,X2,X2    ;
 LDR X4,[X1,X3]  ;
exists (0:X4=x)
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := defaultModel(lt.Arch)
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{mcm.EngineSAT, mcm.EngineExplicit} {
		out, err := mcm.Check(m, lt, mcm.Options{Engine: engine})
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		if out.Positive != 1 {
			t.Fatalf("%s: %d positive executions, want 1", engine, out.Positive)
		}
	}
}

// TestAddressReadFromMemoryAnswered checks that a pointer read from
// memory, which may be the initial 0 of its location in pairings the
// model then forbids, does not make the test refused: herd7 answers such
// tests (LKMM's C-PPO000-019rcu), dropping the pairings.
func TestAddressReadFromMemoryAnswered(t *testing.T) {
	lt, err := litmus.Parse("rcu.litmus", []byte(`C rcu
{ y=a; }
P0(int *x, int *y) {
  *x = 1;
  *y = x;
}
P1(int *x, int *y, int *z) {
  int *r1 = *y;
  *z = r1;
  int *r2 = *z;
  int r3 = *r2;
}
exists (1:r1=x /\ 1:r2=x /\ 1:r3=0)
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := defaultModel(lt.Arch)
	if err != nil || m == nil {
		t.Fatalf("no model for %s: %v", lt.Arch, err)
	}
	for _, engine := range []string{mcm.EngineSAT, mcm.EngineExplicit} {
		if _, err := mcm.Check(m, lt, mcm.Options{Engine: engine}); err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
	}
}

// TestHerdRegressionRefusalsRefused checks, with both engines, the shapes
// of herd7's regression tests that herd7 is expected to refuse (A134,
// A177) and the store of a 32-bit view of an address: each is refused at
// the access with herd7's reason.
func TestHerdRegressionRefusalsRefused(t *testing.T) {
	for _, c := range []struct{ name, src, at, reason string }{
		{"array-out-of-bounds", `AArch64 A134
{ int64_t 0:X0=42; 0:X2 = v; int64_t v[2] = {1, 2} }
 P0                ;
 STR X0, [X2, #16] ;
exists (v[1] = 42)
`, "4:2", `"Out of bounds access on array v"`},
		{"read-32-bits-of-an-address", `AArch64 A177
{ int *p = &x; int x=1; 0:X2=p; }
 P0          ;
 LDR W0,[X2] ;
locations [0:X0;]
`, "4:2", `"Illegal operation mask32 on x"`},
		{"write-32-bits-of-an-address", `AArch64 W
{ 0:X1=x; 0:X0=y; }
 P0          ;
 STR W0,[X1] ;
exists (x=0)
`, "4:2", `"Illegal operation mask32 on y"`},
	} {
		t.Run(c.name, func(t *testing.T) { refusedByBothEngines(t, c.src, c.at, c.reason) })
	}
}

// refusedByBothEngines checks that both engines refuse the test src (read
// as mutant.litmus) at the line:col at, naming herd7's reason.
func refusedByBothEngines(t *testing.T, src, at, reason string) {
	t.Helper()
	lt, err := litmus.Parse("mutant.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := defaultModel(lt.Arch)
	if err != nil || m == nil {
		t.Fatalf("no model for %s: %v", lt.Arch, err)
	}
	for _, engine := range []string{mcm.EngineSAT, mcm.EngineExplicit} {
		_, err := mcm.Check(m, lt, mcm.Options{Engine: engine})
		if err == nil {
			t.Fatalf("%s: answered", engine)
		}
		if want := "mutant.litmus:" + at + ": "; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), reason) {
			t.Fatalf("%s: got %v\nwant it at %s with %s", engine, err, want, reason)
		}
	}
}
