package mcm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestCutReachable asks, at several bounds, whether a consistent partial
// execution reaches a cut of the bound. Dekker's back-off runs at most
// once (under SC and RC11: coherence keeps the turn P0 gives), so the
// bound 1 is enough and 0 is not; a loop that writes until it reads
// another thread's write may run any number of times, also when the other
// thread's complete paths need what the loop writes after it (handshake:
// the other thread must stop early).
func TestCutReachable(t *testing.T) {
	tests := []struct {
		file, model string
		reached     map[int]bool // by bound
	}{
		{"dekker.c.litmus", "sc", map[int]bool{0: true, 1: false, 3: false}},
		{"dekker.c.litmus", "rc11", map[int]bool{0: true, 1: false, 2: false}},
		{"dekker.litmus", "sc", map[int]bool{0: true, 1: false, 3: false}},
		{"unbounded.c.litmus", "sc", map[int]bool{0: true, 1: true, 4: true}},
		{"unbounded.c.litmus", "rc11", map[int]bool{0: true, 2: true}},
		{"unbounded.litmus", "sc", map[int]bool{0: true, 1: true, 4: true}},
		{"handshake.c.litmus", "sc", map[int]bool{0: true, 1: true, 3: true}},
		// A CAS's read and write are unordered by po, but ARMv8's ob
		// holds them (rmw): the question is asked, not refused.
		{"cas-counter.litmus", "aarch64", map[int]bool{0: true, 1: false, 2: false}},
	}
	for _, tt := range tests {
		test := parseTestFile(t, "testdata/boundcheck/"+tt.file)
		m := embeddedModel(t, tt.model)
		for n, want := range tt.reached {
			got, err := cutReachable(context.Background(), m, test, Options{}, n)
			if err != nil {
				t.Fatalf("%s under %s, bound %d: %v", tt.file, tt.model, n, err)
			}
			if got != want {
				t.Errorf("%s under %s, bound %d: a cut reached %v, want %v", tt.file, tt.model, n, got, want)
			}
		}
	}
}

// TestCutReachableRefuses: a SWP's or a CAS's read and write are parts
// of one instruction that po leaves unordered, so sc's acyclic po | rf
// does not make the argument's order acyclic; and a model that walks
// sets that differ between executions needs the explicit engine, which
// has no partial executions.
func TestCutReachableRefuses(t *testing.T) {
	tas := parseTestFile(t, "testdata/boundcheck/tas.litmus")
	_, err := cutReachable(context.Background(), embeddedModel(t, "sc"), tas, Options{}, 1)
	if err == nil || !strings.Contains(err.Error(), "tas.litmus:9:2: purr cannot tell whether the bound 1 is enough") {
		t.Errorf("SWP loop: %v, want a refusal at the SWP", err)
	}
	cas := parseTestFile(t, "testdata/boundcheck/cas-counter.litmus")
	_, err = cutReachable(context.Background(), embeddedModel(t, "sc"), cas, Options{}, 1)
	if err == nil || !strings.Contains(err.Error(), "cas-counter.litmus:12:2: purr cannot tell whether the bound 1 is enough") {
		t.Errorf("CAS loop under sc: %v, want a refusal at the CAS", err)
	}
	varying := inlineModel(t, "\"varies\"\nlet f(s) = match s with {} -> 0 || e ++ _ -> po end\nacyclic f(R) | rf\n")
	unbounded := parseTestFile(t, "testdata/boundcheck/unbounded.litmus")
	_, err = cutReachable(context.Background(), varying, unbounded, Options{}, 1)
	if err == nil || !strings.Contains(err.Error(), "needs the explicit engine") {
		t.Errorf("a model that walks sets: %v, want a refusal", err)
	}
}

// TestCutReachableLimits: the formula's bounds refuse the question as
// they refuse a check, with a *LimitError.
func TestCutReachableLimits(t *testing.T) {
	test := parseTestFile(t, "testdata/boundcheck/dekker.litmus")
	_, err := cutReachable(context.Background(), embeddedModel(t, "sc"), test, Options{MaxVars: 10}, 1)
	var limit *LimitError
	if !errors.As(err, &limit) || limit.Limit != 10 {
		t.Errorf("err = %v, want a *LimitError of 10 variables", err)
	}
}

// TestReadWriteOrderKeepsPoRfAcyclic checks acyclicPoRf's second argument
// on executions: for every test of the suites whose reads a model that
// does not state po | rf acyclic orders before their po-later writes
// (eval.ReadWriteOrders, events.ReadWrites), no consistent execution at
// --unroll 2 has a cycle of po ∪ rf, nor of path order ∪ rf (amo's pairs
// of one instruction too: orderedInInstructions). The counts keep it from passing
// vacuously: LB+ shapes with dependencies, acquires, releases or fences
// qualify, and plain LB does not.
func TestReadWriteOrderKeepsPoRfAcyclic(t *testing.T) {
	suites := []struct {
		model, arch, dir string
		every, min       int    // every: the share of the suite under -short; min: of the ordered with pairs
		order            string // the model's relation that must hold every read-write pair of po
	}{
		{"aarch64", "AArch64", "testdata/loops", 1, 5, "ob"},
		{"aarch64", "AArch64", "testdata/classic", 1, 0, "ob"},
		{"riscv", "RISCV", "testdata/riscv", 1, 0, ""},
		{"ppc", "PPC", "testdata/ppc", 1, 0, ""},
		{"arm", "ARM", "testdata/arm", 1, 0, ""},
		{"aarch64", "AArch64", "corpus/herd-catalogue-aarch64", 1, 5, "ob"},
		{"aarch64", "AArch64", "corpus/dat3m-aarch64", 4, 200, "ob"},
		{"aarch64", "AArch64", "corpus/random-aarch64", 16, 0, "ob"},
		{"riscv", "RISCV", "corpus/riscv-official/tests/non-mixed-size", 16, 20, ""},
		{"ppc", "PPC", "corpus/dat3m-ppc", 16, 0, ""},
	}
	for _, s := range suites {
		t.Run(s.model+"/"+s.dir, func(t *testing.T) {
			tests, total := suiteTests(t, s.dir, s.arch, s.every)
			m := embeddedModel(t, s.model)
			model := eval.Model{Cat: m}
			if eval.ImpliesAcyclicPoRf(model) {
				t.Fatalf("%s states po | rf acyclic: nothing to check", s.model)
			}
			ordered, withPairs, visited, withAmo := 0, 0, 0, 0
			capture := []string{"amo"}
			if s.order != "" {
				capture = append(capture, s.order)
			}
			for _, lt := range tests {
				f := lt.File
				if acyclicPoRf(model, lt) != "" {
					continue
				}
				ordered++
				if rws, _ := events.ReadWrites(lt.Program); len(rws) > 0 {
					withPairs++
				}
				checkWithinLimits(t, m, lt, Options{Unroll: propertyBound(lt), Show: outcome.ShowAll, Capture: capture, Visit: func(v outcome.Visited) bool {
					x := v.Build(s.order == "")
					visited++
					if len(x.Relations["amo"]) > 0 {
						withAmo++
					}
					if cyc := poRfCycle(x); cyc != nil {
						t.Errorf("%s: execution %d has the cycle %v of po | rf", f, v.Index, cyc)
						return false
					}
					if cyc := cycleOf(x, slices.Concat(x.Relations["po"], x.Relations["rf"], x.Relations["amo"])); cyc != nil {
						t.Errorf("%s: execution %d has the cycle %v of po | rf | amo", f, v.Index, cyc)
						return false
					}
					if p, ok := unorderedReadWrite(x, s.order); ok {
						t.Errorf("%s: execution %d: %s leaves out po's read-write pair %v", f, v.Index, s.order, p)
						return false
					}
					return true
				}})
			}
			t.Logf("%d of %d tests ordered, %d of them with read-write pairs; %d executions, %d with amo", ordered, total, withPairs, visited, withAmo)
			if withPairs < s.min || ordered > 0 && visited == 0 {
				t.Errorf("%d tests with read-write pairs ordered, %d executions: want at least %d, and some", withPairs, visited, s.min)
			}
		})
	}
}

// suiteTests parses the tests of a folder (testdata's, or corpus/... of
// ../shared) and of its subfolders that are of the architecture, under
// -short every every-th file only; total is the number of files.
func suiteTests(t *testing.T, dir, arch string, every int) (tests []*litmus.Test, total int) {
	t.Helper()
	path := repoPath(dir)
	if strings.HasPrefix(dir, "corpus/") {
		path = shared.Path(t, dir)
	}
	files, _ := filepath.Glob(filepath.Join(path, "*.litmus"))
	sub, _ := filepath.Glob(filepath.Join(path, "*", "*.litmus"))
	files = append(files, sub...)
	for i, f := range files {
		if testing.Short() && i%every != 0 {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if lt, err := litmus.Parse(f, src); err == nil && lt.Arch == arch {
			tests = append(tests, lt)
		}
	}
	return tests, len(files)
}

// propertyBound is the bound at which the property tests enumerate a
// test's executions: 2, or 1 for the programs whose executions at 2 take
// the SAT engine minutes (a CAS's four outcomes in a loop).
func propertyBound(lt *litmus.Test) int {
	switch filepath.Base(lt.File) {
	case "aarch64-cas-lock.litmus", "aarch64-cas-lock-no-fence.litmus":
		return 1
	}
	return 2
}

// checkWithinLimits checks a test, failing on any error but the
// formula's limits (a test too large to check is no counterexample).
func checkWithinLimits(t *testing.T, m *cat.Model, lt *litmus.Test, opt Options) {
	t.Helper()
	if _, err := Check(m, lt, opt); err != nil {
		var limit *LimitError
		if !errors.As(err, &limit) {
			t.Errorf("%s: %v", lt.File, err)
		}
	}
}

// unorderedReadWrite returns a pair of po from a read to a write that the
// execution's relation order leaves out.
func unorderedReadWrite(x outcome.Execution, order string) (outcome.Edge, bool) {
	if order == "" {
		return outcome.Edge{}, false
	}
	in := map[outcome.Edge]bool{}
	for _, e := range x.Relations[order] {
		in[e] = true
	}
	for _, e := range x.Relations["po"] {
		if x.Events[e.From].Kind == "R" && x.Events[e.To].Kind == "W" && !in[e] {
			return e, true
		}
	}
	return outcome.Edge{}, false
}

// poRfCycle returns the events of a cycle of po ∪ rf, nil for none.
func poRfCycle(x outcome.Execution) []int {
	return cycleOf(x, append(slices.Clone(x.Relations["po"]), x.Relations["rf"]...))
}

// cycleOf returns the events of a cycle of edges over x's events, nil
// for none.
func cycleOf(x outcome.Execution, edges []outcome.Edge) []int {
	next := map[int][]int{}
	for _, e := range edges {
		next[e.From] = append(next[e.From], e.To)
	}
	const (
		white = iota
		grey
		black
	)
	color := map[int]int{}
	var stack []int
	var found []int
	var visit func(n int) bool
	visit = func(n int) bool {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range next[n] {
			switch color[m] {
			case grey:
				i := slices.Index(stack, m)
				found = slices.Clone(stack[i:])
				return true
			case white:
				if visit(m) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return false
	}
	for n := range x.Events {
		if color[n] == white && visit(n) {
			return found
		}
	}
	return nil
}

// TestJustificationKeepsDependenciesAcyclic checks acyclicJustification
// on executions: for every test of the suites whose reads the model
// orders before the writes that may depend on them, but not before every
// later write (so the bound check's argument does not cover it), no
// consistent execution at --unroll 2 has a cycle of rf and the
// dependencies herd records (data, addr, ctrl to a write), along which a
// value could justify itself. The counts keep it from passing vacuously:
// LB shapes with one dependent side qualify.
func TestJustificationKeepsDependenciesAcyclic(t *testing.T) {
	suites := []struct {
		model, arch, dir string
		every, min       int // every: the share of the suite under -short; min: the qualifying tests
	}{
		{"aarch64", "AArch64", "testdata/loops", 1, 2},
		{"aarch64", "AArch64", "testdata/classic", 1, 0},
		{"riscv", "RISCV", "testdata/riscv", 1, 0},
		{"aarch64", "AArch64", "corpus/herd-catalogue-aarch64", 1, 5},
		{"aarch64", "AArch64", "corpus/dat3m-aarch64", 4, 20},
		{"riscv", "RISCV", "corpus/riscv-official/tests/non-mixed-size", 16, 5},
	}
	for _, s := range suites {
		t.Run(s.model+"/"+s.dir, func(t *testing.T) {
			tests, total := suiteTests(t, s.dir, s.arch, s.every)
			m := embeddedModel(t, s.model)
			model := eval.Model{Cat: m}
			qualified, dependent := 0, 0 // dependent: executions with a dependency
			for _, lt := range tests {
				f := lt.File
				if why, _ := acyclicJustification(model, lt); why != "" || acyclicPoRf(model, lt) == "" {
					continue
				}
				qualified++
				checkWithinLimits(t, m, lt, Options{Unroll: propertyBound(lt), Show: outcome.ShowAll, Capture: []string{"data", "addr", "ctrl"},
					Visit: func(v outcome.Visited) bool {
						x := v.Build(false)
						if len(x.Relations["data"])+len(x.Relations["addr"])+len(x.Relations["ctrl"]) > 0 {
							dependent++
						}
						if cyc := justificationCycle(x); cyc != nil {
							t.Errorf("%s: execution %d has the cycle %v of rf and dependencies", f, v.Index, cyc)
							return false
						}
						return true
					}})
			}
			t.Logf("%d of %d tests justified by dependencies alone, %d executions with dependencies", qualified, total, dependent)
			if qualified < s.min || s.min > 0 && dependent == 0 {
				t.Errorf("%d tests qualify, %d executions with dependencies: want at least %d, and some", qualified, dependent, s.min)
			}
		})
	}
}

// TestAcyclicJustificationByOverwrite checks that one check may order a
// thread's read-write pairs by data and another's of one location by fr
// within a thread (the kernel's overwrite & int), where the coherence
// check orders only the second.
func TestAcyclicJustificationByOverwrite(t *testing.T) {
	const src = "AArch64 T\n{ 0:X1=x; 1:X3=y; 1:X4=z; }\n" +
		" P0 | P1 ;\n LDR W0,[X1] | LDR W7,[X3] ;\n CBZ W0,L0 | STR W7,[X4] ;\n STR W5,[X1] | ;\nL0: | ;\nexists (0:X0=0)\n"
	for _, tt := range []struct{ model, want string }{
		{"acyclic (fr & int) | data | rfe as hb\n", ""},
		{"acyclic data | rfe as hb\n", "does not order"}, // each check orders one pair
	} {
		m := eval.Model{Cat: inlineModel(t, "\"overwrite\"\nacyclic po-loc | rf | co | fr as coherence\n"+tt.model)}
		got, _ := acyclicJustification(m, inlineTest(t, src))
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.model, got, tt.want)
		}
	}
}

// justificationCycle returns the events of a cycle of rf, data, addr and
// ctrl to a write, nil for none.
func justificationCycle(x outcome.Execution) []int {
	var edges []outcome.Edge
	for _, name := range []string{"rf", "data", "addr", "ctrl"} {
		for _, e := range x.Relations[name] {
			if name != "ctrl" || x.Events[e.To].Writes() {
				edges = append(edges, e)
			}
		}
	}
	return cycleOf(x, edges)
}

// TestAcyclicJustification checks which programs' values acyclicJustification
// vouches for under ARMv8: a write whose value a CSEL picks by the read
// (herd's pick dependency, one path of the CSEL carrying the value and
// the other not) is ordered by ob's pick dependencies; one whose value
// the thread reads back from its own store is not shown to be (the
// dependency runs through memory, which the analysis does not follow);
// nor is any under a model that orders no dependency.
func TestAcyclicJustification(t *testing.T) {
	const head = "AArch64 T\n{ 0:X1=x; 0:X3=y; 0:X4=z; }\n P0 ;\n"
	aarch64 := eval.Model{Cat: embeddedModel(t, "aarch64")}
	coherence := eval.Model{Cat: inlineModel(t, "coherence only\nacyclic po-loc | rf | co | fr as coherence\n")}
	overwrite := eval.Model{Cat: inlineModel(t, "\"coherence and fr within a thread\"\nacyclic po-loc | rf | co | fr as coherence\nacyclic (fr & int) | rfe as hb\n")}
	tests := []struct {
		name, code string
		model      eval.Model
		want       string // "" or what the reason says
	}{
		{"a CSEL's pick", " LDR W0,[X1] ;\n CMP W0,#1 ;\n CSEL W5,W0,W6,EQ ;\n STR W5,[X3] ;\n", aarch64, ""},
		{"independent", " LDR W0,[X1] ;\n STR W6,[X3] ;\n", coherence, ""},
		{"a store read back", " LDR W0,[X1] ;\n STR W0,[X3] ;\n LDR W5,[X3] ;\n STR W5,[X4] ;\n", aarch64,
			"its check external does not order P0's read at inline.litmus:4:2 before its write at inline.litmus:7:2, which may depend on it"},
		{"an atomic's parts", " LDADD W2,W0,[X1] ;\n", aarch64, ""},
		{"an atomic's parts, no rmw", " LDADD W2,W0,[X1] ;\n", coherence,
			"its check coherence does not order P0's read at inline.litmus:4:2 before its write at inline.litmus:4:2, which may depend on it"},
		{"data, unordered", " LDR W0,[X1] ;\n STR W0,[X3] ;\n", coherence,
			"its check coherence does not order P0's read at inline.litmus:4:2 before its write at inline.litmus:5:2, which may depend on it"},
		// A failed CAS's read orders the next attempt's write by the
		// branch on the register it sets (ctrl), which the other outcomes
		// reach with the branch of the iteration before.
		{"a CAS retry loop", " MOV W5,#1 ;\nL0: ;\n MOV W2,#0 ;\n CAS W2,W5,[X1] ;\n CBNZ W2,L0 ;\n", aarch64, ""},
		// po-loc's pairs, which fr within a thread holds from reads to
		// writes in a coherent model (as the coherence check itself does):
		// one location only, at an address the thread keeps.
		{"one location, fr & int", " LDR W0,[X1] ;\n STR W0,[X1] ;\n", overwrite, ""},
		{"two locations, fr & int", " LDR W0,[X1] ;\n CBZ W0,L0 ;\n STR W5,[X3] ;\nL0: ;\n", overwrite,
			"does not order P0's read at inline.litmus:4:2 before its write at inline.litmus:6:2, which may depend on it"},
		{"one location, X1 set", " LDR W0,[X1] ;\n MOV X1,X4 ;\n CBZ W0,L0 ;\n STR W5,[X1] ;\nL0: ;\n", overwrite,
			"does not order P0's read at inline.litmus:4:2 before its write at inline.litmus:7:2, which may depend on it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := inlineTest(t, head+tt.code+"exists (0:X0=0)\n")
			got, _ := acyclicJustification(tt.model, test)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
