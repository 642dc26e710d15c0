package mcm

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestUnbounded checks --unroll none on loops of each kind: those the
// test's own values end are unrolled to their end, those whose iterations
// write are refused at the loop with the reason, unless an execution
// within one iteration settles the verdict (then the answer keeps its
// Loop mark and says the states are the bound's), and an exact answer
// carries no Loop mark and says it holds for every bound. (Retries are
// testdata/loops's, TestLoopsSuite.)
func TestUnbounded(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the verdict and the states, as stateSummary prints them
		witnessed bool   // settled by an execution within 1 iteration, not exact
		err       string // a refusal: what its message says
	}{
		{name: "a counter from a constant",
			src:  "AArch64 T\n{ }\n P0 ;\n MOV W0,#10 ;\n MOV W1,#0 ;\nL1: ;\n ADD W1,W1,#1 ;\n SUB W0,W0,#1 ;\n CBZ W0,L0 ;\n B L1 ;\nL0: ;\nforall 0:X1=10\n",
			want: "Ok 0:X1=10"},
		{name: "a loop that writes until it reads a flag",
			src: "AArch64 T\n{ 0:X1=x; 0:X3=y; 1:X1=x; }\n P0 | P1 ;\nL0: | MOV W0,#1 ;\n LDR W0,[X1] | STR W0,[X1] ;\n STR W0,[X3] | ;\n CBZ W0,L0 | ;\nexists (y=2)\n",
			err: "T.litmus:5:2: --unroll none: P0's loop does not end by the test's own values within 128 iterations, and its iterations are no retries (an iteration writes memory (T.litmus:6:2))"},
		{name: "the same loop, an execution settles exists",
			src:  "AArch64 T\n{ 0:X1=x; 0:X3=y; 1:X1=x; }\n P0 | P1 ;\nL0: | MOV W0,#1 ;\n LDR W0,[X1] | STR W0,[X1] ;\n STR W0,[X3] | ;\n CBZ W0,L0 | ;\nexists (y=1)\n",
			want: "Ok [y]=1", witnessed: true},
		{name: "the same loop, an execution settles ~exists",
			src:  "AArch64 T\n{ 0:X1=x; 0:X3=y; 1:X1=x; }\n P0 | P1 ;\nL0: | MOV W0,#1 ;\n LDR W0,[X1] | STR W0,[X1] ;\n STR W0,[X3] | ;\n CBZ W0,L0 | ;\n~exists (y=1)\n",
			want: "No [y]=1", witnessed: true},
		{name: "the same loop, an execution settles forall",
			src:  "AArch64 T\n{ 0:X1=x; 0:X3=y; 1:X1=x; }\n P0 | P1 ;\nL0: | MOV W0,#1 ;\n LDR W0,[X1] | STR W0,[X1] ;\n STR W0,[X3] | ;\n CBZ W0,L0 | ;\nforall (y=0)\n",
			want: "No [y]=1", witnessed: true},
		{name: "a loop that counts its reads",
			src: "AArch64 T\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n MOV W5,#0 | MOV W0,#1 ;\nL0: | STR W0,[X1] ;\n ADD W5,W5,#1 | ;\n LDR W0,[X1] | ;\n CBZ W0,L0 | ;\nexists (0:X5=7)\n",
			err: "an iteration changes register X5, which the code after the loop reads"},
	}
	m := embeddedModel(t, "aarch64")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test, err := litmus.Parse("T.litmus", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			for _, engine := range []string{EngineSAT, EngineExplicit} {
				out, err := Check(m, test, Options{Unroll: Unbounded, Engine: engine})
				if tt.err != "" {
					if err == nil || !strings.Contains(err.Error(), tt.err) {
						t.Errorf("%s: error %v, want one saying %q", engine, err, tt.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", engine, err)
				}
				if got := verdictAndStates(test, out); got != tt.want {
					t.Errorf("%s: %s, want %s", engine, got, tt.want)
				}
				if tt.witnessed {
					if b := out.Bound; !out.Loop || b == nil || b.Exact || !b.Witnessed || b.Unroll != Unbounded || b.Iterations != 1 || b.Why == "" {
						t.Errorf("%s: Loop %v, bound %+v: want Loop, a bound witnessed at 1 iteration, not exact", engine, out.Loop, out.Bound)
					}
					continue
				}
				if out.Loop || out.Bound == nil || !out.Bound.Exact || out.Bound.Unroll != Unbounded {
					t.Errorf("%s: Loop %v, bound %+v: want no Loop, an exact bound", engine, out.Loop, out.Bound)
				}
			}
		})
	}
}

// TestBoundExactness checks what --unroll N says of a loop the bound cut:
// exact when the test's own values end it within the bound, not exact
// (with the loop and why) when they do not.
func TestBoundExactness(t *testing.T) {
	const counter = "AArch64 T\n{ }\n P0 ;\n MOV W0,#3 ;\nL1: ;\n SUB W0,W0,#1 ;\n CBNZ W0,L1 ;\nforall 0:X0=0\n"
	test, err := litmus.Parse("T.litmus", []byte(counter))
	if err != nil {
		t.Fatal(err)
	}
	m := embeddedModel(t, "sc")
	for _, tt := range []struct {
		unroll int
		want   *outcome.Bound // nil: the bound cut nothing
	}{
		{unroll: 1, want: &outcome.Bound{Unroll: 1, Why: "P0's loop at T.litmus:6:2 is no retry: an iteration changes register X0, which the code after the loop reads; nor is the bound shown to be enough: a consistent execution goes past the bound"}},
		{unroll: 2, want: nil},
	} {
		out, err := Check(m, test, Options{Unroll: tt.unroll})
		if err != nil {
			t.Fatal(err)
		}
		got := out.Bound
		switch {
		case tt.want == nil && got != nil:
			t.Errorf("--unroll %d: bound %+v, want none", tt.unroll, got)
		case tt.want != nil && (got == nil || got.Exact != tt.want.Exact || got.Why != tt.want.Why || got.Unroll != tt.want.Unroll):
			t.Errorf("--unroll %d: bound %+v, want %+v", tt.unroll, got, tt.want)
		}
	}
}

// verdictAndStates prints an outcome's verdict and states in one line.
func verdictAndStates(test *litmus.Test, out *outcome.Outcome) string {
	res := out.Result(test, false)
	parts := []string{res.Verdict.String()}
	for _, st := range res.States {
		var b []string
		for _, x := range st.Bindings {
			b = append(b, x.Loc+"="+x.Value)
		}
		parts = append(parts, strings.Join(b, ";"))
	}
	return strings.Join(parts, " ")
}

// TestRetriesKeepUndefined checks that --unroll none keeps a retry under a
// model whose undefined_unless check (rc11's data races) a failed
// iteration may fail: the spin's plain read of d races with P0's write
// only in the iterations that read f=0, whether that write is plain or
// atomic (eval.FlagsKept must see the retry's own plain access to d).
func TestRetriesKeepUndefined(t *testing.T) {
	for _, write := range []string{"*d = 1;", "atomic_store_explicit((atomic_int *)d, 1, memory_order_relaxed);"} {
		test := inlineTest(t, `C race-in-retry
{}
P0(int *d, atomic_int *f) { `+write+` atomic_store_explicit(f, 1, memory_order_release); }
P1(int *d, atomic_int *f) {
	int s;
	while (atomic_load_explicit(f, memory_order_acquire) == 0) { s = *d; }
}
exists (d=1)
`)
		m := embeddedModel(t, "rc11")
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(m, test, Options{Unroll: Unbounded, Engine: engine})
			if err != nil {
				t.Fatalf("%s, %s: %v", write, engine, err)
			}
			if got := verdictAndStates(test, out); !strings.HasPrefix(got, "Undef") {
				t.Errorf("%s, %s: %s, want Undef", write, engine, got)
			}
		}
	}
}

// TestBoundedWitnessed checks that --unroll N says when an execution
// settles the verdict of a test whose loop it cannot decide, and only
// then.
func TestBoundedWitnessed(t *testing.T) {
	const prog = "AArch64 T\n{ 0:X1=x; 0:X3=y; 1:X1=x; }\n P0 | P1 ;\nL0: | MOV W0,#1 ;\n LDR W0,[X1] | STR W0,[X1] ;\n STR W0,[X3] | ;\n CBZ W0,L0 | ;\n"
	m := embeddedModel(t, "aarch64")
	for cond, want := range map[string]bool{"exists (y=1)": true, "exists (y=2)": false, "forall (y=1)": false, "forall (y=0)": true} {
		test, err := litmus.Parse("T.litmus", []byte(prog+cond+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Check(m, test, Options{Unroll: 2})
		if err != nil {
			t.Fatalf("%s: %v", cond, err)
		}
		if b := out.Bound; b == nil || b.Exact || b.Witnessed != want {
			t.Errorf("%s: bound %+v, want witnessed %v, not exact", cond, b, want)
		}
	}
}

// TestValueBound checks the proof that the values the reads may take end
// a loop whose iterations write (cutsByValues): under ARMv8, where po | rf
// may cycle, a ping-pong whose rounds end when an acknowledgement is
// stale is decided, with the reads the proof rests on, and its answer is
// that of a bound past every path; under a model that orders no
// dependency (a value could justify itself through one), it is not.
func TestValueBound(t *testing.T) {
	const rounds = "AArch64 T\n{ 0:X1=x; 0:X3=y; 1:X1=x; 1:X3=y; }\n P0 | P1 ;\n" +
		" MOV W5,#0 | MOV W6,#0 ;\nL0: | L1: ;\n LDR W2,[X3] | LDR W4,[X1] ;\n ADD W5,W5,#1 | CMP W4,W6 ;\n" +
		" STR %s,[X1] | B.NE L1 ;\n SUB W7,W5,#1 | ADD W6,W6,#1 ;\n CMP W2,W7 | ADD W8,W4,#1 ;\n B.EQ L0 | STR %s,[X3] ;\n" +
		" | CMP W6,#2 ;\n | B.NE L1 ;\nexists (0:X2=2 /\\ x=1)\n"
	aarch64 := embeddedModel(t, "aarch64")
	coherence := inlineModel(t, "coherence only\nacyclic po-loc | rf | co | fr as coherence\n")
	tests := []struct {
		name      string
		model     *cat.Model
		stored    string // what P0 stores: its count (W5), or the value it read (W2, a data dependency)
		acked     string // what P1 stores: its count (W6), or the value it read plus one (W8)
		precision []string
		tracked   []string // the abstraction's final precision
		refined   int      // how often it was refined
		err       string
	}{
		{name: "aarch64", model: aarch64, stored: "W5", acked: "W6",
			precision: []string{"P0 reads y at inline.litmus:6:2: 0, 1, 2"}, tracked: []string{}},
		{name: "aarch64, a data dependency", model: aarch64, stored: "W2", acked: "W6",
			precision: []string{"P0 reads y at inline.litmus:6:2: 0, 1, 2"}, tracked: []string{}},
		{name: "aarch64, acknowledgements computed from reads: refined", model: aarch64, stored: "W5", acked: "W8",
			precision: []string{"P0 reads y at inline.litmus:6:2: 0, 1, 2"}, tracked: []string{"x", "y"}, refined: 1},
		{name: "a model that orders no dependency", model: coherence, stored: "W2", acked: "W6",
			err: "nor do the values the reads may take show it, as a value might justify itself: its check coherence does not order P0's read at inline.litmus:6:2 before its write at inline.litmus:8:2, which may depend on it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := inlineTest(t, fmt.Sprintf(rounds, tt.stored, tt.acked))
			out, err := Check(tt.model, test, Options{Unroll: Unbounded})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := out.Bound
			if out.Loop || b == nil || !b.Exact || !b.Enough || !slices.Equal(b.Precision, tt.precision) || b.Rounds != 2 {
				t.Fatalf("Loop %v, bound %+v: want no Loop, enough by values %q in 2 rounds", out.Loop, b, tt.precision)
			}
			if !b.Abstracted || !slices.Equal(b.Tracked, tt.tracked) || b.Refinements != tt.refined {
				t.Errorf("abstraction %v, tracking %q after %d refinements; want tracking %q after %d", b.Abstracted, b.Tracked, b.Refinements, tt.tracked, tt.refined)
			}
			past, err := Check(tt.model, test, Options{Unroll: 10})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := verdictAndStates(test, out), verdictAndStates(test, past); got != want {
				t.Errorf("--unroll none: %s; --unroll 10: %s", got, want)
			}
		})
	}
}

// TestSilentRetriesShown checks that a test-and-set lock's failed
// exchanges are cut off as retries whether or not the final state or the
// filter shows the lock: each thread writes the lock again after a failed
// attempt (its successful exchange, its unlock), which sc orders after it
// in co, so a failed attempt is never the last write to the lock
// (TestShownLockNeedsAnotherWrite has one that may be).
func TestSilentRetriesShown(t *testing.T) {
	const lock = "C T\n{}\n" +
		"P0(atomic_int *l, atomic_int *x) { int r0; while (atomic_exchange_explicit(l, 1, memory_order_acquire) == 1) { } r0 = atomic_load_explicit(x, memory_order_relaxed); atomic_store_explicit(x, r0 + 1, memory_order_relaxed); atomic_store_explicit(l, 0, memory_order_release); }\n" +
		"P1(atomic_int *l, atomic_int *x) { int r0; while (atomic_exchange_explicit(l, 1, memory_order_acquire) == 1) { } r0 = atomic_load_explicit(x, memory_order_relaxed); atomic_store_explicit(x, r0 + 1, memory_order_relaxed); atomic_store_explicit(l, 0, memory_order_release); }\n"
	sc := embeddedModel(t, "sc")
	tests := []struct {
		name, tail string
		want       string // verdict and states
	}{
		{"the lock unseen", "exists (x=1)\n", "No [x]=2"},
		{"the lock in locations", "locations [l;]\nexists (x=1)\n", "No [l]=0;[x]=2"},
		{"the lock in the filter", "filter (l=0)\nexists (x=1)\n", "No [x]=2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := inlineTest(t, lock+tt.tail)
			out, err := Check(sc, test, Options{Unroll: Unbounded})
			if err != nil {
				t.Fatal(err)
			}
			if out.Loop || out.Bound == nil || !out.Bound.Exact {
				t.Fatalf("Loop %v, bound %+v: want an exact answer", out.Loop, out.Bound)
			}
			if got := verdictAndStates(test, out); got != tt.want || len(out.Bound.Retries) != 2 {
				t.Errorf("%s, retries %v: want %s with both locks' retries cut off", got, out.Bound.Retries, tt.want)
			}
		})
	}
}

// TestFlagsOfFencesAwayFromRetries checks that a flag whose witness is a
// fence (herd's aarch64fences.cat flags each DMB with a shareability
// domain) keeps no failed iteration when the retries hold no such fence:
// the spin is then one pass, a single execution, with the flag raised.
// With the fence inside the loop, a removed iteration might be the only
// one that raises it, and one is kept: the execution that spins once
// counts too.
func TestFlagsOfFencesAwayFromRetries(t *testing.T) {
	model := inlineModel(t, "FenceFlag\nacyclic po | rf | co | fr as sc\nflag ~empty DMB.ISH as ish-fence\n")
	const head = "AArch64 T\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n MOV W0,#1 | ;\n STR W0,[X1] | ;\n"
	tests := []struct {
		name, waiter string
		executions   int
	}{
		{"the fence before the loop", " | DMB ISH ;\n | L0: ;\n | LDR W0,[X1] ;\n | CBZ W0,L0 ;\n", 1},
		{"the fence inside the loop", " | L0: ;\n | DMB ISH ;\n | LDR W0,[X1] ;\n | CBZ W0,L0 ;\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := inlineTest(t, head+tt.waiter+"exists (1:X0=1)\n")
			out, err := Check(model, test, Options{Unroll: Unbounded})
			if err != nil {
				t.Fatal(err)
			}
			if out.Loop || out.Bound == nil || !out.Bound.Exact {
				t.Fatalf("Loop %v, bound %+v: want an exact answer", out.Loop, out.Bound)
			}
			if n := out.Positive + out.Negative; n != tt.executions || !slices.Contains(out.Flags, "ish-fence") {
				t.Errorf("%d executions, flags %q: want %d, with ish-fence", n, out.Flags, tt.executions)
			}
		})
	}
}
