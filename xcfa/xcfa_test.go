package xcfa

import (
	"testing"

	"github.com/purr-mcm/purr/source"
)

func TestParallel(t *testing.T) {
	p := func(node, branch int) Par { return Par{Node: node, Branch: branch} }
	tests := []struct {
		name string
		a, b []Par
		want bool
	}{
		{"outside any composition", nil, nil, false},
		{"one inside, one after", []Par{p(1, 0)}, nil, false},
		{"two parts of one composition", []Par{p(1, 0)}, []Par{p(1, 1)}, true},
		{"one part", []Par{p(1, 1)}, []Par{p(1, 1)}, false},
		{"two compositions in sequence", []Par{p(1, 0)}, []Par{p(2, 1)}, false},
		{"nested in different parts", []Par{p(1, 0), p(2, 0)}, []Par{p(1, 1)}, true},
		{"nested in one part, in sequence", []Par{p(1, 1), p(2, 0)}, []Par{p(1, 1)}, false},
		{"nested, different inner parts", []Par{p(1, 1), p(2, 0)}, []Par{p(1, 1), p(2, 1)}, true},
	}
	for _, tt := range tests {
		if got := Parallel(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Parallel(%v, %v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := Parallel(tt.b, tt.a); got != tt.want {
			t.Errorf("%s: Parallel(%v, %v) = %v, want %v (symmetric)", tt.name, tt.b, tt.a, got, tt.want)
		}
	}
}

// TestInstrs checks the numbering of instructions: from 1, 0 for none.
func TestInstrs(t *testing.T) {
	p := NewProcess(0)
	ldr, str := p.NewInstr("LDR W0,[X1]"), p.NewInstr("STR W0,[X2]")
	mid := p.NewLoc("")
	p.AddEdge(p.Init, mid, Nop{}, source.Pos{File: "t", Line: 1, Col: 1}, 0)
	e := p.AddEdge(mid, p.NewLoc(""), Load{Dst: "W0", Addr: Reg{Name: "X1"}}, source.Pos{File: "t", Line: 2, Col: 1}, ldr)
	if ldr != 1 || str != 2 || e.Instr != ldr {
		t.Errorf("numbers %d %d, edge %d", ldr, str, e.Instr)
	}
	if got := p.Instr(e.Instr).Text; got != "LDR W0,[X1]" {
		t.Errorf("text %q", got)
	}
	if got := p.Instr(0); got != (Instr{}) {
		t.Errorf("no instruction: %+v", got)
	}
}

// TestHasLoop: a loop is a path from Init back to a location it visited;
// joining branches and unreachable cycles are none.
func TestHasLoop(t *testing.T) {
	pos := source.Pos{File: "t", Line: 1, Col: 1}
	straight := func() (*Process, []*Location) {
		p := NewProcess(0)
		locs := []*Location{p.Init}
		for range 3 {
			l := p.NewLoc("")
			p.AddEdge(locs[len(locs)-1], l, Nop{}, pos, 0)
			locs = append(locs, l)
		}
		p.Final = locs[len(locs)-1]
		return p, locs
	}
	for _, c := range []struct {
		name  string
		build func() *Process
		want  bool
	}{
		{"straight line", func() *Process { p, _ := straight(); return p }, false},
		{"branches that join", func() *Process {
			p, l := straight()
			p.AddEdge(l[0], l[2], Assume{Cond: Reg{Name: "r0"}}, pos, 0)
			p.AddEdge(l[1], l[3], Assume{Cond: Reg{Name: "r0"}}, pos, 0)
			return p
		}, false},
		{"a back edge", func() *Process {
			p, l := straight()
			p.AddEdge(l[2], l[1], Assume{Cond: Reg{Name: "r0"}}, pos, 0)
			return p
		}, true},
		{"a self loop", func() *Process {
			p, l := straight()
			p.AddEdge(l[1], l[1], Nop{}, pos, 0)
			return p
		}, true},
		{"a cycle no path reaches", func() *Process {
			p, _ := straight()
			a, b := p.NewLoc(""), p.NewLoc("")
			p.AddEdge(a, b, Nop{}, pos, 0)
			p.AddEdge(b, a, Nop{}, pos, 0)
			return p
		}, false},
	} {
		if got := c.build().HasLoop(); got != c.want {
			t.Errorf("%s: HasLoop() = %v, want %v", c.name, got, c.want)
		}
	}
}
