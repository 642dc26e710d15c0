package c

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/internal/xcfagolden"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

var update = flag.Bool("update", false, "rewrite golden files")

func parseFile(t *testing.T, path string) *litmus.Test {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	test, err := litmus.ParseWith(path, src, litmus.Options{Macros: testMacros(t)})
	if err != nil {
		t.Fatalf("%v", err)
	}
	return test
}

// TestGoldenDOT compares the XCFA of each testdata/*.litmus with its .dot.
func TestGoldenDOT(t *testing.T) {
	files, err := filepath.Glob("testdata/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			test := parseFile(t, f)
			var out bytes.Buffer
			if err := xcfa.WriteDOT(&out, test.Program); err != nil {
				t.Fatal(err)
			}
			xcfagolden.Compare(t, out.Bytes(), strings.TrimSuffix(f, ".litmus")+".dot", *update)
		})
	}
}

func translate(t *testing.T, src string) *xcfa.Program {
	t.Helper()
	p, err := TranslateSource("t.c", []byte(src), testMacros(t))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return p
}

// testMacros reads testdata/macros/linux.def, a subset of the kernel's
// primitives.
func testMacros(t *testing.T) *Macros {
	t.Helper()
	return readMacros(t, "testdata/macros/linux.def")
}

func readMacros(t *testing.T, path string) *Macros {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMacros(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ops lists a process's operations in edge order.
func ops(p *xcfa.Process) []string {
	var out []string
	for _, e := range p.Edges {
		out = append(out, xcfa.FormatOp(e.Op))
	}
	return out
}

func TestTranslate(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"plain", `P0(int *x, int *y) { int r0 = *x; *y = r0 + 1; }`,
			[]string{"load r0 <- [x] {NA}", "store [y] <- r0 + 1 {NA}"}},
		{"declaration alone makes nothing", `P0(int *x) { int r0; r0 = 2; }`,
			[]string{"r0 := 2"}},
		{"loads in an expression go to temporaries", `P0(int *x, int *y) { int r = *x + *y; }`,
			[]string{"load $t1 <- [x] {NA}", "load $t2 <- [y] {NA}", "r := $t1 + $t2"}},
		{"pointer to pointer", `P0(int **p) { int r = **p; }`,
			[]string{"load $t1 <- [p] {NA}", "load r <- [$t1] {NA}"}},
		{"c11 orders", `P0(atomic_int *x) {
			int a = atomic_load_explicit(x, memory_order_consume);
			atomic_store_explicit(x, a, memory_order_seq_cst);
			atomic_thread_fence(memory_order_acq_rel); }`,
			[]string{"load a <- [x] {CON,A}", "store [x] <- a {SC,A}", "fence {ACQ_REL,NA}"}},
		{"messages", `P0(int *x) { send(x, 1); int i = recv(x); int j; j = recv(x); send(x, i + j); }`,
			[]string{"store [x] <- 1 {SEND}", "load i <- [x] {RECV}", "load j <- [x] {RECV}", "store [x] <- i + j {SEND}"}},
		{"fetch reading its own destination", `P0(atomic_int *x) { int r = 1; r = atomic_fetch_sub_explicit(x, r, memory_order_release); }`,
			[]string{"r := 1", "load $t1 <- [x] {REL,A,RMW} rmw1", "store [x] <- $t1 - r {REL,A,RMW} rmw1", "r := $t1"}},
		{"fetch as a statement", `P0(atomic_int *x) { atomic_fetch_or_explicit(x, 4, memory_order_seq_cst); }`,
			[]string{"load $t1 <- [x] {SC,A,RMW} rmw1", "store [x] <- $t1 | 4 {SC,A,RMW} rmw1"}},
		{"strong cas, expected in memory", `P0(atomic_int *x, int *e) { int r = atomic_compare_exchange_strong_explicit(x, e, 1, memory_order_release, memory_order_acquire); }`,
			[]string{"load $t1 <- [e] {NA}",
				"load $t2 <- [x] {REL,A,RMW} rmw1", "check $t2 == $t1", "store [x] <- 1 {REL,A,RMW} rmw1", "r := 1",
				"load $t3 <- [x] {ACQ,A}", "check $t3 != $t1", "store [e] <- $t3 {NA}", "r := 0"}},
		{"weak cas, expected in a register", `P0(atomic_int *x) { int e = 0; int r = atomic_compare_exchange_weak(x, &e, 1); }`,
			[]string{"e := 0",
				"load $t1 <- [x] {SC,A,RMW} rmw1", "check $t1 == e", "store [x] <- 1 {SC,A,RMW} rmw1", "r := 1",
				"load $t2 <- [x] {SC,A}", "e := $t2", "r := 0"}},
		{"linux accesses", `P0(int *x) { int r = READ_ONCE(*x); WRITE_ONCE(*x, r); r = smp_load_acquire(x); smp_store_release(x, 2); }`,
			[]string{"load r <- [x] {Once,NA}", "store [x] <- r {Once,NA}", "load r <- [x] {Acquire,NA}", "store [x] <- 2 {Release,NA}"}},
		{"linux xchg orders", `P0(int *x) { int a = xchg(x, 1); int b = xchg_relaxed(x, 2); int c = xchg_release(x, 3); }`,
			[]string{"fence {Mb,NA}", "load a <- [x] {Once,NA,RMW} rmw1", "store [x] <- 1 {Once,NA,RMW} rmw1", "fence {Mb,NA}",
				"load b <- [x] {Once,NA,RMW} rmw2", "store [x] <- 2 {Once,NA,RMW} rmw2",
				"load c <- [x] {Once,NA,RMW} rmw3", "store [x] <- 3 {Release,NA,RMW} rmw3"}},
		{"linux cmpxchg_acquire", `P0(int *x) { int r = cmpxchg_acquire(x, 0, 1); }`,
			[]string{"load $t1 <- [x] {Acquire,NA,RMW} rmw1", "check $t1 == 0", "store [x] <- 1 {Once,NA,RMW} rmw1", "r := $t1",
				"load $t2 <- [x] {Once,NA,RMW}", "check $t2 != 0", "r := $t2"}},
		{"linux atomic ops", `P0(atomic_t *v) { atomic_add(2, v); int r = atomic_inc_return_release(v); int s = atomic_fetch_sub_acquire(1, v); }`,
			[]string{"load $t1 <- [v] {Noreturn,NA,RMW} rmw1", "store [v] <- $t1 + 2 {Once,NA,RMW} rmw1",
				"load $t2 <- [v] {Once,NA,RMW} rmw2", "store [v] <- $t2 + 1 {Release,NA,RMW} rmw2", "r := $t2 + 1",
				"load s <- [v] {Acquire,NA,RMW} rmw3", "store [v] <- s - 1 {Once,NA,RMW} rmw3"}},
		{"linux atomic_read and atomic_set: macros over macros, *X of an address", `P0(atomic_t *v) { int r = atomic_read(v); atomic_set(v, r); }`,
			[]string{"load r <- [v] {Once,NA}", "store [v] <- r {Once,NA}"}},
		{"a comparison after an op return", `P0(atomic_t *v) { int r = atomic_dec_and_test(v); }`,
			[]string{"fence {Mb,NA}", "load $t1 <- [v] {Once,NA,RMW} rmw1", "store [v] <- $t1 - 1 {Once,NA,RMW} rmw1", "fence {Mb,NA}",
				"r := ($t1 - 1) == 0"}},
		{"internal forms", `P0(int *x) { int r = __load{once,foo}(*x); __store{release}(*x, r); int s = __atomic_fetch_op{mb}(x, -, r); int d = __load{deref}(*x); }`,
			[]string{"load r <- [x] {Once,Foo,NA}", "store [x] <- r {Release,NA}",
				"fence {Mb,NA}", "load $t1 <- [x] {Once,NA,RMW} rmw1", "store [x] <- $t1 - r {Once,NA,RMW} rmw1", "fence {Mb,NA}", "s := $t1",
				"load d <- [x] {Once,NA}", "fence {Rb_dep,NA}"}},
		{"casts and dereference chains", `P0(intptr_t *x) { intptr_t r1 = (intptr_t)rcu_dereference(*(intptr_t **)x); int r2 = READ_ONCE(*(int *)r1); rcu_assign_pointer(*(intptr_t **)x, (intptr_t *)r2); smp_store_release((intptr_t *)r1, 1); }`,
			[]string{"load r1 <- [x] {Once,NA}", "load r2 <- [r1] {Once,NA}", "store [x] <- r2 {Release,NA}", "store [r1] <- 1 {Release,NA}"}},
		{"a parameter assigned to, and used twice", `P0(int *x) { int a = 1; int b = 2; swap(a, b); int c = twice(READ_ONCE(*x)); }`,
			[]string{"a := 1", "b := 2", "a := b", "load $t1 <- [x] {Once,NA}", "load $t2 <- [x] {Once,NA}", "c := $t1 + $t2"}},
		{"add unless", `P0(int *x) { int r = atomic_add_unless(x, 1, 5); }`,
			[]string{"fence {Mb,NA}", "load $t1 <- [x] {Once,NA,RMW} rmw1", "check $t1 != 5", "store [x] <- $t1 + 1 {Once,NA,RMW} rmw1", "fence {Mb,NA}", "r := 1",
				"load $t2 <- [x] {Once,NA,RMW}", "check $t2 == 5", "r := 0"}},
		{"linux fences", `P0() { smp_mb(); smp_rmb(); smp_mb__before_atomic(); rcu_read_lock(); synchronize_rcu(); __fence{after-unlock-lock}; }`,
			[]string{"fence {Mb,NA}", "fence {Rmb,NA}", "fence {Before-atomic,NA}", "fence {Rcu-lock,NA}", "fence {Sync-rcu,NA}", "fence {After-unlock-lock,NA}"}},
		{"if without else", `P0(int *x) { int r = *x; if (r) { *x = 2; } r = 3; }`,
			[]string{"load r <- [x] {NA}", "assume r", "store [x] <- 2 {NA}", "assume !(r)", "r := 3"}},
		{"a right operand that reads is evaluated when the left one does not decide", `P0(int *x, int *y) { int r = *x && *y; int s = r || *y; }`,
			[]string{"load $t1 <- [x] {NA}", "load $t2 <- [y] {NA}", "assume $t1", "assume !($t1)", "$t3 := $t2 != 0", "$t3 := 0", "r := $t3",
				"load $t4 <- [y] {NA}", "assume r", "assume !(r)", "$t5 := 1", "$t5 := $t4 != 0", "s := $t5"}},
		{"a branch of ?: that reads", `P0(int *x, int *y) { int r = *x ? 5 : *y; }`,
			[]string{"load $t1 <- [x] {NA}", "load $t2 <- [y] {NA}", "assume $t1", "assume !($t1)", "$t3 := 5", "$t3 := $t2", "r := $t3"}},
		{"do while", `P0(int *x) { int r; do { r = *x; } while (r == 0); }`,
			[]string{"load r <- [x] {NA}", "nop", "assume r == 0", "assume !(r == 0)"}},
		{"for, break and continue", `P0(int *x) { for (int i = 0; i != 3; i++) { int r = *x; if (r) continue; if (i) break; } *x = 2; }`,
			[]string{"i := 0", "assume i != 3", "load r <- [x] {NA}", "assume r", "nop", "assume !(r)", "assume i", "nop", "assume !(i)",
				"nop", "i := i + 1", "nop", "assume !(i != 3)", "store [x] <- 2 {NA}"}},
		{"compound assignments and increments", `P0(int *x) { int r = 0; r += 2; r++; --r; r <<= 1; *x += r; }`,
			[]string{"r := 0", "r := r + 2", "r := r + 1", "r := r - 1", "r := r << 1", "load $t1 <- [x] {NA}", "store [x] <- $t1 + r {NA}"}},
		{"expression operators", `P0(int *x) { int r = (1 << 3) % 5 ^ ~2 & -r | !r; int s = r >= 2 && r != 4 ? r : -0x10; }`,
			[]string{"r := (((1 << 3) % 5) ^ (~(2) & -(r))) | !(r)", "s := ((r >= 2) && (r != 4)) ? r : -16"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := translate(t, tc.src)
			if got := ops(p.Procs[0]); !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestStructure checks what the DOT text does not show: params, internal
// assumptions, the CAS choice, the loop's back edge and the final location.
func TestStructure(t *testing.T) {
	p := translate(t, `
P0() {}
P1(atomic_int *x, int *y) {
  while (atomic_compare_exchange_strong(x, y, 1) == 0) {}
  if (*y) { *y = 0; }
}`)
	proc := p.Procs[1]
	if proc.ID != 1 || proc.Name != "P1" || !slices.Equal(proc.Params, []string{"x", "y"}) {
		t.Fatalf("process %d %s %v", proc.ID, proc.Name, proc.Params)
	}
	var internal, branches, loads int
	for _, e := range proc.Edges {
		switch op := e.Op.(type) {
		case xcfa.Assume:
			if op.Internal {
				internal++
			} else {
				branches++
			}
		case xcfa.Load:
			loads++
		}
	}
	if internal != 2 || branches != 4 || loads != 4 {
		t.Errorf("internal assumes %d, branch assumes %d, loads %d; want 2, 4, 4", internal, branches, loads)
	}
	// The CAS choice: the location after the read of *y has two loads out.
	choice := proc.Edges[0].To
	if len(choice.Out) != 2 {
		t.Fatalf("the CAS choice has %d edges", len(choice.Out))
	}
	for _, e := range choice.Out {
		if _, ok := e.Op.(xcfa.Load); !ok {
			t.Errorf("CAS alternative starts with %s", xcfa.FormatOp(e.Op))
		}
	}
	// The loop: some edge goes back to the head (Init), and Final has no
	// outgoing edge.
	back := false
	for _, e := range proc.Edges {
		if e.To == proc.Init {
			back = true
		}
	}
	if !back {
		t.Error("no back edge to the loop head")
	}
	if len(proc.Final.Out) != 0 {
		t.Error("the final location has outgoing edges")
	}
	// Every location but Final is left by some edge: no dead end.
	for _, l := range proc.Locs {
		if l != proc.Final && len(l.Out) == 0 {
			t.Errorf("location %d is a dead end", l.ID)
		}
	}
}

// TestErrors checks messages and positions, which are those of the file.
func TestErrors(t *testing.T) {
	header := "C bad\n{}\n"
	tests := []struct{ prog, want string }{
		{"P0(int *x) {\n  break;\n}\n", "t.litmus:4:3: break outside a loop"},
		{"P0(int *x) {\n  if (1) { continue; }\n}\n", "t.litmus:4:12: continue outside a loop"},
		{"P0(int *x) {\n  switch (1) {}\n}\n", "t.litmus:4:3: unsupported switch statement"},
		{"P0(int *x) {\n  smp_mb;\n}\n", "t.litmus:4:3: unsupported statement smp_mb: herd7 takes a call or an assignment here"},
		{"P0(int *x) {\n  int r = x[1];\n}\n", "t.litmus:4:12: unsupported array subscript"},
		{"P0(int *x) {\n  pthread_yield();\n}\n", "t.litmus:4:3: unsupported function pthread_yield"},
		{"P0(float *x) {}\n", "t.litmus:3:4: unsupported type float"},
		{"P0(int *x, int *y) {\n  int r = atomic_load_explicit(x+y, memory_order_relaxed);\n}\n", "t.litmus:4:33: unsupported pointer arithmetic x+y (herd7 adds an integer to an address, or subtracts one from it)"},
		{"P0(int *x) {\n  int r = atomic_load_explicit(1-x, memory_order_relaxed);\n}\n", "t.litmus:4:33: unsupported pointer arithmetic 1-x"},
		{"P0(int *x) {\n  int r = atomic_load_explicit(x, relaxed);\n}\n", "t.litmus:4:35: atomic_load_explicit: expected a memory order (memory_order_relaxed, ...), found relaxed"},
		{"P0(int *x) {\n  int r = READ_ONCE(x);\n}\n", "t.litmus:4:11: bad __load argument x: herd7 takes a location *p here (in macro READ_ONCE, testdata/macros/linux.def:4:1)"},
		{"P0(int *x) {\n  smp_store_mb(x, 1);\n}\n", "t.litmus:4:3: bad __store argument x: herd7 takes a location *p here (in macro smp_store_mb, testdata/macros/linux.def:10:1)"},
		{"P0(int *x) {\n  int r = atomic_store_explicit(x, 1, memory_order_relaxed);\n}\n", "t.litmus:4:11: atomic_store_explicit(x,1,memory_order_relaxed) has no value"},
		{"P0(int *x) {\n  int r = smp_mb();\n}\n", "t.litmus:4:11: macro smp_mb (testdata/macros/linux.def:12:1) is a statement: herd7 expands it only as a statement, not inside an expression"},
		{"P0(int *x) {\n  xchg(x, 1);\n}\n", "t.litmus:4:3: macro xchg (testdata/macros/linux.def:18:1) is an expression: herd7 expands it only where a value is used, not as a statement"},
		{"P0(int *x) {\n  int r = xchg(x);\n}\n", "t.litmus:4:11: macro xchg (testdata/macros/linux.def:18:1) takes 2 arguments, not 1"},
		{"P0(int *x) {\n  int r = loop(x);\n}\n", "t.litmus:4:11: macro loop: expansions nested too deeply"},
		{"P0(int *x) {\n  __atomic_op(x, &, 1);\n}\n", "t.litmus:4:18: unsupported atomic operator & (herd7 7.57 knows + and -; the variant lkmmv2 also &, |, ^ and &~)"},
		{"P0(int *x) {\n  int r = __load{once}(x, -, 1);\n}\n", "t.litmus:4:11: __load takes no operator argument"},
		{"P0(int *x) {\n  int r = __atomic_op_return(x, +, 1);\n}\n", "t.litmus:4:11: __atomic_op_return needs annotations"},
		{"P0(int *x) {\n  int r = __xchg{MB}(x, 1);\n}\n", "t.litmus:4:11: unsupported annotation {MB} on __xchg: purr reads once, acquire, release and mb"},
		{"P0(struct foo *x) {}\n", "t.litmus:3:4: unsupported type struct foo (herd7 knows struct srcu_struct only)"},
		{"P0(int *x) {\n  int r = &r;\n}\n", "t.litmus:4:11: unsupported address-of &r"},
		{"P0(int *x) {\n  r + 1 = 2;\n}\n", "t.litmus:4:3: unsupported assignment target r+1"},
		{"P0(int *x) {}\nP0(int *y) {}\n", "t.litmus:4:1: thread P0 is defined twice"},
		{"P0(int *x) {\n  int r = atomic_load_explicit(x);\n}\n", "t.litmus:4:11: atomic_load_explicit takes 2 arguments, not 1"},
		{"P0(int *x) {\n  send(x);\n}\n", "t.litmus:4:3: send takes 2 arguments, not 1"},
		{"P0(int *x) {\n  int r = recv(x, 1);\n}\n", "t.litmus:4:11: recv takes 1 arguments, not 2"},
		{"P0(int *x) {\n  int r = send(x, 1);\n}\n", "t.litmus:4:11: send(x,1) has no value"},
		{"P0(int *x) {\n  *x = 1\n}\n", "t.litmus:5:1: syntax error at \"}\": missing ';' at '}'"},
		{"P0(int *x) {\n  *x = 1 @ 2;\n}\n", "t.litmus:4:10: syntax error at \"@\""},
	}
	for _, tc := range tests {
		_, err := litmus.ParseWith("t.litmus", []byte(header+tc.prog+"exists (0:r=0)\n"), litmus.Options{Macros: testMacros(t)})
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.prog, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.prog, err, tc.want)
		}
	}
}

// errorLine is what every failure must look like.
var errorLine = regexp.MustCompile(`^[^:]+\.litmus:\d+:\d+: `)

// TestCorpus translates every C test of the shared corpora. Tests that
// herd7 rejects (an .expected-failure file, or ERROR in the dat3m log) must
// fail with a positioned error; of the others at least 98% must translate,
// and every failure must be a positioned "unsupported" error.
func TestCorpus(t *testing.T) {
	for _, corpus := range []string{"corpus/dat3m-c11", "corpus/herd-regression/C"} {
		t.Run(filepath.Base(corpus), func(t *testing.T) {
			dir := shared.Path(t, corpus)
			var files []string
			err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(path, ".litmus") {
					files = append(files, path)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			rejected := herdRejects(t, dir)
			total, translated := 0, 0
			var failures []string
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel(dir, f)
				_, err = litmus.Parse(f, src)
				if rejected[rel] {
					if err == nil {
						t.Logf("%s: herd7 rejects it, purr translates it", rel)
					}
					continue
				}
				total++
				if err == nil {
					translated++
					continue
				}
				failures = append(failures, err.Error())
				var le *source.Error
				if !errors.As(err, &le) || !errorLine.MatchString(err.Error()) || !strings.HasPrefix(le.Msg, "unsupported ") {
					t.Errorf("%s: failure is not a positioned \"unsupported\" error: %v", rel, err)
				}
			}
			t.Logf("%s: %d/%d translated (herd7 rejects %d more)", corpus, translated, total, len(rejected))
			for _, f := range failures {
				t.Log(f)
			}
			if total == 0 || translated*100 < total*98 {
				t.Errorf("%d/%d translated, want at least 98%%", translated, total)
			}
		})
	}
}

// herdRejects lists the tests of a corpus that herd7 7.57 does not accept.
func herdRejects(t *testing.T, dir string) map[string]bool {
	out := map[string]bool{}
	fails, _ := filepath.Glob(filepath.Join(dir, "*.litmus.expected-failure"))
	for _, f := range fails {
		out[strings.TrimSuffix(filepath.Base(f), ".expected-failure")] = true
	}
	log, err := os.ReadFile(filepath.Join(dir, "herd-7.57-rc11.txt"))
	if err != nil {
		return out
	}
	var current string
	for _, line := range strings.Split(string(log), "\n") {
		if name, ok := strings.CutPrefix(line, "# "); ok {
			current = name
		} else if strings.HasPrefix(line, "ERROR") && current != "" {
			out[current] = true
		}
	}
	return out
}

// TestMacroFileDecides checks that the macro file, not purr, gives the
// kernel's primitives their meaning: the same program translates as each
// file defines it.
func TestMacroFileDecides(t *testing.T) {
	prog := `P0(int *x) { int r = READ_ONCE(*x); smp_mb(); }`
	for _, tc := range []struct{ def, want string }{
		{"READ_ONCE(X) __load{once}(X)\nsmp_mb() { __fence{mb}; }\n", "load r <- [x] {Once,NA}|fence {Mb,NA}"},
		{"READ_ONCE(X) __load{acquire}(X)\nsmp_mb() { __fence{rmb}; __fence{wmb}; }\n", "load r <- [x] {Acquire,NA}|fence {Rmb,NA}|fence {Wmb,NA}"},
		// A later definition replaces an earlier one, as in herd.
		{"READ_ONCE(X) __load{once}(X)\nREAD_ONCE(X) __load{deref}(X)\nsmp_mb() { }\n", "load r <- [x] {Once,NA}|fence {Rb_dep,NA}"},
	} {
		m, err := ParseMacros("k.def", []byte(tc.def))
		if err != nil {
			t.Fatal(err)
		}
		p, err := TranslateSource("t.c", []byte(prog), m)
		if err != nil {
			t.Fatalf("%q: %v", tc.def, err)
		}
		if got := strings.Join(ops(p.Procs[0]), "|"); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.def, got, tc.want)
		}
	}
}

// TestMacroFileErrors checks the positions of errors in a macro file.
func TestMacroFileErrors(t *testing.T) {
	for _, tc := range []struct{ def, want string }{
		{"READ_ONCE(X) __load{once}(X)\nWRITE_ONCE(X,V { }\n", "k.def:2:16: syntax error at \"{\""},
		{"f(X,X) X\n", "k.def:1:5: macro f has two parameters X"},
		{"f(X) X +\n", "k.def:2:1: unexpected end of the program"},
		{"f(X) { X = 1 }\n", "k.def:1:14: syntax error at \"}\""},
	} {
		_, err := ParseMacros("k.def", []byte(tc.def))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.def, err, tc.want)
		}
	}
}

// TestLKMMv2 checks herd's variant lkmmv2, which the kernel's current
// macros need: an RMW's accesses carry its annotations (a failed one's
// read too) and no Mb fence surrounds them; __atomic_op takes annotations
// and more operators. Without the variant the same file is refused.
func TestLKMMv2(t *testing.T) {
	m := readMacros(t, "testdata/macros/lkmmv2.def")
	src := "C v2\n{}\nP0(int *x) {\n  int a = xchg(x, 1);\n  int b = cmpxchg_acquire(x, 1, 2);\n  atomic_inc(x);\n  atomic_andnot(4, x);\n}\nexists (0:a=0)\n"
	test, err := litmus.ParseWith("v2.litmus", []byte(src), litmus.Options{Macros: m, Variants: []string{"lkmmv2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"load a <- [x] {MB,NA,RMW} rmw1", "store [x] <- 1 {MB,NA,RMW} rmw1",
		"load $t1 <- [x] {ACQUIRE,NA,RMW} rmw2", "check $t1 == 1", "store [x] <- 2 {ACQUIRE,NA,RMW} rmw2", "b := $t1",
		"load $t2 <- [x] {ACQUIRE,NA,RMW}", "check $t2 != 1", "b := $t2",
		"load $t3 <- [x] {NORETURN,NA,RMW} rmw3", "store [x] <- $t3 + 1 {NORETURN,NA,RMW} rmw3",
		"load $t4 <- [x] {NORETURN,NA,RMW} rmw4", "store [x] <- $t4 & ~(4) {NORETURN,NA,RMW} rmw4",
	}
	if got := ops(test.Program.Procs[0]); !slices.Equal(got, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	_, err = litmus.ParseWith("v2.litmus", []byte(src), litmus.Options{Macros: m})
	if err == nil || !strings.Contains(err.Error(), "v2.litmus:4:11: unsupported annotation {MB} on __xchg") {
		t.Errorf("without lkmmv2: got %v", err)
	}
	unless := "C v2\n{}\nP0(int *x) {\n  int c = atomic_add_unless(x, 1, 3);\n}\nexists (0:c=0)\n"
	_, err = litmus.ParseWith("v2.litmus", []byte(unless), litmus.Options{Macros: m, Variants: []string{"lkmmv2"}})
	if err == nil || !strings.Contains(err.Error(), "v2.litmus:4:11: unsupported annotations on __atomic_add_unless") {
		t.Errorf("add_unless with lkmmv2: got %v", err)
	}
}

// TestInstructionSteps checks which edges herd makes one instruction
// (xcfa.Edge.Instr): the statements of a macro's body are instructions of
// their own, at the position of the call; the Mb fences around an RMW
// share the RMW's (program order inside a statement: xcfa.Edge.Par,
// mcm/events' tests).
func TestInstructionSteps(t *testing.T) {
	p := translate(t, `P0(int *x, int *y) { smp_store_mb(*y, 1); int r = xchg(x, 2); }`)
	var got []string
	for _, e := range p.Procs[0].Edges {
		got = append(got, fmt.Sprintf("%d #%d %s", e.Pos.Col, e.Instr, xcfa.FormatOp(e.Op)))
	}
	want := []string{
		"22 #1 store [y] <- 1 {Once,NA}", "22 #2 fence {Mb,NA}",
		"51 #3 fence {Mb,NA}", "51 #3 load r <- [x] {Once,NA,RMW} rmw1", "51 #3 store [x] <- 2 {Once,NA,RMW} rmw1", "51 #3 fence {Mb,NA}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
