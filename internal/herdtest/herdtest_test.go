package herdtest

import (
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/mcm/herdout"
)

func st(line string) herdout.State {
	s, err := ParseState(line)
	if err != nil {
		panic(err)
	}
	return s
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
	ref := Block{Result: &herdout.Result{Name: "T", Verdict: herdout.Ok, Positive: 1, Negative: 2,
		States: []herdout.State{st("0:X0=1; [x]=0x10;"), st("0:X0=0; [x]=0;")}}}
	same := Block{Result: &herdout.Result{Name: "T", Verdict: herdout.Ok, Positive: 1, Negative: 2,
		States: []herdout.State{st("0:X0=0; [x]=0x0;"), st("[x]=16; 0:X0=1;")}}}
	if d := Compare(ref, same); d != nil {
		t.Errorf("order and spelling must not matter: %q", d)
	}
	other := Block{Result: &herdout.Result{Name: "T", Verdict: herdout.No, Positive: 0, Negative: 2,
		States: []herdout.State{st("0:X0=0; [x]=0;"), st("0:X0=2; [x]=0;")}}}
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

func TestCompareFlags(t *testing.T) {
	block := func(flags ...string) Block { return Block{Result: &herdout.Result{Flags: flags}} }
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
