package herdout

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func st(line string) State {
	s, err := ParseState(line)
	if err != nil {
		panic(err)
	}
	return s
}

// goldenResults covers the variants of the block: quantifiers, Undef,
// Loop, flags, faults, Time and Hash present or not.
func goldenResults() []Result {
	mp := NewResult("MP", Exists, `(1:X0=1 /\ 1:X2=0)`, []State{
		st("1:X0=1; 1:X2=1;"), st("1:X0=0; 1:X2=0;"), st("1:X0=1; 1:X2=0;"), st("1:X0=0; 1:X2=1;"),
	}, 1, 3, nil, false)
	mp.Hash = "211d5b298572012a0869d4ded6a40b7f"
	sb := NewResult("SB+fences", NotExists, `(0:r0=0 /\ 1:r0=0)`, []State{
		st("0:r0=1; 1:r0=0;"), st("0:r0=0; 1:r0=1;"), st("0:r0=1; 1:r0=1;"),
	}, 0, 3, nil, false)
	sb.Time, sb.HasTime = 0.014, true
	undef := NewResult("race", Exists, "(x=2)", []State{st("x=1;"), st("x=2;")}, 1, 1, []string{"data-race", UndefFlag}, false)
	loop := NewResult("L029", Forall, "(0:X1=10)", nil, 0, 0, nil, true)
	fault := NewResult("A247", Forall, "(fault(P0:L0,UndefinedInstruction))", []State{st(" Fault(P0:L0,UndefinedInstruction);")}, 1, 0, nil, false)
	return []Result{mp, sb, undef, loop, fault}
}

func TestWriteGolden(t *testing.T) {
	var b strings.Builder
	for _, r := range goldenResults() {
		if err := r.Write(&b); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "write.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("Write output differs from %s (rerun with -update to accept):\n%s", golden, b.String())
	}
	// And it parses back to the same results.
	blocks, err := ParseOutput(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	results := goldenResults()
	if len(blocks) != len(results) {
		t.Fatalf("%d blocks parsed, want %d", len(blocks), len(results))
	}
	for i, blk := range blocks {
		if got, want := blk.Result.String(), results[i].String(); got != want {
			t.Errorf("block %d parses back as\n%s\nwant\n%s", i, got, want)
		}
		if blk.Result.Verdict != results[i].Verdict || blk.Result.Loop != results[i].Loop {
			t.Errorf("block %d: verdict or loop lost", i)
		}
	}
}

func TestDerivedFields(t *testing.T) {
	rs := goldenResults()
	cases := []struct {
		r        Result
		kind     Kind
		verdict  Verdict
		obs      Observation
		pos, neg int
	}{
		{rs[0], Allowed, Ok, Sometimes, 1, 3},
		{rs[1], Forbidden, Ok, Never, 3, 0}, // ~exists: Positive counts the failing executions
		{rs[2], Allowed, Undef, Sometimes, 1, 1},
		{rs[3], Required, Ok, Never, 0, 0},
		{rs[4], Required, Ok, Always, 1, 0},
	}
	for _, c := range cases {
		if c.r.Kind() != c.kind || c.r.Verdict != c.verdict || c.r.Observation != c.obs || c.r.Positive != c.pos || c.r.Negative != c.neg {
			t.Errorf("%s: got %s %s %s %d %d, want %s %s %s %d %d", c.r.Name,
				c.r.Kind(), c.r.Verdict, c.r.Observation, c.r.Positive, c.r.Negative,
				c.kind, c.verdict, c.obs, c.pos, c.neg)
		}
	}
	if got := rs[2].Flags; !slices.Equal(got, []string{UndefFlag, "data-race"}) {
		t.Errorf("flags %v: want *undef* first", got)
	}
	if r := NewResult("t", NotExists, "(x=1)", nil, 2, 1, nil, false); r.Verdict != No {
		t.Errorf("~exists with a positive execution: verdict %s, want No", r.Verdict)
	}
	if r := NewResult("t", Forall, "(x=1)", nil, 2, 1, nil, false); r.Verdict != No || r.Observation != Sometimes {
		t.Errorf("forall with a failing execution: %s %s, want No Sometimes", r.Verdict, r.Observation)
	}
}

func TestSortStates(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		want []string
	}{
		{"registers by number, XZR first", []string{"0:X10=0; 0:X2=0; 0:XZR=0;"}, []string{"0:XZR=0; 0:X2=0; 0:X10=0;"}},
		{"threads, then memory", []string{"[x]=1; 1:X0=0; 0:X9=1;"}, []string{"0:X9=1; 1:X0=0; [x]=1;"}},
		{"whole locations before elements", []string{"u[0]=1; [x]=0; u={1,2}; 0:X0=1;"}, []string{"0:X0=1; u={1,2}; [x]=0; u[0]=1;"}},
		{"C registers by name", []string{"0:r1=0; 0:r0=1;"}, []string{"0:r0=1; 0:r1=0;"}},
		{"values numerically, negatives first", []string{"x=10;", "x=9;", "x=-1;", "x=0x2;"}, []string{"x=-1;", "x=0x2;", "x=9;", "x=10;"}},
		{"integers before symbols", []string{"0:X0=y;", "0:X0=x;", "0:X0=1;"}, []string{"0:X0=1;", "0:X0=x;", "0:X0=y;"}},
		{"prefix first, duplicates dropped", []string{"1:X0=0; 2:X0=0;", "1:X0=0;", "1:X0=0;"}, []string{"1:X0=0;", "1:X0=0; 2:X0=0;"}},
	}
	for _, c := range cases {
		var states []State
		for _, l := range c.in {
			states = append(states, st(l))
		}
		states = SortStates(states)
		var got []string
		for _, s := range states {
			got = append(got, s.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestParseStateLayouts(t *testing.T) {
	for _, line := range []string{
		"0:X0=1; [x]=2;",
		`0:X2=instr:"B .+4"; 0:X3=0;`,
		"0:X30=0:L0;",
		"t={2,1};",
		" Fault(P0:L0,UndefinedInstruction);",
		"0:X0=1; Fault(P0:L0,x);",
		"0:X0=1;  ~Fault(P1,y);",
	} {
		s, err := ParseState(line)
		if err != nil {
			t.Errorf("ParseState(%q): %v", line, err)
			continue
		}
		if s.String() != line {
			t.Errorf("ParseState(%q) prints back as %q", line, s.String())
		}
	}
	if s := st(`0:X2=instr:"B .+4"; 0:X3=0;`); len(s.Bindings) != 2 || s.Bindings[0].Value != `instr:"B .+4"` {
		t.Errorf("quoted value split wrongly: %#v", s)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ name, input, want string }{
		{"garbage", "hello\n", "1:1: expected a result block"},
		{"bad kind", "Test X Maybe\n", "1:8: expected Allowed, Forbidden or Required"},
		{"truncated", "Test X Allowed\nStates 2\nx=1;\n", "4:1: unexpected end of output, expected a final state"},
		{"bad state", "Test X Allowed\nStates 1\nx=1\n", "3:1: col 3: expected ';' after the value of x"},
		{"kind vs quantifier", "Test X Forbidden\nStates 0\nOk\nWitnesses\nPositive: 0 Negative: 0\nCondition exists (x=1)\n", "6:11: quantifier exists does not match kind Forbidden"},
		{"observation counts", "Test X Allowed\nStates 0\nNo\nWitnesses\nPositive: 0 Negative: 2\nCondition exists (x=1)\nObservation X Never 0 3\n", "7:1: observation counts 0 3 do not match"},
		{"trailing junk", "Test X Allowed\nStates 0\nNo\nWitnesses\nPositive: 0 Negative: 0\nCondition exists (x=1)\nObservation X Never 0 0\nHash=1\nextra\n", "9:1: expected Time, Hash or an empty line"},
	}
	for _, c := range cases {
		_, err := ParseOutput(strings.NewReader(c.input))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestParseCorpusLayout(t *testing.T) {
	input := "# ATOM/a.litmus\nTIMEOUT \n\n# b.litmus\nERROR Warning: File \"b\": oops\n\n# c.litmus\n" +
		"Test c Allowed\nStates 1\n[x]=1;\nOk\nWitnesses\nPositive: 1 Negative: 0\nCondition exists ([x]=1)\nObservation c Always 1 0\nTime c 0.01\nHash=abc\n\n"
	blocks, err := ParseOutput(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 || !blocks[0].Timeout || blocks[0].Path != "ATOM/a.litmus" ||
		blocks[1].Error != `Warning: File "b": oops` || blocks[2].Path != "c.litmus" || blocks[2].Line != 8 {
		t.Fatalf("blocks: %+v", blocks)
	}
	r := blocks[2].Result
	if !r.HasTime || r.Time != 0.01 || r.Hash != "abc" || r.String() != blocks[2].Text+"\n" {
		t.Errorf("result %+v does not round-trip", r)
	}
}

func TestCompare(t *testing.T) {
	ref := Block{Result: &Result{Name: "T", Verdict: Ok, Positive: 1, Negative: 2,
		States: []State{st("0:X0=1; [x]=0x10;"), st("0:X0=0; [x]=0;")}}}
	same := Block{Result: &Result{Name: "T", Verdict: Ok, Positive: 1, Negative: 2,
		States: []State{st("0:X0=0; [x]=0x0;"), st("[x]=16; 0:X0=1;")}}}
	if d := Compare(ref, same); d != nil {
		t.Errorf("order and spelling must not matter: %q", d)
	}
	other := Block{Result: &Result{Name: "T", Verdict: No, Positive: 0, Negative: 2,
		States: []State{st("0:X0=0; [x]=0;"), st("0:X0=2; [x]=0;")}}}
	want := []string{
		"verdict: want Ok, got No",
		"missing state: 0:X0=1; [x]=0x10;",
		"extra state: 0:X0=2; [x]=0;",
		"witnesses: want Positive: 1 Negative: 2, got Positive: 0 Negative: 2",
	}
	if d := Compare(ref, other); !slices.Equal(d, want) {
		t.Errorf("Compare = %q\nwant %q", d, want)
	}
	if d := Compare(ref, Block{Timeout: true}); !slices.Equal(d, []string{"no result (TIMEOUT)"}) {
		t.Errorf("Compare with TIMEOUT = %q", d)
	}
	if d := Compare(Block{Timeout: true}, Block{Timeout: true}); d != nil {
		t.Errorf("two TIMEOUTs: %q", d)
	}
}

// TestCompareFlags: flags raised on one side only are differences, in
// either direction, and their order is not.
func TestCompareFlags(t *testing.T) {
	block := func(flags ...string) Block { return Block{Result: &Result{Flags: flags}} }
	for _, c := range []struct {
		ref, got Block
		want     []string
	}{
		{block("a", "b"), block("b", "a"), nil},
		{block("lock-final"), block(), []string{"missing flag: lock-final"}},
		{block(), block("data-race"), []string{"extra flag: data-race"}},
		{block("a"), Block{Error: "timed out"}, nil},
	} {
		if got := CompareFlags(c.ref, c.got); !slices.Equal(got, c.want) {
			t.Errorf("CompareFlags(%v, %v) = %q, want %q", c.ref.Result, c.got.Result, got, c.want)
		}
	}
}
