package mcm

import (
	"fmt"
	"strings"
	"testing"
)

// ww is two writes to x, one per thread, and a read of y: under a model
// that reads co, two executions (the two coherence orders of x).
const wwTest = `AArch64 WW
{ 0:X1=x; 1:X1=x; 1:X3=y; }
 P0          | P1          ;
 MOV W0,#1   | MOV W0,#2   ;
 STR W0,[X1] | STR W0,[X1] ;
             | LDR W2,[X3] ;
exists (%s)
`

// TestHerdCounting checks that both engines count executions as herd7
// does: each choice of a "with x from S" that passes the rest of the model
// is an execution of its own, and a model that builds no co from the
// engine's tells executions apart by rf and the final writes of the
// observed locations only.
func TestHerdCounting(t *testing.T) {
	tests := []struct {
		name, model, test string
		distinct          []string
		want              int // Positive + Negative
	}{
		{"no choice", "acyclic po", sb, nil, 4},
		{"two relations pass", "with r from {po, 0}\nacyclic r", sb, nil, 8},
		{"one relation fails", "with r from {0, po | po^-1}\nacyclic r", sb, nil, 4},
		{"equal relations are one element", "with r from {po, po}\nacyclic r", sb, nil, 4},
		{"two sets pass", "with s from {W, R}\nacyclic po", sb, nil, 8},
		{"tags branch", "with t from {'a, 'b}\nacyclic po", sb, nil, 8},
		{"nested choices", "with r from {po, 0}\nwith s from {W, R, M}\nacyclic r", sb, nil, 24},
		{"nothing to choose from", "with r from {}\nacyclic po", sb, nil, 0},
		{"choice after an include", "include \"cross.cat\"\nwith co from generate_cos(co0)\nwith r from {po, 0}\nacyclic r", sb, nil, 8},
		{"x observed, co not read", "acyclic po", fmt.Sprintf(wwTest, "x=1"), nil, 2},
		{"x unobserved, co not read", "acyclic po", fmt.Sprintf(wwTest, "1:X2=0"), nil, 1},
		{"x unobserved, co read", "acyclic po | co", fmt.Sprintf(wwTest, "1:X2=0"), nil, 2},
		{"fr read through a binding", "let r = fr | po\nacyclic r", fmt.Sprintf(wwTest, "1:X2=0"), nil, 2},
		{"co read by a binding never used", "let r = co\nacyclic po", fmt.Sprintf(wwTest, "1:X2=0"), nil, 1},
		{"co read by a procedure's argument", "procedure p(r) = acyclic r end\ncall p(co | po)", fmt.Sprintf(wwTest, "1:X2=0"), nil, 2},
		// A model's own function named as the library's generator means what
		// the model says: here one order, po, not every order containing it.
		{"a model's own generate_orders", "let generate_orders(S, r) = {r}\nwith x from generate_orders(W, po)\nacyclic x", sb, nil, 4},
		{"the library's generate_orders", "include \"cross.cat\"\nwith x from generate_orders(W, po)\nacyclic x", sb, nil, 16},
		// --distinct counts classes of executions, whatever the choices.
		{name: "distinct rf, two choices", model: "with r from {po, 0}\nacyclic r", test: sb, distinct: []string{"rf"}, want: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := inlineModel(t, "\"counting\"\n"+tc.model+"\n")
			lt := inlineTest(t, tc.test)
			for _, engine := range []string{EngineSAT, EngineExplicit} {
				opt := engineOptions(engine, 2)
				opt.Distinct = tc.distinct
				out, err := Check(m, lt, opt)
				if err != nil {
					t.Fatalf("%s: %v", engine, err)
				}
				if got := out.Positive + out.Negative; got != tc.want {
					t.Errorf("%s: %d executions, want %d", engine, got, tc.want)
				}
			}
		})
	}
}

// TestOwnGenerateCosRefused: "with co from generate_cos(...)" makes co
// the engine's coherence order only for herd's library function; a
// model's own generate_cos is refused at its with, not taken for it.
func TestOwnGenerateCosRefused(t *testing.T) {
	m := inlineModel(t, "\"own\"\nlet generate_cos(r) = {r}\nwith co from generate_cos(co0)\nacyclic po | co\n")
	lt := inlineTest(t, sb)
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		_, err := Check(m, lt, engineOptions(engine, 2))
		if err == nil || !strings.Contains(err.Error(), ":3:1: with co from generate_cos(...): this generate_cos is the model's own") {
			t.Errorf("%s: error %v, want the with's position and the reason", engine, err)
		}
	}
}

// branchTest reads y only when it read x as 1: the second read exists on
// one path only, so the set of reads varies between executions.
const branchTest = `AArch64 BR
{ 0:X1=x; 0:X3=y; 1:X1=x; 1:X3=y; }
 P0           | P1          ;
 LDR W0,[X1]  | MOV W0,#1   ;
 CBZ W0,L0    | STR W0,[X3] ;
 LDR W2,[X3]  | STR W0,[X1] ;
 L0:          |             ;
exists (0:X2=1)
`

// perRead chooses, as the kernel's lock.cat does for failed trylocks,
// one pair of O at each member of S, by cross over a map over S: a
// relation O and a set S, in this order.
const perRead = `include "cross.cat"
let opts r = map (fun p -> p ++ 0) (%s & (_ * {r}))
with x from cross(map opts %s)
`

// TestChoicesOverVaryingSets checks "with x from cross(map f S)" where
// S's members depend on the execution (the SAT engine's choice per
// possible member, under its membership): both engines count the same
// executions, as herd does, and the SAT engine refuses the choices whose
// unions it could not tell apart as herd's sets do.
func TestChoicesOverVaryingSets(t *testing.T) {
	// On the path that reads x as 0, one read (of x, from the initial
	// write); on the other, two (of x from P1, of y from either write):
	// three executions of the engines.
	const writes = "((W * R) & loc & ext)"
	tests := []struct {
		name, model string
		want        int    // Positive + Negative
		refused     string // the SAT engine's refusal
	}{
		// A write of either at each read: 2 + 2 * (2 * 2).
		{name: "a choice per read", model: fmt.Sprintf(perRead, writes, "R") + "acyclic x | po", want: 10},
		// The reads that read no initial write: 1 (nothing to choose) + 2 + 2 * 2.
		{name: "a choice per read of another thread", model: fmt.Sprintf(perRead, writes, "(R \\ range(rf & (IW * _)))") + "acyclic po", want: 7},
		// Options only for a read of an initial write: none for the read
		// of x from P1, so the second path has no choice and no execution.
		{name: "no option for a member", model: fmt.Sprintf(perRead, writes+" & (_ * range(rf & (IW * _)))", "R") + "acyclic po", want: 2},
		// A choice among the members themselves: 1 + 2 * 2.
		{name: "one choice among varying members", model: "with x from map (fun r -> {r}) R\nacyclic po", want: 5},
		{name: "overlapping choices", model: "include \"cross.cat\"\nwith x from cross(map (fun r -> {W * W, 0}) R)\nacyclic po", refused: "overlap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := inlineModel(t, "\"varying\"\n"+tc.model+"\n")
			lt := inlineTest(t, branchTest)
			for _, engine := range []string{EngineExplicit, EngineSAT} {
				out, err := Check(m, lt, engineOptions(engine, 2))
				if tc.refused != "" && engine == EngineSAT {
					if err == nil || !strings.Contains(err.Error(), tc.refused) {
						t.Errorf("%s: %v, want a refusal saying %q", engine, err, tc.refused)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", engine, err)
				}
				if tc.refused != "" {
					continue
				}
				if got := out.Positive + out.Negative; got != tc.want {
					t.Errorf("%s: %d executions, want %d", engine, got, tc.want)
				}
			}
		})
	}
}
