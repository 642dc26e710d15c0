package family

import (
	"fmt"
	"strings"
)

// A Family is a sequence of tests indexed by a size N.
type Family struct {
	Name string
	Min  int                // the smallest meaningful size
	Test func(n int) string // the litmus text of the member of size n
}

// All lists the families, in a fixed order.
var All = []Family{
	{"SB", 2, func(n int) string { return sbRing(n, "") }},
	{"SB+dmb", 2, func(n int) string { return sbRing(n, "DMB SY") }},
	{"Writers", 1, writers},
	{"IRIW", 2, iriw},
	{"MP", 2, mpChain},
	{"Swaps", 2, swaps},
}

// Lookup returns the family of that name.
func Lookup(name string) (Family, bool) {
	for _, f := range All {
		if f.Name == name {
			return f, true
		}
	}
	return Family{}, false
}

// program lays threads out in herd's columns: one column per thread, one
// row per instruction, short threads padded.
func program(threads [][]string) string {
	rows := 0
	for _, t := range threads {
		rows = max(rows, len(t))
	}
	var b strings.Builder
	for i := range threads {
		if i > 0 {
			b.WriteString(" |")
		}
		fmt.Fprintf(&b, " %-18s", fmt.Sprintf("P%d", i))
	}
	b.WriteString(" ;\n")
	for r := 0; r < rows; r++ {
		for i, t := range threads {
			if i > 0 {
				b.WriteString(" |")
			}
			ins := ""
			if r < len(t) {
				ins = t[r]
			}
			fmt.Fprintf(&b, " %-18s", ins)
		}
		b.WriteString(" ;\n")
	}
	return b.String()
}

// test assembles a whole litmus test.
func test(name, doc string, init []string, threads [][]string, cond string) string {
	return fmt.Sprintf("AArch64 %s\n%q\n{\n%s\n}\n%sexists (%s)\n",
		name, doc, strings.Join(init, " "), program(threads), cond)
}

func loc(i int) string { return fmt.Sprintf("x%d", i) }

// sbRing: thread i writes x_i, then (after the fence, if any) reads
// x_{i+1 mod n}; can every read see 0?
func sbRing(n int, fence string) string {
	var init []string
	var threads [][]string
	var cond []string
	for i := 0; i < n; i++ {
		init = append(init, fmt.Sprintf("%d:X1=%s; %d:X3=%s;", i, loc(i), i, loc((i+1)%n)))
		t := []string{"MOV W0,#1", "STR W0,[X1]"}
		if fence != "" {
			t = append(t, fence)
		}
		threads = append(threads, append(t, "LDR W2,[X3]"))
		cond = append(cond, fmt.Sprintf("%d:X2=0", i))
	}
	name := fmt.Sprintf("SB-%d", n)
	if fence != "" {
		name = fmt.Sprintf("SB+dmb-%d", n)
	}
	return test(name, "store buffering ring", init, threads, strings.Join(cond, " /\\ "))
}

// writers: threads 0..n-1 each write their own value to x; thread n reads
// x twice. Can the reader see the last writer's value, then the first's?
func writers(n int) string {
	var init []string
	var threads [][]string
	for i := 0; i < n; i++ {
		init = append(init, fmt.Sprintf("%d:X1=x;", i))
		threads = append(threads, []string{fmt.Sprintf("MOV W0,#%d", i+1), "STR W0,[X1]"})
	}
	init = append(init, fmt.Sprintf("%d:X1=x;", n))
	threads = append(threads, []string{"LDR W0,[X1]", "LDR W2,[X1]"})
	cond := fmt.Sprintf("%d:X0=%d /\\ %d:X2=1", n, n, n)
	return test(fmt.Sprintf("Writers-%d", n), "n writers to one location, one reader", init, threads, cond)
}

// iriw: two writers (x=1, y=1) and n readers, reading x then y (even
// readers) or y then x (odd readers). Can two readers disagree on the
// order of the writes?
func iriw(n int) string {
	init := []string{"0:X1=x;", "1:X1=y;"}
	threads := [][]string{{"MOV W0,#1", "STR W0,[X1]"}, {"MOV W0,#1", "STR W0,[X1]"}}
	for i := 0; i < n; i++ {
		p := i + 2
		a, b := "x", "y"
		if i%2 == 1 {
			a, b = b, a
		}
		init = append(init, fmt.Sprintf("%d:X1=%s; %d:X3=%s;", p, a, p, b))
		threads = append(threads, []string{"LDR W0,[X1]", "LDR W2,[X3]"})
	}
	cond := "2:X0=1 /\\ 2:X2=0 /\\ 3:X0=1 /\\ 3:X2=0"
	return test(fmt.Sprintf("IRIW-%d", n), "independent reads of independent writes, n readers", init, threads, cond)
}

// mpChain: thread 0 writes the data, then flag 1; thread i reads flag i
// and writes flag i+1; the last thread reads the last flag, then the data.
func mpChain(n int) string {
	init := []string{"0:X1=data; 0:X3=f1;"}
	threads := [][]string{{"MOV W0,#1", "STR W0,[X1]", "STR W0,[X3]"}}
	cond := []string{}
	for i := 1; i < n; i++ {
		init = append(init, fmt.Sprintf("%d:X1=f%d; %d:X3=f%d;", i, i, i, i+1))
		threads = append(threads, []string{"LDR W0,[X1]", "MOV W2,#1", "STR W2,[X3]"})
		cond = append(cond, fmt.Sprintf("%d:X0=1", i))
	}
	init = append(init, fmt.Sprintf("%d:X1=f%d; %d:X3=data;", n, n, n))
	threads = append(threads, []string{"LDR W0,[X1]", "LDR W2,[X3]"})
	cond = append(cond, fmt.Sprintf("%d:X0=1 /\\ %d:X2=0", n, n))
	return test(fmt.Sprintf("MP-%d", n), "message passing along a chain of n threads", init, threads, strings.Join(cond, " /\\ "))
}

// swaps: n participants each swap their own token into t and publish the
// token they got in their own slot s_i. Can two participants get the same
// token?
func swaps(n int) string {
	var init []string
	var threads [][]string
	for i := 0; i < n; i++ {
		init = append(init, fmt.Sprintf("%d:X1=t; %d:X3=s%d;", i, i, i))
		threads = append(threads, []string{fmt.Sprintf("MOV W0,#%d", i+1), "SWP W0,W2,[X1]", "STR W2,[X3]"})
	}
	return test(fmt.Sprintf("Swaps-%d", n), "n participants exchange a token with swaps", init, threads, "0:X2=0 /\\ 1:X2=0")
}
