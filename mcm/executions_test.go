package mcm

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// canonicalExecutions lists the canonical forms of an outcome's
// executions, sorted.
func canonicalExecutions(out *outcome.Outcome) []string {
	var keys []string
	for i := range out.Executions {
		keys = append(keys, out.Executions[i].Canonical())
	}
	slices.Sort(keys)
	return keys
}

// TestExecutionsDifferential checks that both engines, each capturing its
// executions its own way, find the same executions (events, rf, co) of
// every classic test under sc, tso, pso and aarch64, and that -show all
// keeps as many as Positive + Negative.
func TestExecutionsDifferential(t *testing.T) {
	files, err := filepath.Glob(repoPath("testdata/classic/*.litmus"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no classic tests: %v", err)
	}
	for _, model := range []string{"sc", "tso", "pso", "aarch64"} {
		m := embeddedModel(t, model)
		for _, f := range files {
			test := parseTestFile(t, f)
			name := model + "/" + filepath.Base(f)
			sat, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			exp, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll, Engine: EngineExplicit})
			if err != nil {
				t.Fatalf("%s (explicit): %v", name, err)
			}
			if n := sat.Positive + sat.Negative; len(sat.Executions) != n || len(exp.Executions) != n {
				t.Errorf("%s: %d and %d executions kept, want %d", name, len(sat.Executions), len(exp.Executions), n)
			}
			a, b := canonicalExecutions(sat), canonicalExecutions(exp)
			if !slices.Equal(a, b) {
				t.Errorf("%s: the engines' executions differ:\nsat:      %q\nexplicit: %q", name, a, b)
			}
			if len(slices.Compact(slices.Clone(a))) != len(a) {
				t.Errorf("%s: an execution is listed twice: %q", name, a)
			}
			// Beyond events, rf and co: every relation and set captured.
			byKey := map[string]outcome.Execution{}
			for _, x := range exp.Executions {
				byKey[x.Canonical()] = x
			}
			for _, x := range sat.Executions {
				y, ok := byKey[x.Canonical()]
				if !ok {
					continue
				}
				if !reflect.DeepEqual(x.Relations, y.Relations) || !reflect.DeepEqual(x.Sets, y.Sets) {
					t.Errorf("%s: the engines capture different relations or sets of %s:\nsat:      %v %v\nexplicit: %v %v",
						name, x.Canonical(), x.Relations, x.Sets, y.Relations, y.Sets)
				}
			}
		}
	}
}

// TestShowSelects checks each -show selection against herd7's meaning on
// SB under tso (exists; 1 positive, 3 negative executions).
func TestShowSelects(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/classic/SB.litmus"))
	m := embeddedModel(t, "tso")
	for _, c := range []struct {
		show outcome.Show
		want int
	}{{outcome.ShowAll, 4}, {outcome.ShowProp, 1}, {outcome.ShowNeg, 3}, {outcome.ShowCond, 1}, {outcome.ShowWit, 1}, {outcome.ShowNone, 0}, {"", 0}} {
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(m, test, Options{Unroll: 2, Show: c.show, Engine: engine})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Executions) != c.want {
				t.Errorf("-show %q (%s): %d executions, want %d", c.show, engine, len(out.Executions), c.want)
			}
			for _, x := range out.Executions {
				if !c.show.Selects(test.Quant, x.Holds) {
					t.Errorf("-show %q (%s): execution %d does not belong", c.show, engine, x.Index)
				}
			}
		}
	}
}

// TestCaptureBindings checks what an execution keeps of a model: its
// top-level relations and sets, what it shows (show, show as, unshow),
// what a "with" over relations binds (each execution is one choice), and
// nothing bound after a "with" over tags, whose branches bind differently;
// in both engines.
func TestCaptureBindings(t *testing.T) {
	m := inlineModel(t, `"capture"
let a = po
let s = R
show a
show rf as seen
show s
unshow a
with r from {po, rf}
let d = r
show d
acyclic r
with t from {'a, 'b}
let e = po
show e
`)
	test := parseTestFile(t, repoPath("testdata/classic/MP.litmus"))
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		out, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll, Engine: engine, Capture: []string{"addr", "IW"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"seen", "s", "d"}; !slices.Equal(out.Shown, want) {
			t.Errorf("%s: shown %q, want %q", engine, out.Shown, want)
		}
		if len(out.Executions) == 0 {
			t.Fatalf("%s: no execution", engine)
		}
		x := out.Executions[0]
		for _, name := range []string{"a", "seen", "addr", "rfe"} {
			if _, ok := x.Relations[name]; !ok {
				t.Errorf("%s: relation %s not captured", engine, name)
			}
		}
		for _, name := range []string{"s", "IW"} {
			if _, ok := x.Sets[name]; !ok {
				t.Errorf("%s: set %s not captured", engine, name)
			}
		}
		if _, ok := x.Relations["d"]; !ok {
			t.Errorf("%s: d, the relation chosen, was not captured", engine)
		}
		if _, ok := x.Relations["e"]; ok {
			t.Errorf("%s: e, bound after a choice of tags, was captured", engine)
		}
		if !reflect.DeepEqual(x.Relations["seen"], x.Relations["rf"]) || len(x.Relations["rf"]) != 2 {
			t.Errorf("%s: seen %v, rf %v", engine, x.Relations["seen"], x.Relations["rf"])
		}
		if got := x.Sets["IW"]; !slices.Equal(got, []int{0, 1}) {
			t.Errorf("%s: IW = %v, want the two init writes [0 1]", engine, got)
		}
	}
}

// condDMB is MP with a DMB LD that P1 passes only when it reads the flag
// set: DMB.load is empty in some executions and not in others.
const condDMB = `AArch64 MP+dmb.sy+cond-dmb.ld
{
0:X1=x; 0:X3=y;
1:X1=y; 1:X3=x;
}
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X1] ;
 STR W0,[X1] | CBZ W0,L0   ;
 DMB SY      | DMB LD      ;
 MOV W2,#1   | L0:         ;
 STR W2,[X3] | LDR W2,[X3] ;
exists (1:X0=1 /\ 1:X2=0)
`

// names lists the relations and sets an execution carries, sorted.
func names(x outcome.Execution) []string {
	return slices.Sorted(func(yield func(string) bool) {
		for n := range x.Relations {
			if !yield(n) {
				return
			}
		}
		for n := range x.Sets {
			if !yield(n) {
				return
			}
		}
	})
}

// filled tells whether an execution's relation or set of that name has a
// pair or a member.
func filled(x outcome.Execution, name string) bool {
	return len(x.Relations[name]) > 0 || len(x.Sets[name]) > 0
}

// TestStaticallyEmpty checks that executions leave out the sets and
// relations no candidate execution fills, and only those, alike in both
// engines: every execution of a test, whichever engine found it,
// carries the same names; a name left out is empty in every execution,
// even those the model forbids (asked for by -doshow, which keeps it);
// a name empty in some executions only is kept; on MP under aarch64, no
// name but those the model shows is empty in all.
func TestStaticallyEmpty(t *testing.T) {
	files, err := filepath.Glob(repoPath("testdata/classic/*.litmus"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no classic tests: %v", err)
	}
	cond, err := litmus.Parse("MP+dmb.sy+cond-dmb.ld.litmus", []byte(condDMB))
	if err != nil {
		t.Fatal(err)
	}
	tests := []*litmus.Test{parseTestFile(t, repoPath("testdata/MP.litmus")), cond}
	for _, f := range files[:6] {
		tests = append(tests, parseTestFile(t, f))
	}
	for _, model := range []string{"aarch64", "tso"} {
		m := embeddedModel(t, model)
		for _, test := range tests {
			name := model + "/" + filepath.Base(test.File)
			opt := Options{Unroll: 2, Show: outcome.ShowAll, Through: "all"}
			prepared, u, lay, _, err := prepare(context.Background(), m, test, opt)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			empty, err := staticallyEmpty(context.Background(), prepared, test, u, lay, engine.Options{Show: opt.Show})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var want []string
			for _, asked := range []bool{false, true} {
				if asked {
					opt.Capture = empty
				}
				for _, e := range []string{EngineSAT, EngineExplicit} {
					opt.Engine = e
					out, err := Check(m, test, opt)
					if err != nil {
						t.Fatalf("%s (%s): %v", name, e, err)
					}
					if len(out.Executions) == 0 {
						t.Fatalf("%s (%s): no execution", name, e)
					}
					for _, x := range out.Executions {
						got := names(x)
						if want == nil && !asked {
							want = got
						}
						for _, n := range empty {
							if asked && filled(x, n) {
								t.Errorf("%s (%s): %s is left out as empty, but execution %d has it: %v %v",
									name, e, n, x.Index, x.Relations[n], x.Sets[n])
							}
							if _, listed := slices.BinarySearch(got, n); listed != asked {
								t.Errorf("%s (%s, -doshow %v): execution %d lists %s: %v", name, e, asked, x.Index, n, listed)
							}
						}
						if !asked && !slices.Equal(got, want) {
							t.Errorf("%s (%s): execution %d carries %q, another %q", name, e, x.Index, got, want)
						}
					}
					if asked || model != "aarch64" {
						continue
					}
					sometimes := func(n string) (some, all bool) {
						some, all = false, true
						for _, x := range out.Executions {
							some = some || filled(x, n)
							all = all && filled(x, n)
						}
						return some, all
					}
					switch test {
					case tests[0]:
						for _, n := range want {
							if some, _ := sometimes(n); !some && !slices.Contains(outcome.BaseRelations, n) && !slices.Contains(out.Shown, n) {
								t.Errorf("%s (%s): %s is empty in every execution, yet listed", name, e, n)
							}
						}
						if some, all := sometimes("fre"); !some || all {
							t.Errorf("%s (%s): fre should be empty in some executions only (some %v, all %v)", name, e, some, all)
						}
					case cond:
						if some, all := sometimes("DMB.load"); !some || all || !slices.Contains(want, "DMB.load") {
							t.Errorf("%s (%s): DMB.load should be kept, empty in some executions only (some %v, all %v)", name, e, some, all)
						}
					}
				}
			}
			if model == "aarch64" && test == tests[0] {
				for _, n := range []string{"emptyset", "message-receives", "BR", "PoD", "DMB.full", "addr-dep", "rfi"} {
					if !slices.Contains(empty, n) {
						t.Errorf("%s: %s is not left out as empty (%q)", name, n, empty)
					}
				}
			}
		}
	}
}

// TestOneEventRMW checks that a read-modify-write herd7 makes one event
// (C11's) is one event of kind RMW in executions, its value "read>written",
// and that every relation pair has an event of the right kind at each end,
// in both engines.
func TestOneEventRMW(t *testing.T) {
	test := inlineTest(t, `C rmw
{}
P0(atomic_int *x) { int r = atomic_fetch_add_explicit(x, 1, memory_order_relaxed); }
P1(atomic_int *x) { atomic_store_explicit(x, 5, memory_order_relaxed); }
exists (0:r=0)
`)
	m := embeddedModel(t, "rc11")
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		out, err := Check(m, test, Options{Unroll: 2, Show: outcome.ShowAll, Engine: engine})
		if err != nil {
			t.Fatal(err)
		}
		var values []string
		for _, x := range out.Executions {
			var p0 []outcome.Event
			for _, e := range x.Events {
				if e.Thread == 0 {
					p0 = append(p0, e)
				}
			}
			if len(p0) != 1 || p0[0].Kind != "RMW" {
				t.Fatalf("%s: P0's events %v, want one RMW", engine, p0)
			}
			values = append(values, p0[0].Value)
			for rel, ends := range map[string][2]func(outcome.Event) bool{
				"rf": {outcome.Event.Writes, outcome.Event.Reads},
				"co": {outcome.Event.Writes, outcome.Event.Writes},
				"fr": {outcome.Event.Reads, outcome.Event.Writes},
			} {
				for _, e := range x.Relations[rel] {
					if from, to := x.Events[e.From], x.Events[e.To]; e.From == e.To || !ends[0](from) || !ends[1](to) {
						t.Errorf("%s: %s %s->%s", engine, rel, from.Label, to.Label)
					}
				}
			}
		}
		slices.Sort(values)
		if want := []string{"0>1", "5>6"}; !slices.Equal(values, want) {
			t.Errorf("%s: RMW values %v, want %v", engine, values, want)
		}
	}
}
