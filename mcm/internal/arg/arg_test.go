package arg_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/aarch64"
	"github.com/purr-mcm/purr/mcm/internal/arg"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// explore parses an AArch64 test of two threads (code lines given side by
// side) and explores it, tracking the locations named.
func explore(t *testing.T, p0, p1 []string, tracked []string, lim arg.Limits) (*arg.Graph, error) {
	t.Helper()
	src := "AArch64 T\n{ uint64_t w; 0:X1=x; 0:X3=y; 0:X4=w; 1:X1=x; 1:X3=y; 1:X4=w; }\n P0 | P1 ;\n"
	for i := range max(len(p0), len(p1)) {
		line := func(code []string) string {
			if i < len(code) {
				return code[i]
			}
			return ""
		}
		src += fmt.Sprintf(" %s | %s ;\n", line(p0), line(p1))
	}
	test, err := litmus.Parse("T.litmus", []byte(src+"exists (x=0)\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, regs, mem, err := events.InitialState(test)
	if err != nil {
		t.Fatal(err)
	}
	track := map[outcome.Value]bool{}
	for _, l := range tracked {
		track[outcome.Value{Sym: l}] = true
	}
	return arg.Explore(context.Background(), test.Program, regs, mem, track, lim)
}

// describe is what the graphs say of a location: its values, or "any"
// from the havocked locations named.
func describe(g *arg.Graph, loc string) string {
	vals, top, from := g.Values(outcome.Value{Sym: loc})
	var parts []string
	if top {
		for _, f := range from {
			parts = append(parts, f.String())
		}
		return "any from [" + strings.Join(parts, " ") + "]"
	}
	for _, v := range vals {
		parts = append(parts, v.String())
	}
	return strings.Join(parts, " ")
}

// TestExplore checks the values the graphs give locations: loops end by
// covering, tracked reads are revisited by every value written, havocked
// reads are top and say where they come from.
func TestExplore(t *testing.T) {
	// P1 acknowledges rounds 0 and 1: it waits for x to show the round,
	// then writes what it read plus one to y. P0 counts x up while it
	// reads y one behind.
	relay := []string{"MOV W6,#0", "L1:", "LDR W4,[X1]", "CMP W4,W6", "B.NE L1", "ADD W6,W6,#1", "ADD W8,W4,#1", "STR W8,[X3]", "CMP W6,#2", "B.NE L1"}
	rounds := []string{"MOV W5,#0", "L0:", "LDR W2,[X3]", "ADD W5,W5,#1", "STR W5,[X1]", "SUB W7,W5,#1", "CMP W2,W7", "B.EQ L0"}
	tests := []struct {
		name     string
		p0, p1   []string
		tracked  []string
		loc      string
		want     string
		wantFail string
	}{
		{name: "a counter a loop bounds", p0: []string{"MOV W5,#0", "L0:", "ADD W5,W5,#1", "STR W5,[X1]", "CMP W5,#3", "B.NE L0"},
			loc: "x", want: "0 1 2 3"},
		{name: "a havocked read", p0: rounds, p1: relay, loc: "y", want: "any from [x]"},
		{name: "the read tracked", p0: rounds, p1: relay, tracked: []string{"x"}, loc: "y",
			want: "any from []"}, // P0 reads y havocked: it counts on until widened
		{name: "both tracked: revisits end the rounds", p0: rounds, p1: relay, tracked: []string{"x", "y"}, loc: "x",
			want: "0 1 2 3 4"},
		{name: "a counter no branch bounds is widened", p0: []string{"MOV W5,#0", "L0:", "ADD W5,W5,#1", "STR W5,[X1]", "LDR W2,[X3]", "CBZ W2,L0"},
			loc: "x", want: "any from []"},
		{name: "x^x is zero whatever x", p0: []string{"LDR W2,[X3]", "EOR W6,W2,W2", "STR W6,[X1]"}, loc: "x", want: "0"},
		{name: "a narrow store keeps its low byte", p0: []string{"MOV X6,#511", "STRB W6,[X4]"}, loc: "w", want: "0 255"},
		{name: "a store at a havocked address", p0: []string{"LDR X6,[X3]", "MOV W7,#5", "STR W7,[X6]"}, loc: "w", want: "any from [y]"},
		{name: "a choice on a havocked value", p0: []string{"LDR W2,[X3]", "CMP W2,#1", "MOV W6,#7", "MOV W7,#8", "CSEL W8,W6,W7,EQ", "STR W8,[X1]"},
			loc: "x", want: "0 7 8"},
		{name: "too many states", p0: rounds, p1: relay, tracked: []string{"x", "y"}, wantFail: "exceed 3 states"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := arg.DefaultLimits
			if tt.wantFail != "" {
				lim.States = 3
			}
			g, err := explore(t, tt.p0, tt.p1, tt.tracked, lim)
			if tt.wantFail != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantFail) {
					t.Fatalf("error %v, want one saying %q", err, tt.wantFail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(g, tt.loc); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.loc, got, tt.want)
			}
		})
	}
}

// TestExploreCovers checks that the graphs of a spin-wait and of a
// counter that ends are small: covering ends the loops.
func TestExploreCovers(t *testing.T) {
	spin := []string{"L1:", "LDR W4,[X1]", "CBZ W4,L1", "LDR W5,[X3]"}
	g, err := explore(t, []string{"MOV W9,#1", "STR W9,[X3]", "STR W9,[X1]"}, spin, []string{"x", "y"}, arg.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if g.States > 20 {
		t.Errorf("%d states for a spin-wait, want at most 20", g.States)
	}
	if got := describe(g, "x"); got != "0 1" {
		t.Errorf("x: %s, want 0 1", got)
	}
}
