package mcm

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// registerEvents unfolds an inline AArch64 test with register events and
// describes thread 0's register events and flows, one line each:
// "I:RX0<-W(I':X0)" a read of X0 by instruction I reading from the write
// of instruction I' (or "init"), "I:WX0" a write, then "data A -> B" and
// "ctrl A -> B" for iico_data and iico_ctrl, events named "I:R", "I:W"
// (memory), "I:B" (branch), "I:RX0", "I:WX0".
func registerEvents(t *testing.T, src string) []string {
	t.Helper()
	lt, err := litmus.Parse("inline.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, regs, mem, err := events.InitialState(lt)
	if err != nil {
		t.Fatal(err)
	}
	u, err := events.UnfoldRegisterEvents(context.Background(), lt.Program, 2, regs, mem)
	if err != nil {
		t.Fatal(err)
	}
	name := func(e *events.Event) string {
		switch e.Kind {
		case events.KindRead:
			return fmt.Sprintf("%d:R", e.Instr)
		case events.KindWrite:
			return fmt.Sprintf("%d:W", e.Instr)
		case events.KindBranch:
			return fmt.Sprintf("%d:B", e.Instr)
		case events.KindRegRead:
			n := fmt.Sprintf("%d:R%s", e.Instr, e.Reg)
			if e.HasTag("DATA") {
				n += "(DATA)"
			}
			return n
		case events.KindRegWrite:
			return fmt.Sprintf("%d:W%s", e.Instr, e.Reg)
		}
		return e.String()
	}
	var out []string
	for _, e := range u.Events {
		if e.Thread != 0 {
			continue
		}
		if e.Kind == events.KindRegRead {
			from := "init"
			if e.RegFrom != nil {
				from = name(e.RegFrom)
			}
			out = append(out, name(e)+" <- "+from)
		}
		if e.HasTag("BCC") {
			out = append(out, name(e)+" BCC")
		}
		for _, d := range e.IicoData {
			out = append(out, "data "+name(d)+" -> "+name(e))
		}
		for _, d := range e.IicoCtrl {
			out = append(out, "ctrl "+name(d)+" -> "+name(e))
		}
	}
	sort.Strings(out)
	return out
}

// TestRegisterEvents checks herd's event structure on small programs:
// register reads and writes per instruction, rf-reg between instructions,
// iico_data and iico_ctrl inside one (herd's CAS: the comparison chooses).
func TestRegisterEvents(t *testing.T) {
	for _, c := range []struct {
		name, code string
		want       []string
	}{
		{"address dependency through an ADD",
			`LDR W0,[X1] | ADD X2,X3,X0 | STR W4,[X2]`,
			[]string{
				"1:RX1 <- init", "2:RX0 <- 1:WX0", "2:RX3 <- init", "3:RX2 <- 2:WX2", "3:RX4(DATA) <- init",
				"data 1:R -> 1:WX0", "data 1:RX1 -> 1:R", "data 2:RX0 -> 2:WX2", "data 2:RX3 -> 2:WX2",
				"data 3:RX2 -> 3:W", "data 3:RX4(DATA) -> 3:W",
			}},
		{"control dependency through the flags",
			`LDR W0,[X1] | CMP W0,#0 | B.EQ L | L: | STR W4,[X3]`,
			[]string{ // the store on both paths of the branch
				"1:RX1 <- init", "2:RX0 <- 1:WX0", "3:B BCC", "3:RNZCV <- 2:WNZCV",
				"4:RX3 <- init", "4:RX4(DATA) <- init", "5:RX3 <- init", "5:RX4(DATA) <- init",
				"data 1:R -> 1:WX0", "data 1:RX1 -> 1:R", "data 2:RX0 -> 2:WNZCV", "data 3:RNZCV -> 3:B",
				"data 4:RX3 -> 4:W", "data 4:RX4(DATA) -> 4:W", "data 5:RX3 -> 5:W", "data 5:RX4(DATA) -> 5:W",
			}},
		{"compare and swap", `CAS W4,W2,[X3]`,
			// Two failing paths (the read gives Rs its value), two succeeding
			// as herd builds them: Rs from the read, or from Rs itself
			// chosen by the comparison; the comparison chooses the write,
			// and a success commits (herd's Branching(pred), no BCC). W4
			// holds a number: a 32-bit view of an address is refused.
			[]string{
				"1:RX2(DATA) <- init", "1:RX2(DATA) <- init",
				"1:RX3 <- init", "1:RX3 <- init", "1:RX3 <- init", "1:RX3 <- init", "1:RX4 <- init",
				"ctrl 1:R -> 1:W", "ctrl 1:R -> 1:W", "ctrl 1:R -> 1:WX4", "ctrl 1:RX4 -> 1:W", "ctrl 1:RX4 -> 1:W",
				"data 1:R -> 1:B", "data 1:R -> 1:B", "data 1:R -> 1:WX4", "data 1:R -> 1:WX4", "data 1:R -> 1:WX4",
				"data 1:RX2(DATA) -> 1:W", "data 1:RX2(DATA) -> 1:W",
				"data 1:RX3 -> 1:R", "data 1:RX3 -> 1:R", "data 1:RX3 -> 1:R", "data 1:RX3 -> 1:R",
				"data 1:RX3 -> 1:W", "data 1:RX3 -> 1:W",
				"data 1:RX4 -> 1:B", "data 1:RX4 -> 1:B", "data 1:RX4 -> 1:WX4",
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n" +
				strings.ReplaceAll(c.code, " | ", " ;\n") + " ;\nexists (0:X0=1)\n"
			got := registerEvents(t, src)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
