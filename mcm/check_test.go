package mcm

import (
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/internal/satengine"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

func inlineModel(t *testing.T, src string) *cat.Model {
	t.Helper()
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := l.LoadSource("inline.cat", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func inlineTest(t testing.TB, src string) *litmus.Test {
	t.Helper()
	lt, err := litmus.Parse("inline.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

// sb is store buffering: four executions under no model at all (each read
// reads the initial value or the other thread's write).
const sb = `AArch64 SB
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0          | P1          ;
 MOV W0,#1   | MOV W0,#1   ;
 STR W0,[X1] | STR W0,[X1] ;
 LDR W2,[X3] | LDR W2,[X3] ;
exists (0:X2=0 /\ 1:X2=0)
`

// TestWellFormedByConstruction checks that purr's encoding of rf and co
// already meets the well-formedness rules of stdlib/wellformed.cat: with
// or without them, a model without axioms has the same executions.
func TestWellFormedByConstruction(t *testing.T) {
	empty := inlineModel(t, `"no axioms"`+"\n")
	for _, path := range []string{"testdata/classic/2+2W.litmus", "testdata/classic/IRIW.litmus",
		"testdata/classic/SB+swps.litmus", "testdata/classic/CoWW.litmus"} {
		test := parseTestFile(t, repoPath(path))
		with, err := Check(empty, test, Options{Unroll: 2, wellFormedInFull: true})
		if err != nil {
			t.Fatal(err)
		}
		without, err := Check(empty, test, Options{Unroll: 2, skipWellFormed: true})
		if err != nil {
			t.Fatal(err)
		}
		if with.Positive+with.Negative != without.Positive+without.Negative || with.Positive+with.Negative == 0 {
			t.Errorf("%s: %d executions with the well-formedness rules, %d without",
				path, with.Positive+with.Negative, without.Positive+without.Negative)
		}
	}
}

// TestByConstructionNamesRules: every rule the SAT engine leaves out as
// met by construction is a check of stdlib/wellformed.cat (a renamed
// rule would otherwise be evaluated again, silently).
func TestByConstructionNamesRules(t *testing.T) {
	src, err := fs.ReadFile(stdlib.FS, "wellformed.cat")
	if err != nil {
		t.Fatal(err)
	}
	f, err := cat.Parse("wellformed.cat", src)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, st := range f.Stmts {
		if c, ok := st.(*ast.Check); ok {
			rules[c.Name] = true
		}
	}
	for _, name := range satengine.WellFormedByConstruction {
		if !rules[name] {
			t.Errorf("%s is no rule of wellformed.cat", name)
		}
	}
}

func TestOptionsAndConditions(t *testing.T) {
	empty := inlineModel(t, `"no axioms"`+"\n")
	for _, c := range []struct {
		name       string
		model      string
		test       string
		opt        Options
		pos, neg   int
		flags      []string
		wantStates int
	}{
		{name: "all executions", test: sb, pos: 1, neg: 3, wantStates: 4},
		{name: "speedcheck stops at the first witness", test: sb, opt: Options{Speedcheck: true}, pos: 1, neg: -1},
		{name: "max executions", test: sb, opt: Options{MaxExecutions: 2}, pos: -1, neg: -1, wantStates: 2},
		{name: "filter", test: sb[:len(sb)-len("exists (0:X2=0 /\\ 1:X2=0)\n")] + "filter (0:X2=1)\nexists (1:X2=0)\n",
			pos: 1, neg: 1, wantStates: 2},
		{name: "flag", model: `flag ~empty rf & ext as communicates` + "\n", test: sb, pos: 1, neg: 3,
			flags: []string{"communicates"}, wantStates: 4},
		{name: "undefined_unless", model: `undefined_unless empty rf & ext as racy` + "\n", test: sb, pos: 1, neg: 3,
			flags: []string{"*undef*"}, wantStates: 4},
		{name: "sc", model: `acyclic po | rf | co | fr as sc` + "\n", test: sb, pos: 0, neg: 3, wantStates: 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := empty
			if c.model != "" {
				m = inlineModel(t, c.model)
			}
			opt := c.opt
			opt.Unroll = 2
			out, err := Check(m, inlineTest(t, c.test), opt)
			if err != nil {
				t.Fatal(err)
			}
			if c.pos >= 0 && out.Positive != c.pos {
				t.Errorf("Positive %d, want %d", out.Positive, c.pos)
			}
			if c.neg >= 0 && out.Negative != c.neg {
				t.Errorf("Negative %d, want %d", out.Negative, c.neg)
			}
			if c.opt.Speedcheck && (out.Positive != 1 || out.Complete) {
				t.Errorf("speedcheck: Positive %d, complete %v; want one witness and an early stop", out.Positive, out.Complete)
			}
			if c.opt.MaxExecutions > 0 && (out.Positive+out.Negative != c.opt.MaxExecutions || out.Complete) {
				t.Errorf("max executions: %d executions, complete %v", out.Positive+out.Negative, out.Complete)
			}
			if c.wantStates > 0 && len(out.States) != c.wantStates {
				t.Errorf("%d states, want %d", len(out.States), c.wantStates)
			}
			if len(out.Flags) != len(c.flags) || (len(c.flags) > 0 && out.Flags[0] != c.flags[0]) {
				t.Errorf("flags %q, want %q", out.Flags, c.flags)
			}
		})
	}
}

// TestLoopBound checks herd7's unrolling: a loop that can fail forever is
// cut after --unroll iterations and the result says Loop.
func TestLoopBound(t *testing.T) {
	test := inlineTest(t, `AArch64 retry
{ x=1; 0:X0=x; }
 P0              ;
 L0:             ;
 LDXR W1,[X0]    ;
 MOV W3,#2       ;
 STXR W4,W3,[X0] ;
 CBNZ W4,L0      ;
forall (x=2)
`)
	for unroll, execs := range map[int]int{0: 1, 1: 2, 2: 3} {
		out, err := Check(embeddedModel(t, "sc"), test, Options{Unroll: unroll})
		if err != nil {
			t.Fatal(err)
		}
		if !out.Loop || out.Positive != execs || out.Negative != 0 {
			t.Errorf("unroll %d: loop %v, %d/%d executions; want a loop mark and %d executions",
				unroll, out.Loop, out.Positive, out.Negative, execs)
		}
	}
}

// TestValuesFlowFromTheInitialState checks, under a model without axioms,
// that no value justifies itself round a cycle of reads-from (herd7 drops
// such candidates: their equations have no solution), while x^x is zero
// before x is known, as in herd7, so a false dependency makes no cycle.
func TestValuesFlowFromTheInitialState(t *testing.T) {
	none := inlineModel(t, `"no axioms"`+"\n")
	for _, c := range []struct {
		name, src  string
		executions int
		states     []string
	}{
		// Copies round a cycle: the execution in which each read reads
		// the other thread's write has no value to start from.
		{"LB+copies", `AArch64 LB+copies
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0          | P1          ;
 LDR W0,[X1] | LDR W0,[X1] ;
 STR W0,[X3] | STR W0,[X3] ;
exists (0:X0=1 /\ 1:X0=1)
`, 3, []string{"0:X0=0;1:X0=0;"}},
		// P0 writes (v^v)+1 = 1 whatever it read: the cycle through P1
		// is determined, so both reads can see 1.
		{"LB+xor", `AArch64 LB+xor
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0           | P1          ;
 LDR W0,[X1]  | LDR W0,[X1] ;
 EOR W2,W0,W0 | STR W0,[X3] ;
 ADD W2,W2,#1 |             ;
 STR W2,[X3]  |             ;
exists (0:X0=1 /\ 1:X0=1)
`, 4, []string{"0:X0=0;1:X0=0;", "0:X0=0;1:X0=1;", "0:X0=1;1:X0=1;"}},
	} {
		lt := inlineTest(t, c.src)
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(none, lt, engineOptions(engine, 1))
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, engine, err)
			}
			var states []string
			for _, st := range out.States {
				states = append(states, outcome.StateKey(st))
			}
			sort.Strings(states)
			if out.Positive+out.Negative != c.executions || strings.Join(states, "|") != strings.Join(c.states, "|") {
				t.Errorf("%s, %s: %d executions, states %q; want %d, %q",
					c.name, engine, out.Positive+out.Negative, states, c.executions, c.states)
			}
		}
	}
}

// TestBoundedLeavesOutRuledOutPaths checks that --unroll N leaves out the
// paths an earlier assumption rules out, with the same executions and
// herd7's Loop mark: a CAS that succeeded does not go round its retry
// loop, one that failed does not go on (herd's four outcomes of a CAS
// made the paths grow fourfold an attempt); and a branch back to the loop
// that a read's value already ruled out is cut by herd7's unrolling,
// which marks Loop, though no execution takes it.
func TestBoundedLeavesOutRuledOutPaths(t *testing.T) {
	cas := inlineTest(t, `AArch64 cas-lock
{ 0:X0=l; 1:X0=l; }
 P0             | P1             ;
 MOV W5,#1      | MOV W5,#1      ;
 L0:            | L0:            ;
 MOV W2,#0      | MOV W2,#0      ;
 CAS W2,W5,[X0] | CAS W2,W5,[X0] ;
 CBNZ W2,L0     | CBNZ W2,L0     ;
 STR WZR,[X0]   | STR WZR,[X0]   ;
exists (l=1)
`)
	ruledOut := inlineTest(t, `AArch64 ruled-out
{ 0:X0=x; }
 P0          ;
 L0:         ;
 LDR W1,[X0] ;
 CBNZ W1,L1  ;
 CBNZ W1,L0  ;
 L1:         ;
exists (0:X1=0)
`)
	for _, c := range []struct {
		test       *litmus.Test
		unroll     int
		executions int
	}{
		// The counts of the unfolding with every path (the explicit
		// engine on it gives 112 at 2 in two minutes; the SAT engine
		// refused it, past two million clauses).
		{cas, 1, 48},
		{cas, 2, 112},
		{ruledOut, 2, 1},
	} {
		lc, err := newLoopCheck(t.Context(), embeddedModel(t, "sc"), c.test, Options{Unroll: c.unroll})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := lc.unfoldBounded()
		if err != nil {
			t.Fatal(err)
		}
		every, err := events.UnfoldWith(t.Context(), c.test.Program, lc.uopt, lc.initRegs, lc.initMem)
		if err != nil {
			t.Fatal(err)
		}
		if len(kept.Events) >= len(every.Events) || !kept.Cut || !every.Cut {
			t.Errorf("%s at %d: %d events of %d kept, cut %v (every path: %v); want fewer, both cut",
				c.test.Name, c.unroll, len(kept.Events), len(every.Events), kept.Cut, every.Cut)
		}
		out, err := Check(embeddedModel(t, "sc"), c.test, Options{Unroll: c.unroll})
		if err != nil {
			t.Fatal(err)
		}
		if !out.Loop || out.Positive+out.Negative != c.executions {
			t.Errorf("%s at %d: loop %v, %d executions; want Loop and %d", c.test.Name, c.unroll, out.Loop, out.Positive+out.Negative, c.executions)
		}
	}
}
