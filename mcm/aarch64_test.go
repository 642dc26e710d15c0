package mcm

import "testing"

// lbPick is a load buffering test whose P0 carries a pick dependency
// (CSEL on the loaded value of x) into a store to z, then runs tail (a
// read of z, through memory, and what follows it) before its store to y;
// P1 orders its read of y before its write of x by a full barrier. The
// claim (both reads see the other thread's write) fails exactly when P0
// orders its read of x before its write of y.
func lbPick(name, tail string) string {
	return "AArch64 " + name + `
{ 0:X1=x; 0:X4=2; 0:X5=z; 0:X8=y; 0:X9=w; 1:X1=y; 1:X3=x; }
 P0               | P1          ;
 LDR W0,[X1]      | LDR W0,[X1] ;
 CMP W0,#1        | DMB SY      ;
 CSEL W2,W3,W4,EQ | MOV W2,#1   ;
 STR W2,[X5]      | STR W2,[X3] ;
` + tail + ` MOV W7,#1        |             ;
 STR W7,[X8]      |             ;
exists (0:X0=1 /\ 1:X0=1)
`
}

// TestAArch64PickThroughMemory checks the embedded aarch64 model on pick
// dependencies that run through memory: a store the dependency reaches,
// then the thread's own read of it. herd7's aarch64.cat orders the source
// read before a later write when that read orders the write (its
// pick-lob: pick-basic-dep; lob; [W]), but a read after it only through
// the pick dependency and an acquire is not ordered (pob ends at writes).
// The verdicts are the ones herd7's model gives by its definitions.
func TestAArch64PickThroughMemory(t *testing.T) {
	model := embeddedModel(t, "aarch64")
	for _, c := range []struct {
		name, src string
		verdict   string // herd's Ok (the claim can hold) or No
	}{
		// The acquire read of z reads the picked write: [A]; po orders
		// the store to y after it, so after the read of x.
		{"acquire", lbPick("LB+pick-rfi-acq+dmb",
			" LDAR W6,[X5]     |             ;\n"), "No"},
		// The same with an acquire-PC read (Q).
		{"acquire-pc", lbPick("LB+pick-rfi-acqpc+dmb",
			" LDAPR W6,[X5]    |             ;\n"), "No"},
		// Two hops through memory: the read of z copies the value into w,
		// and the acquire read of w comes after that.
		{"two hops", lbPick("LB+pick-rfi-data-rfi-acq+dmb",
			" LDR W6,[X5]      |             ;\n STR W6,[X9]      |             ;\n LDAR W10,[X9]    |             ;\n"), "No"},
		// An acquire read-modify-write reads the picked write.
		{"acquire atomic", lbPick("LB+pick-rfi-ldadda+dmb",
			" MOV W9,#2        |             ;\n LDADDA W9,W6,[X5] |             ;\n"), "No"},
		// A plain read of z orders nothing after it: the store to y is free.
		{"plain read", lbPick("LB+pick-rfi-po+dmb",
			" LDR W6,[X5]      |             ;\n"), "Ok"},
		// Message passing: the acquire read after the picked write orders
		// the read of x after it, but nothing orders the read of the flag
		// before that acquire read (pick-lob ends at writes).
		{"reads stay unordered", `AArch64 MP+rel+pick-rfi-acq
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X4=2; 1:X5=z; 1:X8=x; }
 P0           | P1               ;
 MOV W0,#1    | LDR W0,[X1]      ;
 STR W0,[X1]  | CMP W0,#1        ;
 MOV W2,#1    | CSEL W2,W3,W4,EQ ;
 STLR W2,[X3] | STR W2,[X5]      ;
              | LDAR W6,[X5]     ;
              | LDR W9,[X8]      ;
exists (1:X0=1 /\ 1:X9=0)
`, "Ok"},
	} {
		lt := inlineTest(t, c.src)
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(model, lt, engineOptions(engine, 2))
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, engine, err)
			}
			if got := out.Result(lt, false).Verdict.String(); got != c.verdict {
				t.Errorf("%s, %s: %s, want %s", c.name, engine, got, c.verdict)
			}
		}
	}
}
