package events_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestRetries checks the retry rule on loops of each shape: the loops whose
// repeated iterations only read (a spin-wait, a failed store-exclusive)
// are cut off at their first retry, and the others are unrolled to the
// bound, which cuts them with the reason.
func TestRetries(t *testing.T) {
	const head = "{ 0:X1=x; 0:X3=y; }\n P0 ;\n"
	tests := []struct {
		name, src string
		unroll    int
		retries   int
		shown     []string // the registers the end of the thread shows (nil: all)
		// assumeSame: UnfoldOptions.AssumeSame; then depsMove is
		// Unfolding.DepsMove.
		assumeSame, depsMove bool
		// own: UnfoldOptions.OwnLatest, with the locations the final
		// state shows; then splitInstances is Unfolding.SplitInstances.
		own            bool
		shownLocs      []string
		splitInstances bool
		// What the unfolding must show: the lines where retries were cut
		// off, the reason the bound cut a loop ("" when it cut none), and
		// each path's reads and writes by location, in program order.
		retryLines []int
		cutWhy     string
		paths      []string
	}{
		{name: "a spin-wait is one pass",
			src:    "AArch64 T\n" + head + "L0: ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\n LDR W2,[X3] ;\nexists (0:X2=0)\n",
			unroll: 2, retryLines: []int{5}, paths: []string{"Rx Ry"}},
		{name: "one retry kept, for flags",
			src:    "AArch64 T\n" + head + "L0: ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\n LDR W2,[X3] ;\nexists (0:X2=0)\n",
			unroll: 2, retries: 1, retryLines: []int{5}, paths: []string{"Rx Rx Ry", "Rx Ry"}},
		{name: "a failed store-exclusive retries",
			src:    "AArch64 T\n" + head + "L0: ;\n LDXR W0,[X1] ;\n MOV W2,#2 ;\n STXR W4,W2,[X1] ;\n CBNZ W4,L0 ;\nexists (0:X0=0)\n",
			unroll: 2, retryLines: []int{5}, paths: []string{"Rx Wx"}},
		{name: "a loop that writes is no retry",
			src:    "AArch64 T\n" + head + "L0: ;\n LDR W0,[X1] ;\n STR W0,[X3] ;\n CBZ W0,L0 ;\nexists (0:X0=0)\n",
			unroll: 1, cutWhy: "an iteration writes memory (T.litmus:6:2)", paths: []string{"Rx Wy Rx Wy", "Rx Wy"}},
		{name: "a loop that counts is no retry",
			src:    "AArch64 T\n" + head + " MOV W5,#0 ;\nL0: ;\n ADD W5,W5,#1 ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\nexists (0:X5=1)\n",
			unroll: 1, cutWhy: "an iteration changes register X5", paths: []string{"Rx Rx", "Rx"}},
		{name: "a count nothing reads is no obstacle",
			src:    "AArch64 T\n" + head + " MOV W5,#0 ;\nL0: ;\n ADD W5,W5,#1 ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\nexists (0:X0=1)\n",
			unroll: 1, shown: []string{"X0"}, retryLines: []int{6}, paths: []string{"Rx"}},
		{name: "a count from a read is an obstacle",
			src:    "AArch64 T\n" + head + " LDR W5,[X3] ;\nL0: ;\n ADD W5,W5,#1 ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\nexists (0:X0=1)\n",
			unroll: 1, shown: []string{"X0"}, cutWhy: "an iteration changes register X5 to a value known only when it runs", paths: []string{"Ry Rx Rx", "Ry Rx"}},
		{name: "a loop its own values end",
			src:    "AArch64 T\n" + head + " MOV W0,#3 ;\nL0: ;\n SUB W0,W0,#1 ;\n LDR W2,[X1] ;\n CBNZ W0,L0 ;\nexists (0:X0=0)\n",
			unroll: 8, paths: []string{"Rx Rx Rx"}},
		{name: "a C spin that goes round by a continue inside an if",
			src:    "C T\n{ }\nP0(int *x, int *y) {\n  for (;;) {\n    if (atomic_load_explicit(x, memory_order_relaxed) == 0) { break; }\n    if (atomic_load_explicit(y, memory_order_relaxed) == 1) { continue; }\n    break;\n  }\n  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n}\nexists (0:r0=0)\n",
			unroll: 2, shown: []string{"r0"}, retryLines: []int{5}, paths: []string{"Rx Ry", "Rx Ry Ry"}},
		{name: "a C spin-wait",
			src:    "C T\n{ }\nP0(int *x, int *y) {\n  while (atomic_load_explicit(x, memory_order_relaxed) == 0) { }\n  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n}\nexists (0:r0=0)\n",
			unroll: 2, retryLines: []int{4}, paths: []string{"Rx Ry"}},
		{name: "a weak CAS failing spuriously retries",
			src:    "C T\n{ }\nP0(atomic_int *x) {\n  int e = atomic_load_explicit(x, memory_order_relaxed);\n  while (!atomic_compare_exchange_weak_explicit(x, &e, e + 1, memory_order_relaxed, memory_order_relaxed)) { }\n}\nexists (0:e=0)\n",
			unroll: 1, assumeSame: true, depsMove: true, retryLines: []int{5},
			cutWhy: "an iteration changes a value the statement computes on the way", paths: []string{"Rx Rx Wx", "Rx Rx Rx Wx"}},
		{name: "a weak CAS's failures change a register",
			src:    "C T\n{ }\nP0(atomic_int *x) {\n  int e = atomic_load_explicit(x, memory_order_relaxed);\n  while (!atomic_compare_exchange_weak_explicit(x, &e, e + 1, memory_order_relaxed, memory_order_relaxed)) { }\n}\nexists (0:e=0)\n",
			unroll: 1, cutWhy: "an iteration changes a value the statement computes on the way", paths: []string{"Rx Rx Wx", "Rx Rx Rx Wx"}},
		{name: "a CAS's expected value in memory retries",
			src:    casExpected("*e = 0;", "") + "exists (l=1)\n",
			unroll: 1, shown: []string{"r0"}, own: true, assumeSame: true, depsMove: true, splitInstances: true, retryLines: []int{5},
			paths: []string{"We Re Rl Wl"}},
		{name: "a CAS's expected value, the model not coherent",
			src:    casExpected("*e = 0;", "") + "exists (l=1)\n",
			unroll: 1, shown: []string{"r0"}, assumeSame: true, cutWhy: "an iteration writes memory",
			paths: []string{"We Re Rl Wl", "We Re Rl We We Re Rl Wl"}},
		{name: "a CAS's expected value the final state shows",
			src:    casExpected("*e = 0;", "") + "exists (l=1)\n",
			unroll: 1, shown: []string{"r0"}, own: true, shownLocs: []string{"e"}, assumeSame: true, cutWhy: "an iteration writes memory",
			paths: []string{"We Re Rl Wl", "We Re Rl We We Re Rl Wl"}},
		{name: "a CAS's expected value read after the loop",
			src:    casExpected("*e = 0;", "  int r0 = *e;\n") + "exists (l=1)\n",
			unroll: 1, shown: []string{"r0"}, own: true, retryLines: []int{5},
			paths: []string{"We Re Rl Wl Re", "We Re Rl We We Re Rl Wl Re"}},
		{name: "a CAS's expected value another thread reads",
			src:    casExpected("*e = 0;", "") + "P2(int *e) { int r1 = *e; }\nexists (l=1)\n",
			unroll: 1, shown: []string{"r0"}, own: true, assumeSame: true, cutWhy: "an iteration writes memory",
			paths: []string{"We Re Rl Wl", "We Re Rl We We Re Rl Wl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test, err := litmus.Parse("T.litmus", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			_, regs, mem, err := events.InitialState(test)
			if err != nil {
				t.Fatal(err)
			}
			opt := events.UnfoldOptions{Unroll: tt.unroll, Retries: tt.retries, AssumeSame: tt.assumeSame, OwnLatest: tt.own,
				Shown: func(a outcome.Value) bool { return slices.Contains(tt.shownLocs, a.Sym) }}
			if tt.shown != nil {
				opt.FinalRegs = func(_ int, reg string) bool { return slices.Contains(tt.shown, reg) }
			}
			u, err := events.UnfoldWith(context.Background(), test.Program, opt, regs, mem)
			if err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, r := range u.Retries {
				if len(lines) == 0 || lines[len(lines)-1] != r.Pos.Line {
					lines = append(lines, r.Pos.Line)
				}
			}
			if !slices.Equal(lines, tt.retryLines) {
				t.Errorf("retries cut off at lines %v, want %v", lines, tt.retryLines)
			}
			switch {
			case tt.cutWhy == "" && u.Cut:
				t.Errorf("the bound cut a loop: %+v", u.Cuts)
			case tt.cutWhy != "" && (!u.Cut || !strings.Contains(u.Cuts[0].Why, tt.cutWhy)):
				t.Errorf("cut: %v %+v, want a cut because %q", u.Cut, u.Cuts, tt.cutWhy)
			}
			if got := livePaths(u); !slices.Equal(got, tt.paths) {
				t.Errorf("paths %q, want %q", got, tt.paths)
			}
			if u.DepsMove != tt.depsMove {
				t.Errorf("DepsMove %v, want %v", u.DepsMove, tt.depsMove)
			}
			if u.SplitInstances != tt.splitInstances {
				t.Errorf("SplitInstances %v, want %v", u.SplitInstances, tt.splitInstances)
			}
		})
	}
}

// casExpected is a C thread taking a lock by a CAS whose expected value
// is in memory, as herd's tests write it: reset in the loop's body,
// then the code after the loop; another thread takes the lock.
func casExpected(reset, after string) string {
	return "C T\n{ }\nP0(atomic_int *l, int *e) {\n  *e = 0;\n" +
		"  while (!atomic_compare_exchange_strong_explicit(l, e, 1, memory_order_acquire, memory_order_relaxed)) { " + reset + " }\n" +
		after + "}\nP1(atomic_int *l) { atomic_store_explicit(l, 1, memory_order_relaxed); }\n"
}

// livePaths lists the memory accesses of each path of thread 0 that may
// execute: ending in a leaf, dead nowhere.
func livePaths(u *events.Unfolding) []string {
	var out []string
	for _, leaf := range u.Leaves[0] {
		var accesses []string
		dead := false
		for s := leaf; s != nil; s = s.Parent {
			dead = dead || s.Dead
			for i := len(s.Events) - 1; i >= 0; i-- {
				e := s.Events[i]
				if e.IsMem() {
					kind := "R"
					if e.IsWrite() {
						kind = "W"
					}
					accesses = append([]string{kind + locName(e)}, accesses...)
				}
			}
		}
		if !dead {
			out = append(out, strings.Join(accesses, " "))
		}
	}
	return out
}

// locName is the location an access's address names, when it is constant.
func locName(e *events.Event) string {
	if v, ok := e.Addr.IsConst(); ok {
		return strings.Trim(v.String(), "[]")
	}
	return "?"
}

// TestRetryTags checks that the tags of the iterations cut off are those
// of the retry's own events: a fence before or after the loop is kept in
// every execution, so a model's sets of its tags lose no member when the
// retries go (the flag of herd's aarch64fences.cat on DMB ISH), and one
// inside the loop may be removed.
func TestRetryTags(t *testing.T) {
	const head = "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n DMB ISH ;\nL0: ;\n LDAR W0,[X1] ;\n"
	tests := []struct {
		name, body   string
		want, absent []string
	}{
		{name: "fences outside the loop",
			body: " CBZ W0,L0 ;\n DMB SY ;\n LDR W2,[X3] ;\n",
			want: []string{"A"}, absent: []string{"DMB.ISH", "DMB.SY"}},
		{name: "a fence inside the loop",
			body: " DMB ISHLD ;\n CBZ W0,L0 ;\n LDR W2,[X3] ;\n",
			want: []string{"A", "DMB.ISHLD"}, absent: []string{"DMB.ISH"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := unfoldSource(t, head+tt.body+"exists (0:X2=0)\n", events.UnfoldOptions{Unroll: 2})
			if len(u.Retries) == 0 {
				t.Fatal("no retry was cut off")
			}
			for _, tag := range tt.want {
				if !u.RetryTags[tag] {
					t.Errorf("RetryTags lacks %s: %v", tag, u.RetryTags)
				}
			}
			for _, tag := range tt.absent {
				if u.RetryTags[tag] {
					t.Errorf("RetryTags holds %s, carried only outside the loop: %v", tag, u.RetryTags)
				}
			}
		})
	}
}
