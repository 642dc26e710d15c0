package events_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// TestReadWrites checks what orders each read-write pair on loops of each
// shape: a branch on the read (control), a register carrying its value
// into the write's value (data) or address (addr), a fence between, and
// the meet over paths and iterations.
func TestReadWrites(t *testing.T) {
	const head = "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n"
	tests := []struct {
		name, code string
		want       []string // "readLine>writeLine facts"
	}{
		{name: "plain", code: " LDR W0,[X1] ;\n STR W2,[X3] ;\n",
			want: []string{"4>5 independent"}},
		{name: "data and address",
			code: " LDR W0,[X1] ;\n ADD W2,W0,#1 ;\n STR W2,[X3] ;\n STR W2,[X3,W0,SXTW] ;\n",
			want: []string{"4>6 data", "4>7 data addr"}},
		{name: "a register overwritten ends the dependency",
			code: " LDR W0,[X1] ;\n MOV W0,#1 ;\n STR W0,[X3] ;\n",
			want: []string{"4>6 independent"}},
		{name: "a branch orders every later write",
			code: " LDR W0,[X1] ;\n CBZ W0,L0 ;\n STR W2,[X3] ;\nL0: ;\n STR W2,[X1] ;\n",
			want: []string{"4>6 ctrl", "4>8 ctrl loc"}},
		{name: "a fence on one path only",
			code: " LDR W0,[X1] ;\n CBZ W2,L0 ;\n DMB ISH ;\nL0: ;\n STR W2,[X3] ;\n",
			want: []string{"4>8 independent"}},
		{name: "a fence on every path",
			code: " LDR W0,[X1] ;\n DMB ISH ;\n CBZ W2,L0 ;\n STR W2,[X1] ;\nL0: ;\n STR W2,[X3] ;\n",
			want: []string{"4>7 loc independent DMB.ISH", "4>9 independent DMB.ISH"}},
		{name: "a loop's next iteration: the write before the branch",
			code: "L0: ;\n STR W2,[X3] ;\n LDR W0,[X1] ;\n CBZ W0,L0 ;\n",
			want: []string{"6>5 ctrl"}},
		{name: "a loop whose write comes before the branch",
			code: "L0: ;\n LDR W0,[X1] ;\n STR W0,[X3] ;\n CBZ W2,L0 ;\n",
			want: []string{"5>6 data", "5>6 unrecorded"}},
		// The store of the read's iteration depends on it by data, that
		// of the next by control: each instance ordered on its own.
		{name: "data in the iteration, control across",
			code: "L0: ;\n LDR W0,[X1] ;\n ADD W4,W0,#1 ;\n STR W4,[X3] ;\n CBNZ W0,L0 ;\n",
			want: []string{"5>7 data", "5>7 ctrl unrecorded"}},
		// The store of an iteration has no data dependency on the read of
		// the one before, and the status of a failed one depends on
		// nothing: the read of a failed iteration is not ordered. The
		// status says whether the store-exclusive succeeded, which no
		// value read decides: the STR of W4 depends on no read.
		{name: "a store-exclusive's status",
			code: "L0: ;\n LDXR W0,[X1] ;\n STXR W4,W0,[X1] ;\n STR W4,[X3] ;\n CBNZ W4,L0 ;\n",
			want: []string{"5>6 data loc", "5>6 loc unrecorded", "5>7 independent"}},
		// A compare-and-swap loop: a failed read reaches the branch that
		// closes its iteration through the register it sets; the writes of
		// later iterations are control dependent on it, though the paths
		// by the other outcomes meet it there without that register (on
		// them, an earlier iteration's branch ordered it already). The
		// success whose register takes the old value from Rs (herd's
		// DataFromRRs) orders the next iteration by a pick dependency only.
		{name: "a compare-and-swap's failed read and the next iteration",
			code: " MOV W5,#1 ;\nL0: ;\n MOV W2,#0 ;\n CAS W2,W5,[X1] ;\n CBNZ W2,L0 ;\n",
			want: []string{"7>7 ctrl loc unrecorded", "7>7 ctrl loc unrecorded", "7>7 ctrl loc unrecorded", "7>7 ctrl loc unrecorded",
				"7>7 loc unrecorded rmw", "7>7 pick-ctrl loc unrecorded", "7>7 pick-ctrl loc unrecorded",
				"7>7 ctrl loc unrecorded", "7>7 loc unrecorded rmw", "7>7 ctrl loc unrecorded"}},
		// A read before a loop whose first iteration writes a value
		// computed from it, and whose branch on it orders the later ones.
		{name: "data in the first iteration, control in the later ones",
			code: " LDR W2,[X1] ;\nL0: ;\n ADD W4,W2,#1 ;\n STR W4,[X3] ;\n CMP W2,#0 ;\n MOV W2,#1 ;\n B.NE L0 ;\n",
			want: []string{"4>7 ctrl|data"}},
		// What a write may depend on without a dependency herd records
		// between the two (unrecorded): a value read back from the
		// thread's own store, the value of a read at an address computed
		// from the read. (Without alias analysis, any later read may read
		// back a store that carried the value: the loops above.) A pick's
		// condition is a pick dependency.
		{name: "a store read back",
			code: " LDR W0,[X1] ;\n STR W0,[X3] ;\n LDR W5,[X3] ;\n STR W5,[X1] ;\n",
			want: []string{"4>5 data", "4>7 loc unrecorded", "6>7 data"}},
		{name: "a read at a dependent address",
			code: " LDR W0,[X1] ;\n LDR W5,[X3,W0,SXTW] ;\n STR W5,[X1] ;\n",
			want: []string{"4>6 loc unrecorded", "5>6 data"}},
		// The parts of an atomic: no order but theirs.
		{name: "an LDADD's parts",
			code: " LDADD W2,W0,[X1] ;\n",
			want: []string{"4>4 loc unrecorded rmw"}},
		// A pick's condition makes a pick dependency (herd's), no plain one.
		{name: "a pick's condition",
			code: " LDR W0,[X1] ;\n CMP W0,#1 ;\n CSEL W5,W6,W7,EQ ;\n STR W5,[X3] ;\n",
			want: []string{"4>7 pick-data"}},
		{name: "a branch on a pick",
			code: " LDR W0,[X1] ;\n CMP W0,#1 ;\n CSEL W5,W6,W7,EQ ;\n CBZ W5,L0 ;\n STR W2,[X3] ;\nL0: ;\n",
			want: []string{"4>8 pick-ctrl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeReadWrites(t, head+tt.code+"exists (0:X0=0)\n"); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// describeReadWrites parses a test and describes its read-write pairs.
func describeReadWrites(t *testing.T, src string) []string {
	t.Helper()
	test, err := litmus.Parse("T.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rws, err := events.ReadWrites(test.Program)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rw := range rws {
		out = append(out, describe(rw))
	}
	return out
}

func describe(rw events.ReadWrite) string {
	s := fmt.Sprintf("%d>%d", rw.Read.Pos.Line, rw.Write.Pos.Line)
	for _, f := range []struct {
		on   bool
		name string
	}{{rw.Ctrl, "ctrl"}, {rw.Data, "data"}, {rw.Addr, "addr"}, {rw.PickCtrl && !rw.Ctrl, "pick-ctrl"},
		{rw.PickData && !rw.Data, "pick-data"}, {rw.PickAddr && !rw.Addr, "pick-addr"},
		{rw.CtrlOrData && !rw.Ctrl && !rw.Data, "ctrl|data"}, {rw.CtrlOrAddr && !rw.Ctrl && !rw.Addr, "ctrl|addr"},
		{rw.PickCtrlOrData && !rw.CtrlOrData && !rw.PickCtrl && !rw.PickData, "pick-ctrl|pick-data"},
		{rw.PickCtrlOrAddr && !rw.CtrlOrAddr && !rw.PickCtrl && !rw.PickAddr, "pick-ctrl|pick-addr"},
		{rw.SameLoc, "loc"}, {!rw.MayDepend, "independent"},
		{rw.MayUnrecorded, "unrecorded"}, {rw.Same && rw.RMW, "rmw"}, {rw.Same && !rw.RMW, "same"}} {
		if f.on {
			s += " " + f.name
		}
	}
	for _, f := range rw.Fences {
		s += " " + f
	}
	return s
}

// TestReadWritesAgreeWithUnfolding holds ReadWrites to the event
// structure the unfolding builds: on every read and later write of a
// path, at three iterations of every loop, what it says orders their
// instructions orders the events: the write's ctrl, data or addr
// dependencies hold the read, a fence of its tags lies between; and a
// write it says may not depend on the read has no dependency on it.
func TestReadWritesAgreeWithUnfolding(t *testing.T) {
	var files []string
	for _, pattern := range []string{"testdata/loops/*.litmus", "testdata/riscv/*.litmus", "testdata/ppc/*.litmus",
		"testdata/arm/*.litmus", "testdata/mips/*.litmus", "testdata/x86/*.litmus", "testdata/classic/*.litmus"} {
		fs, _ := filepath.Glob(filepath.Join("..", "..", "..", pattern))
		files = append(files, fs...)
	}
	if d := shared.Dir(); d != "" {
		fs, _ := filepath.Glob(filepath.Join(d, "corpus", "herd-regression", "AArch64", "*.litmus"))
		files = append(files, fs...)
		// C's control dependencies, which end at their branches' joins.
		fs, _ = filepath.Glob(filepath.Join(d, "corpus", "dat3m-c11", "*", "*.litmus"))
		files = append(files, fs...)
		fs, _ = filepath.Glob(filepath.Join(d, "corpus", "random-c", "*.litmus"))
		files = append(files, fs...)
	}
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		test, err := litmus.Parse(f, src)
		if err != nil {
			continue
		}
		rws, err := events.ReadWrites(test.Program)
		if err != nil {
			continue
		}
		_, regs, mem, err := events.InitialState(test)
		if err != nil {
			continue
		}
		u, err := events.UnfoldWith(context.Background(), test.Program, events.UnfoldOptions{Unroll: 3, Retries: -1}, regs, mem)
		if err != nil {
			continue
		}
		checked++
		// What ReadWrites says of a pair of instructions, by their events'
		// thread and positions and whether the read is an older instance
		// (what all pairs at them have: an LDP's two reads share one).
		facts := map[string]events.ReadWrite{}
		for _, rw := range rws {
			k := fmt.Sprint(rw.Thread, rw.Read.Pos, rw.Write.Pos, rw.Older)
			if old, ok := facts[k]; ok {
				rw.Ctrl, rw.Data, rw.Addr = rw.Ctrl && old.Ctrl, rw.Data && old.Data, rw.Addr && old.Addr
				rw.Fences = slices.DeleteFunc(rw.Fences, func(f string) bool { return !slices.Contains(old.Fences, f) })
				rw.MayDepend = rw.MayDepend || old.MayDepend
				rw.PickCtrl, rw.PickData, rw.PickAddr = rw.PickCtrl && old.PickCtrl, rw.PickData && old.PickData, rw.PickAddr && old.PickAddr
				rw.CtrlOrData, rw.CtrlOrAddr = rw.CtrlOrData && old.CtrlOrData, rw.CtrlOrAddr && old.CtrlOrAddr
				rw.PickCtrlOrData, rw.PickCtrlOrAddr = rw.PickCtrlOrData && old.PickCtrlOrData, rw.PickCtrlOrAddr && old.PickCtrlOrAddr
				rw.SameLoc = rw.SameLoc && old.SameLoc
			}
			facts[k] = rw
		}
		for _, w := range u.Events {
			if w.Kind != events.KindWrite || w.Thread < 0 {
				continue
			}
			for _, r := range u.Events {
				if !r.IsRead() || !events.POOrdered(r, w) {
					continue
				}
				older := olderInstance(r, w)
				rw, ok := facts[fmt.Sprint(r.Thread, r.Pos, w.Pos, older)]
				if !ok && older {
					rw, ok = facts[fmt.Sprint(r.Thread, r.Pos, w.Pos, false)] // ordered as the latest
				}
				if !ok {
					t.Errorf("%s: the read at %s and the write at %s after it are no pair of ReadWrites", f, r.Pos, w.Pos)
					continue
				}
				if msg := disagreement(rw, r, w); msg != "" {
					t.Errorf("%s: read at %s, write at %s: %s", f, r.Pos, w.Pos, msg)
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("%d tests checked, want at least 50", checked)
	}
}

// olderInstance tells whether another instance of r's instruction runs
// between r and w on w's path: r is then one of the older instances.
func olderInstance(r, w *events.Event) bool {
	for s := w.Seg; s != nil; s = s.Parent {
		for _, e := range s.Events {
			if e.Depth > r.Depth && e.Depth < w.Depth && e.IsRead() && e.Code == r.Code && e.Instr != r.Instr {
				return true
			}
		}
	}
	return false
}

// disagreement says what rw claims that the events r and w do not have.
func disagreement(rw events.ReadWrite, r, w *events.Event) string {
	var out []string
	if rw.Ctrl && !slices.Contains(w.CtrlDeps, r) {
		out = append(out, "no ctrl")
	}
	if rw.Data && !slices.Contains(w.DataDeps, r) {
		out = append(out, "no data")
	}
	if rw.Addr && !slices.Contains(w.AddrDeps, r) {
		out = append(out, "no addr")
	}
	for _, pick := range []struct {
		claimed     bool
		deps, picks []*events.Event
		name        string
	}{{rw.PickCtrl, w.CtrlDeps, w.CtrlPicks, "pick-ctrl"}, {rw.PickData, w.DataDeps, w.DataPicks, "pick-data"}, {rw.PickAddr, w.AddrDeps, w.AddrPicks, "pick-addr"}} {
		if pick.claimed && !slices.Contains(pick.deps, r) && !slices.Contains(pick.picks, r) {
			out = append(out, "no "+pick.name)
		}
	}
	for _, either := range []struct {
		claimed bool
		deps    [][]*events.Event
		name    string
	}{{rw.CtrlOrData, [][]*events.Event{w.CtrlDeps, w.DataDeps}, "ctrl or data"},
		{rw.CtrlOrAddr, [][]*events.Event{w.CtrlDeps, w.AddrDeps}, "ctrl or addr"},
		{rw.PickCtrlOrData, [][]*events.Event{w.CtrlDeps, w.CtrlPicks, w.DataDeps, w.DataPicks}, "pick-ctrl or pick-data"},
		{rw.PickCtrlOrAddr, [][]*events.Event{w.CtrlDeps, w.CtrlPicks, w.AddrDeps, w.AddrPicks}, "pick-ctrl or pick-addr"}} {
		if either.claimed && !slices.ContainsFunc(either.deps, func(d []*events.Event) bool { return slices.Contains(d, r) }) {
			out = append(out, "no "+either.name)
		}
	}
	if rw.SameLoc && (fmt.Sprint(r.Addr) != fmt.Sprint(w.Addr) || r.Size != w.Size) {
		out = append(out, fmt.Sprintf("addresses %v and %v", r.Addr, w.Addr))
	}
	if !rw.MayDepend {
		for _, deps := range [][]*events.Event{w.CtrlDeps, w.DataDeps, w.AddrDeps, w.CtrlPicks, w.DataPicks, w.AddrPicks} {
			if slices.Contains(deps, r) {
				out = append(out, "a dependency on a read it may not depend on")
				break
			}
		}
	}
	if rw.Same && !events.SameInstruction(r, w) {
		out = append(out, "parts of two instructions")
	}
	if (rw.Ctrl || rw.Data || rw.Addr) && events.SameInstruction(r, w) {
		out = append(out, "a dependency inside one instruction")
	}
	for _, f := range rw.Fences {
		if !fenceBetween(r, w, f) {
			out = append(out, "no fence "+f)
		}
	}
	return strings.Join(out, ", ")
}

// fenceBetween tells whether a fence of the key lies between r and w on
// w's path.
func fenceBetween(r, w *events.Event, key string) bool {
	for s := w.Seg; s != nil; s = s.Parent {
		for _, e := range s.Events {
			if e.Kind == events.KindFence && e.Depth > r.Depth && e.Depth < w.Depth && events.TagsKey(e.Tags) == key {
				return true
			}
		}
	}
	return false
}

// TestReadWritesC checks C's control dependencies, which end where the
// branch's paths join (herd's C semantics): a loop's condition orders the
// writes of its later iterations, not the write after the loop; an if's
// condition orders the writes of its arms only.
func TestReadWritesC(t *testing.T) {
	const src = `C T
{}
P0(atomic_int *x, atomic_int *y)
{
	int r0;
	do {
		r0 = atomic_load_explicit(x, memory_order_relaxed);
		atomic_store_explicit(y, 1, memory_order_relaxed);
	} while (r0 == 0);
	atomic_store_explicit(x, 2, memory_order_relaxed);
	if (r0 == 3) {
		atomic_store_explicit(y, 3, memory_order_relaxed);
	}
	atomic_store_explicit(y, 4, memory_order_relaxed);
}
exists (0:r0=0)
`
	// The read's older instances (the iterations before the last) order
	// nothing after the loop: the if tests the latest. In C every write
	// after a branch on the read may depend on it unrecorded (past the
	// branch's join).
	want := []string{"7>8 independent", "7>8 ctrl unrecorded", "7>10 loc unrecorded", "7>12 ctrl unrecorded", "7>12 unrecorded", "7>14 unrecorded"}
	if got := describeReadWrites(t, src); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
