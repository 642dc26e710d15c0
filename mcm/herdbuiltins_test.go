package mcm

import (
	"testing"
)

// TestHerdSetBuiltins checks herd's builtins that return sets of sets or
// relations: partition (classes-loc) and classes cover their set with
// classes of one location each; linearisations chooses the total orders
// that extend a relation, so choosing one of po|com is sequential
// consistency, in both engines.
func TestHerdSetBuiltins(t *testing.T) {
	lt := parseTestFile(t, repoPath("testdata/classic/SB.litmus"))
	m := inlineModel(t, `"herd sets"
let rec union_all S = match S with || {} -> 0 || s ++ S -> s | union_all S end
let rec mixed S = match S with || {} -> 0 || s ++ S -> ((s * s) \ loc) | mixed S end
flag ~empty (W \ union_all(partition W)) as partition-lost
flag ~empty mixed(partition W) as partition-mixed
flag ~empty (W \ union_all(classes(loc & (W * W)))) as classes-lost
flag ~empty mixed(classes(loc & (W * W))) as classes-mixed
with S from linearisations(M, po | rf | co | fr)
flag ~empty ((po | rf | co | fr) & (M * M)) \ S as not-extending
`)
	sc := embeddedModel(t, "sc")
	want, err := Check(sc, lt, Options{Unroll: 1, Engine: EngineExplicit})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Check(m, lt, Options{Unroll: 1, Engine: EngineExplicit})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Flags) != 0 {
		t.Errorf("flags %v", got.Flags)
	}
	if g, w := got.Result(lt, false), want.Result(lt, false); g.Verdict != w.Verdict || len(g.States) != len(w.States) {
		t.Errorf("linearisations of po|com: %v with %d states, sc: %v with %d", g.Verdict, len(g.States), w.Verdict, len(w.States))
	}
	// The SAT engine chooses the order as fresh variables instead of
	// listing the orders, which depend on the execution.
	sat, err := Check(m, lt, Options{Unroll: 1, Engine: EngineSAT})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := sat.Result(lt, false), got.Result(lt, false); g.Verdict != w.Verdict || len(g.States) != len(w.States) || g.Positive != w.Positive || g.Negative != w.Negative {
		t.Errorf("SAT engine: %v with %d states, %d+%d; explicit: %v with %d states, %d+%d",
			g.Verdict, len(g.States), g.Positive, g.Negative, w.Verdict, len(w.States), w.Positive, w.Negative)
	}
}

// TestWithChoiceFlags: of the choices of with, only one that passes the
// rest of the model raises its flags; an undefined_unless that fails in a
// choice the model rejects anyway raises nothing.
func TestWithChoiceFlags(t *testing.T) {
	lt := parseTestFile(t, repoPath("testdata/classic/SB.litmus"))
	m := inlineModel(t, `"with flags"
with x from {po, po^-1}
acyclic po | x as order
undefined_unless acyclic po | x as u
flag ~acyclic po | x as f
`)
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		out, err := Check(m, lt, Options{Unroll: 1, Engine: engine})
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		if r := out.Result(lt, false); len(r.Flags) != 0 || out.Positive+out.Negative == 0 {
			t.Errorf("%s: flags %v, verdict %v, %d executions", engine, r.Flags, r.Verdict, out.Positive+out.Negative)
		}
	}
}

// TestHerdInitSet: herd7's I is its IW, the initial writes, in both
// engines: forbidding reads from them leaves SB only the execution where
// each load reads the other thread's store.
func TestHerdInitSet(t *testing.T) {
	lt := parseTestFile(t, repoPath("testdata/classic/SB.litmus"))
	m := inlineModel(t, `"no reads from I"
empty [I]; rf as no-init-reads
`)
	for _, engine := range []string{EngineExplicit, EngineSAT} {
		out, err := Check(m, lt, Options{Unroll: 1, Engine: engine})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Result(lt, false); r.Positive+r.Negative != 1 {
			t.Errorf("engine %s: %d executions, want 1", engine, r.Positive+r.Negative)
		}
	}
}
