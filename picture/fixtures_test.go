package picture

import "github.com/purr-mcm/purr/mcm/outcome"

// The fixtures are executions made by hand, as the engines describe them.

// mpRelaxed is MP's relaxed execution: P1 sees the flag, not the data.
func mpRelaxed() outcome.Execution {
	return outcome.Execution{
		Index: 4,
		Events: []outcome.Event{
			{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"},
			{ID: 1, Label: "b", Thread: -1, Kind: "W", Loc: "y", Value: "0"},
			{ID: 2, Label: "c", Thread: 0, Kind: "W", Loc: "x", Value: "1", Instr: "STR W0,[X1]", Pos: "MP.litmus:10:2"},
			{ID: 3, Label: "d", Thread: 0, Kind: "W", Loc: "y", Value: "1", Instr: "STR W2,[X3]", Pos: "MP.litmus:12:2"},
			{ID: 4, Label: "e", Thread: 1, Kind: "R", Loc: "y", Value: "1", Instr: "LDR W0,[X1]", Pos: "MP.litmus:9:16"},
			{ID: 5, Label: "f", Thread: 1, Kind: "R", Loc: "x", Value: "0", Instr: "LDR W2,[X3]", Pos: "MP.litmus:10:16"},
		},
		Relations: map[string][]outcome.Edge{
			"po":  {{From: 2, To: 3}, {From: 4, To: 5}},
			"rf":  {{From: 3, To: 4}, {From: 0, To: 5}},
			"co":  {{From: 0, To: 2}, {From: 1, To: 3}},
			"fr":  {{From: 5, To: 2}},
			"ppo": {{From: 4, To: 5}},
		},
		Sets:  map[string][]int{"W": {0, 1, 2, 3}, "R": {4, 5}, "F": {}},
		Holds: true,
	}
}

// chain is one thread of four writes to x after the init write: po and co
// are orders whose transitive pairs must not be drawn; a fence and a
// self-loop too.
func chain() outcome.Execution {
	x := outcome.Execution{Index: 1, Relations: map[string][]outcome.Edge{}, Sets: map[string][]int{}}
	x.Events = append(x.Events, outcome.Event{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"})
	for i := 1; i <= 4; i++ {
		x.Events = append(x.Events, outcome.Event{ID: i, Label: string(rune('a' + i)), Thread: 0, Kind: "W", Loc: "x", Value: string(rune('0' + i))})
	}
	x.Events = append(x.Events, outcome.Event{ID: 5, Label: "f", Thread: 0, Kind: "F", Tags: []string{"DMB.SY"}, Instr: "DMB SY"})
	for i := 0; i <= 5; i++ {
		for j := i + 1; j <= 5; j++ {
			if i > 0 {
				x.Relations["po"] = append(x.Relations["po"], outcome.Edge{From: i, To: j})
			}
			if j <= 4 {
				x.Relations["co"] = append(x.Relations["co"], outcome.Edge{From: i, To: j})
			}
		}
	}
	x.Relations["loop"] = []outcome.Edge{{From: 3, To: 3}}
	return x
}

// cStore is a C test's execution: statements as instructions, memory
// orders as tags, and names that need escaping in XML.
func cStore() outcome.Execution {
	return outcome.Execution{
		Index: 2,
		Events: []outcome.Event{
			{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"},
			{ID: 1, Label: "b", Thread: 0, Kind: "W", Loc: "x", Value: "1", Tags: []string{"REL"},
				Instr: "atomic_store_explicit(x, 1, memory_order_release)", Pos: "C.litmus:5:3"},
			{ID: 2, Label: "c", Thread: 1, Kind: "R", Loc: "x", Value: "1", Tags: []string{"ACQ"},
				Instr: "r0 = atomic_load_explicit(x, memory_order_acquire) & 1 < 2", Pos: "C.litmus:8:3"},
		},
		Relations: map[string][]outcome.Edge{
			"rf":      {{From: 1, To: 2}},
			"co":      {{From: 0, To: 1}},
			"sw&<hb>": {{From: 1, To: 2}},
		},
		Sets: map[string][]int{"ACQ": {2}, "REL": {1}},
	}
}

// mpFails is MP's relaxed execution as -through lets it through under a
// model whose check "external" forbids it: the cycle c -po-> d -rf-> e
// -po-> f -fr-> c.
func mpFails() outcome.Execution {
	x := mpRelaxed()
	x.Fails = []outcome.Failure{{Check: "external", Kind: "acyclic",
		Witness: []outcome.Edge{{From: 2, To: 3}, {From: 3, To: 4}, {From: 4, To: 5}, {From: 5, To: 2}}}}
	return x
}

// failsKinds fails one check of each kind: a reflexive pair, a member of
// an empty set, a pair of a relation that should be empty.
func failsKinds() outcome.Execution {
	x := mpRelaxed()
	x.Index = 7
	x.Relations["ppo"] = append(x.Relations["ppo"], outcome.Edge{From: 3, To: 3})
	x.Fails = []outcome.Failure{
		{Check: "no-ppo-loop", Kind: "irreflexive", Witness: []outcome.Edge{{From: 3, To: 3}}},
		{Check: "no-stale-read", Kind: "empty", Witness: []outcome.Edge{{From: 5, To: 5}}},
		{Check: "aarch64.cat:12:1", Kind: "empty", Witness: []outcome.Edge{{From: 0, To: 5}}},
		{Check: "negated", Kind: "~acyclic"},
	}
	return x
}
