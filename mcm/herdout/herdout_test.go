package herdout_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/mcm/herdout"
)

var update = flag.Bool("update", false, "rewrite golden files")

func st(line string) herdout.State {
	s, err := herdtest.ParseState(line)
	if err != nil {
		panic(err)
	}
	return s
}

// goldenResults covers the variants of the block: quantifiers, Undef,
// Loop, flags, faults, Time and Hash present or not.
func goldenResults() []herdout.Result {
	mp := herdout.NewResult("MP", herdout.Exists, `(1:X0=1 /\ 1:X2=0)`, []herdout.State{
		st("1:X0=1; 1:X2=1;"), st("1:X0=0; 1:X2=0;"), st("1:X0=1; 1:X2=0;"), st("1:X0=0; 1:X2=1;"),
	}, 1, 3, nil, false)
	mp.Hash = "211d5b298572012a0869d4ded6a40b7f"
	sb := herdout.NewResult("SB+fences", herdout.NotExists, `(0:r0=0 /\ 1:r0=0)`, []herdout.State{
		st("0:r0=1; 1:r0=0;"), st("0:r0=0; 1:r0=1;"), st("0:r0=1; 1:r0=1;"),
	}, 0, 3, nil, false)
	sb.Time, sb.HasTime = 0.014, true
	undef := herdout.NewResult("race", herdout.Exists, "(x=2)", []herdout.State{st("x=1;"), st("x=2;")}, 1, 1, []string{"data-race", herdout.UndefFlag}, false)
	loop := herdout.NewResult("L029", herdout.Forall, "(0:X1=10)", nil, 0, 0, nil, true)
	fault := herdout.NewResult("A247", herdout.Forall, "(fault(P0:L0,UndefinedInstruction))", []herdout.State{st(" Fault(P0:L0,UndefinedInstruction);")}, 1, 0, nil, false)
	return []herdout.Result{mp, sb, undef, loop, fault}
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
	blocks, err := herdtest.ParseOutput(strings.NewReader(b.String()))
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
		r        herdout.Result
		kind     herdout.Kind
		verdict  herdout.Verdict
		obs      herdout.Observation
		pos, neg int
	}{
		{rs[0], herdout.Allowed, herdout.Ok, herdout.Sometimes, 1, 3},
		{rs[1], herdout.Forbidden, herdout.Ok, herdout.Never, 3, 0}, // ~exists: Positive counts the failing executions
		{rs[2], herdout.Allowed, herdout.Undef, herdout.Sometimes, 1, 1},
		{rs[3], herdout.Required, herdout.Ok, herdout.Never, 0, 0},
		{rs[4], herdout.Required, herdout.Ok, herdout.Always, 1, 0},
	}
	for _, c := range cases {
		if c.r.Kind() != c.kind || c.r.Verdict != c.verdict || c.r.Observation != c.obs || c.r.Positive != c.pos || c.r.Negative != c.neg {
			t.Errorf("%s: got %s %s %s %d %d, want %s %s %s %d %d", c.r.Name,
				c.r.Kind(), c.r.Verdict, c.r.Observation, c.r.Positive, c.r.Negative,
				c.kind, c.verdict, c.obs, c.pos, c.neg)
		}
	}
	if got := rs[2].Flags; !slices.Equal(got, []string{herdout.UndefFlag, "data-race"}) {
		t.Errorf("flags %v: want *undef* first", got)
	}
	if r := herdout.NewResult("t", herdout.NotExists, "(x=1)", nil, 2, 1, nil, false); r.Verdict != herdout.No {
		t.Errorf("~exists with a positive execution: verdict %s, want No", r.Verdict)
	}
	if r := herdout.NewResult("t", herdout.Forall, "(x=1)", nil, 2, 1, nil, false); r.Verdict != herdout.No || r.Observation != herdout.Sometimes {
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
		var states []herdout.State
		for _, l := range c.in {
			states = append(states, st(l))
		}
		states = herdout.SortStates(states)
		var got []string
		for _, s := range states {
			got = append(got, s.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCompareFlags: flags raised on one side only are differences, in
// either direction, and their order is not.
