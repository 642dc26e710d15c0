package events_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/aarch64"
	"github.com/purr-mcm/purr/litmus/c"
	_ "github.com/purr-mcm/purr/litmus/x86"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestCStatementOrder checks program order inside C statements against
// herd's C semantics (herd/CSem.ml): the operands of a binary operator and
// the arguments of a call are in parallel (its >>|), what a statement does
// with their values comes after them, and an atomic operation's own steps
// are in sequence. Each path of P0 is its events in order, then the pairs
// po relates.
func TestCStatementOrder(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // per path
	}{
		{"binary operands in parallel",
			`int r = atomic_load_explicit(x, memory_order_acquire) + *y;`,
			[]string{"Rx Ry:"}},
		{"nested operands in parallel",
			`int r = *x + (*y - *z);`,
			[]string{"Rx Ry Rz:"}},
		{"statements in sequence",
			`int r = *x + *y; *z = r;`,
			[]string{"Rx Ry Wz: Rx<Wz Ry<Wz"}},
		{"a store after its value",
			`*z = *x;`,
			[]string{"Rx Wz: Rx<Wz"}},
		{"nested calls: arguments in parallel, the store after both",
			`atomic_store_explicit(z, atomic_load_explicit(x, memory_order_relaxed) + atomic_load_explicit(y, memory_order_relaxed), memory_order_relaxed);`,
			[]string{"Rx Ry Wz: Rx<Wz Ry<Wz"}},
		{"an exchange after its value",
			`int r = atomic_exchange_explicit(z, *x, memory_order_relaxed);`,
			[]string{"Rx Rz Wz: Rx<Rz Rx<Wz Rz<Wz"}},
		{"compare_exchange: expected read first, then the object; a failure writes expected last",
			`int r = atomic_compare_exchange_strong_explicit(x, y, 1, memory_order_relaxed, memory_order_relaxed);`,
			[]string{"Ry Rx Wx: Ry<Rx Ry<Wx Rx<Wx", "Ry Rx Wy: Ry<Rx Ry<Wy Rx<Wy"}},
		{"compare_exchange's desired value after the expected read",
			`int r = atomic_compare_exchange_strong_explicit(x, y, *z, memory_order_relaxed, memory_order_relaxed);`,
			[]string{"Ry Rz Rx Wx: Ry<Rz Ry<Rx Ry<Wx Rz<Rx Rz<Wx Rx<Wx", "Ry Rx Wy: Ry<Rx Ry<Wy Rx<Wy"}},
		{"Linux exchange: the fences around, its arguments after the first",
			`int r = __xchg{mb}(x, __load{once}(*y));`,
			[]string{"F Ry Rx Wx F: F<Ry F<Rx F<Wx F<F Ry<Rx Ry<Wx Ry<F Rx<Wx Rx<F Wx<F"}},
		{"Linux cmpxchg: each outcome evaluates its arguments",
			`int r = __cmpxchg{mb}(x, __load{once}(*y), __load{once}(*z));`,
			[]string{
				"F Ry Rz Rx Wx F: F<Ry F<Rz F<Rx F<Wx F<F Ry<Rx Ry<Wx Ry<F Rz<Rx Rz<Wx Rz<F Rx<Wx Rx<F Wx<F",
				"Ry Rx: Ry<Rx",
			}},
		{"a loop's later pass after the earlier, whatever the parts",
			`while (*x + *y < 1) { }`,
			[]string{"Rx Ry Rx Ry: Rx<Rx Rx<Ry Ry<Rx Ry<Ry", "Rx Ry:"}},
		{"Linux RMW with an operand read",
			`int r = __atomic_op_return{once}(x, +, __load{once}(*y) + __load{once}(*z));`,
			[]string{"Ry Rz Rx Wx: Ry<Rx Ry<Wx Rz<Rx Rz<Wx Rx<Wx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "P0(int *x, int *y, int *z) { " + tt.body + " }"
			prog, err := c.TranslateSource("t.c", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			regs := map[int]map[string]outcome.Value{0: {}}
			mem := map[outcome.Value]outcome.Value{}
			for _, v := range []string{"x", "y", "z"} {
				regs[0][v] = outcome.Addr(v)
				mem[outcome.Addr(v)] = outcome.Int(0)
			}
			u, err := events.Unfold(prog, 1, regs, mem)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, leaf := range u.Leaves[0] {
				got = append(got, pathOrder(leaf))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s\ngot  %q\nwant %q", src, got, tt.want)
			}
		})
	}
}

// TestInstructionOrder checks program order around and inside assembly
// instructions with several events. herd7's po orders instructions and,
// inside one, what its iico orders: an AArch64 SWP's read and write are
// unordered (both follow the store before and precede the load after),
// an X86 INC or XCHG reads before it writes.
func TestInstructionOrder(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"AArch64 SWP: read and write unordered", `AArch64 T
{ 0:X1=x; 0:X3=y; 0:X5=z; }
 P0             ;
 STR W0,[X1]    ;
 SWP W4,W2,[X3] ;
 LDR W6,[X5]    ;
exists (0:X2=0)
`, "Wx Ry Wy Rz: Wx<Ry Wx<Wy Wx<Rz Ry<Rz Wy<Rz"},
		// An XCHG's read and write are not: herd7's exchange leads from one
		// to the other by control (iico_ctrl), not data.
		{"X86 INC: the read before the write; XCHG: neither", `X86 T
{ }
 P0           ;
 MOV [x],$1   ;
 INC [y]      ;
 XCHG [z],EAX ;
exists (0:EAX=0)
`, "Wx Ry Wy Rz Wz: Wx<Ry Wx<Wy Wx<Rz Wx<Wz Ry<Wy Ry<Rz Ry<Wz Wy<Rz Wy<Wz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test, err := litmus.Parse("T.litmus", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			regs := map[int]map[string]outcome.Value{0: {"X1": outcome.Addr("x"), "X3": outcome.Addr("y"), "X5": outcome.Addr("z")}}
			mem := map[outcome.Value]outcome.Value{outcome.Addr("x"): outcome.Int(0), outcome.Addr("y"): outcome.Int(0), outcome.Addr("z"): outcome.Int(0)}
			u, err := events.Unfold(test.Program, 1, regs, mem)
			if err != nil {
				t.Fatal(err)
			}
			if got := pathOrder(u.Leaves[0][0]); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// pathOrder prints the memory accesses and fences on the path to leaf and
// the pairs of them po relates.
func pathOrder(leaf *events.Segment) string {
	var path []*events.Event
	for s := leaf; s != nil; s = s.Parent {
		var evs []*events.Event
		for _, e := range s.Events {
			if e.IsMem() || e.Kind == events.KindFence {
				evs = append(evs, e)
			}
		}
		path = append(evs, path...)
	}
	name := func(e *events.Event) string {
		if e.Kind == events.KindFence {
			return "F"
		}
		loc, _ := e.Addr.IsConst()
		if e.IsRead() {
			return "R" + loc.Sym
		}
		return "W" + loc.Sym
	}
	var names, po []string
	for i, a := range path {
		names = append(names, name(a))
		for _, b := range path[i+1:] {
			if events.POOrdered(b, a) {
				po = append(po, fmt.Sprintf("!%s<%s", name(b), name(a)))
			}
			if events.POOrdered(a, b) {
				po = append(po, name(a)+"<"+name(b))
			}
		}
	}
	return strings.TrimSpace(strings.Join(names, " ") + ": " + strings.Join(po, " "))
}
