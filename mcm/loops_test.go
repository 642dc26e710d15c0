package mcm_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/mcm"
)

// loopsDir holds the suite of programs with loops; expected.txt there
// lists, one "file model verdict" a line, the verdict each test's comment
// derives under each model it is meant for (lkmm: the Linux kernel's model
// of ../shared, as -conf linux-kernel.cfg runs it).
const loopsDir = "../testdata/loops"

// loopsBound is the unrolling bound of the bounded checks: large enough for
// every broken variant to show its failure. smallBound lowers it for the
// tests whose formulas outgrow purr's limits at 2 (Dekker's nested loops,
// the kernel's cmpxchg under the LKMM) or take it seconds there (the
// AArch64 ticket lock's two loops a thread; a lock taken twice or by CAS,
// minutes), whose failures need no iteration.
const loopsBound = 2

var smallBound = map[string]bool{
	"dekker.litmus":                             true,
	"dekker-no-fence.litmus":                    true,
	"aarch64-dekker.litmus":                     true,
	"aarch64-dekker-no-fence.litmus":            true,
	"aarch64-ticket-lock.litmus":                true,
	"aarch64-ticket-lock-plain.litmus":          true,
	"kernel-cmpxchg-lock.litmus":                true,
	"kernel-cmpxchg-lock-relaxed.litmus":        true,
	"aarch64-tas-swp-twice.litmus":              true,
	"aarch64-tas-swp-twice-plain-unlock.litmus": true,
	"aarch64-cas-lock.litmus":                   true,
	"aarch64-cas-lock-no-fence.litmus":          true,
	"kernel-cmpxchg-counter.litmus":             true,
}

// explicitTooSlow are the tests the explicit engine cannot enumerate in
// reasonable time even at bound 1 (minutes each on two cores), or that
// take it more than a few seconds per model (the others keep the engines'
// answers compared in CI's time).
var explicitTooSlow = map[string]string{
	"dekker.litmus":                             "nested loops",
	"dekker-no-fence.litmus":                    "nested loops",
	"aarch64-dekker.litmus":                     "nested loops",
	"aarch64-dekker-no-fence.litmus":            "nested loops",
	"aarch64-peterson.litmus":                   "about 20 s a model",
	"aarch64-peterson-one-fence.litmus":         "about 17 s a model",
	"aarch64-ticket-lock.litmus":                "about 8 s a model",
	"aarch64-ticket-lock-plain.litmus":          "about 8 s a model",
	"aarch64-lock.litmus":                       "about 35 s a model",
	"aarch64-lock-relaxed.litmus":               "about 35 s a model",
	"peterson.litmus":                           "about 20 s a model",
	"peterson-one-fence.litmus":                 "about 15 s a model",
	"peterson-no-fence.litmus":                  "about 13 s a model",
	"tas-lock.litmus":                           "about 7 s a model",
	"tas-lock-relaxed.litmus":                   "about 6 s a model",
	"tas-lock-test-then-set.litmus":             "about 7 s a model",
	"tas-xchg.litmus":                           "over 100 s a model: every failed exchange writes",
	"tas-xchg-relaxed.litmus":                   "over 100 s a model: every failed exchange writes",
	"tas-xchg-plain-cs.litmus":                  "over 100 s a model: every failed exchange writes",
	"tas-xchg-plain-cs-relaxed.litmus":          "over 100 s a model: every failed exchange writes",
	"tas-fetch-or.litmus":                       "over a minute a model: every failed fetch-or writes",
	"tas-fetch-or-relaxed.litmus":               "over a minute a model: every failed fetch-or writes",
	"aarch64-tas-swp.litmus":                    "over a minute a model: every failed swap writes",
	"aarch64-tas-swp-no-acquire.litmus":         "over a minute a model: every failed swap writes",
	"aarch64-tas-ldset.litmus":                  "over a minute a model: every failed fetch-or writes",
	"aarch64-tas-ldset-plain-unlock.litmus":     "over a minute a model: every failed fetch-or writes",
	"aarch64-ttas-swp.litmus":                   "over a minute a model: every failed swap writes",
	"aarch64-tas-swp-twice.litmus":              "minutes a model: every failed swap writes",
	"aarch64-tas-swp-twice-plain-unlock.litmus": "minutes a model: every failed swap writes",
	"kernel-xchg-lock.litmus":                   "over a minute: every failed exchange writes",
	"kernel-xchg-lock-relaxed.litmus":           "over a minute: every failed exchange writes",
	"kernel-xchg-lock-plain.litmus":             "over a minute: every failed exchange writes",
	"kernel-xchg-lock-plain-relaxed.litmus":     "over a minute: every failed exchange writes",
	"kernel-xchg-lock-shown.litmus":             "over a minute: every failed exchange writes",
	"tas-xchg-lock-shown.litmus":                "over 100 s a model: every failed exchange writes",
	"tas-xchg-lock-shown-relaxed.litmus":        "over 100 s a model: every failed exchange writes",
	"aarch64-cas-lock.litmus":                   "over 100 s a model: a CAS has four outcomes",
	"aarch64-cas-lock-no-fence.litmus":          "over 100 s a model: a CAS has four outcomes",
	"cas-lock-memory.litmus":                    "over 5 min a model: every failed CAS writes its expected value",
	"cas-lock-memory-relaxed.litmus":            "over 5 min a model: every failed CAS writes its expected value",
	"cas-lock-memory-held.litmus":               "over 5 min a model: every failed CAS writes its expected value",
	"cas-counter-memory.litmus":                 "over 2 min a model: every failed CAS writes its expected value",
	"cas-counter-memory-relaxed.litmus":         "over 2 min a model: every failed CAS writes its expected value",
}

// refused are the tests --unroll none refuses, "file model", with a
// substring of why it does: a test added here must say why. None today:
// the last ones, Dekker's under rc11, are decided since their accesses,
// all atomic, can make no data race, so no retry is kept for rc11's
// undefined_unless and the answer needs no iteration more.
var refused = map[string]string{}

type loopCase struct{ file, model, verdict string }

// TestLoopsSuite checks every line of testdata/loops/expected.txt with the
// SAT engine at loopsBound (1 under -short) and the explicit engine at 1
// (only without -short: it takes minutes on the locks), and with --unroll
// none, whose answer must be the expected one with no loop cut, or, for a
// verdict an execution settles (a broken variant's counterexample),
// witnessed within a bound, unless the test is listed in refused.
func TestLoopsSuite(t *testing.T) {
	cases := readLoopsExpected(t)
	for _, c := range cases {
		t.Run(c.file+"/"+c.model, func(t *testing.T) {
			bound := loopsBound
			if smallBound[c.file] || testing.Short() {
				bound = 1
			}
			engines := []string{mcm.EngineSAT}
			if !testing.Short() && explicitTooSlow[c.file] == "" {
				engines = append(engines, mcm.EngineExplicit)
			}
			for _, engine := range engines {
				b := bound
				if engine == mcm.EngineExplicit {
					b = 1 // its enumeration grows with every iteration
				}
				// A bounded check may cut a spin or not: only the verdict counts.
				verdict, _, _, err := checkLoop(t, c, b, engine)
				if err != nil {
					t.Errorf("--unroll %d, %s: %v", b, engine, err)
					continue
				}
				if verdict != c.verdict {
					t.Errorf("--unroll %d, %s: %s, want %s", b, engine, verdict, c.verdict)
				}
			}
			verdict, loop, witnessed, err := checkLoop(t, c, mcm.Unbounded, mcm.EngineSAT)
			why, isRefused := refused[c.file+" "+c.model]
			switch {
			case isRefused && err == nil:
				t.Errorf("--unroll none: %s (loop %v), want a refusal saying %q; remove it from refused", verdict, loop, why)
			case isRefused && !strings.Contains(err.Error(), why):
				t.Errorf("--unroll none: %v, want a refusal saying %q", err, why)
			case isRefused:
			case err != nil:
				t.Errorf("--unroll none: %v", err)
			case verdict != c.verdict || loop && !witnessed:
				t.Errorf("--unroll none: %s (loop %v), want %s with no loop cut, or witnessed", verdict, loop, c.verdict)
			}
		})
	}
}

// readLoopsExpected reads expected.txt, checking that it names every test
// of the folder, and every test once per model.
func readLoopsExpected(t *testing.T) []loopCase {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(loopsDir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []loopCase
	seen := map[string]bool{}
	for i, line := range strings.Split(string(src), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 || (f[2] != "Ok" && f[2] != "No" && f[2] != "Undef") {
			t.Fatalf("expected.txt:%d: want file model Ok|No|Undef, got %q", i+1, line)
		}
		key := f[0] + " " + f[1]
		if seen[key] {
			t.Fatalf("expected.txt:%d: %s twice", i+1, key)
		}
		seen[key] = true
		seen[f[0]] = true
		cases = append(cases, loopCase{f[0], f[1], f[2]})
	}
	files, err := filepath.Glob(filepath.Join(loopsDir, "*.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s: no expected answer in expected.txt", f)
		}
	}
	return cases
}

// checkLoop checks one test under one model as purr's command does (-m
// MODEL, or -conf linux-kernel.cfg for lkmm) and returns herd7's verdict,
// whether a loop was cut, and whether an execution settles the verdict
// for every bound (outcome.Bound.Witnessed).
func checkLoop(t *testing.T, c loopCase, unroll int, engine string) (verdict string, loop, witnessed bool, err error) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(loopsDir, c.file))
	if err != nil {
		t.Fatal(err)
	}
	return checkLoopAt(t, path, c.model, unroll, engine)
}

// checkLoopAt is checkLoop of the test at path.
func checkLoopAt(t *testing.T, path, model string, unroll int, engine string) (verdict string, loop, witnessed bool, err error) {
	t.Helper()
	cfg := herd.Default()
	cfg.Unroll, cfg.Engine = unroll, engine
	if model == "lkmm" {
		conf := filepath.Join(shared.Path(t, "lkmm/model"), "linux-kernel.cfg")
		if err := cfg.ReadConf([]string{conf}, func(string) bool { return false }, io.Discard); err != nil {
			t.Fatal(err)
		}
	} else {
		// sc+atomic-rmw: the model sc with the variant atomic-rmw.
		name, variants, _ := strings.Cut(model, "+")
		cfg.Model = name
		if variants != "" {
			cfg.Variants = strings.Split(variants, "+")
		}
	}
	res, err := herd.NewChecker(cfg).Check(context.Background(), path)
	if err != nil {
		return "", false, false, err
	}
	b := res.Outcome.Bound
	return res.Outcome.Result(res.Test, false).Verdict.String(), res.Outcome.Loop, b != nil && b.Witnessed, nil
}

// TestFlagsRetrySaysWhy checks that --unroll none, refusing a loop
// because a failed iteration was kept for the model's flags, says so: a
// kernel test-and-set lock released by a plain store, whose failed
// exchanges may then take part in a data race or mixed accesses
// (eval.FlagsKept).
func TestFlagsRetrySaysWhy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plain-unlock.litmus")
	src := `C plain-unlock
{}
P0(int *l, int *x)
{
	while (xchg_acquire(l, 1) != 0) {}
	WRITE_ONCE(*x, 1);
	*l = 0;
}

P1(int *l, int *x)
{
	while (xchg_acquire(l, 1) != 0) {}
	WRITE_ONCE(*x, 2);
	*l = 0;
}

exists (x=3)
`
	err := unboundedError(t, path, src, "lkmm")
	if err == nil || !strings.Contains(err.Error(), "a failed iteration is kept for the model's flags, as ") {
		t.Errorf("--unroll none: %v, want a refusal saying a failed iteration is kept for the flags", err)
	}
}

// TestShownLockNeedsAnotherWrite checks that --unroll none removes a
// failed test-and-set whose lock the final state shows only when the
// thread writes the lock again after it on every path: here P0 may give
// up (when it reads P2's y=1) after a failed exchange, which would then
// be its last write to l (events.SilentWrite.Overwritten).
func TestShownLockNeedsAnotherWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "give-up.litmus")
	src := `C give-up
{}
P0(atomic_int *l, atomic_int *y)
{
	while (1) { if (atomic_load_explicit(y, memory_order_relaxed)) break; if (atomic_exchange_explicit(l, 1, memory_order_acquire) == 0) break; }
}

P1(atomic_int *l)
{
	while (atomic_exchange_explicit(l, 1, memory_order_acquire) == 1) { }
	atomic_store_explicit(l, 0, memory_order_release);
}

P2(atomic_int *y)
{
	atomic_store_explicit(y, 1, memory_order_relaxed);
}

exists (l=2)
`
	err := unboundedError(t, path, src, "sc")
	if err == nil || !strings.Contains(err.Error(), "the final state shows l, whose last write may be a failed attempt's: the thread may write it no more after one") {
		t.Errorf("--unroll none: %v, want a refusal saying the thread may write l no more after a failed attempt", err)
	}
}

// unboundedError writes src to path and checks it with --unroll none
// under model, returning the refusal.
func unboundedError(t *testing.T, path, src, model string) error {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := checkLoopAt(t, path, model, mcm.Unbounded, mcm.EngineSAT)
	return err
}

// TestKernelLockChoicesAgree compares the engines on the suite's kernel
// tests whose failed trylocks and spin_is_locked exist on some paths
// only, at bounds where they do (the loop suite's explicit runs are at
// bound 1, where such a path is cut): lock.cat's choice of what each
// reads is the SAT engine's choice per possible event.
func TestKernelLockChoicesAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(loopsDir, "kernel-trylock-*.litmus"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernel trylock tests in %s (%v)", loopsDir, err)
	}
	unroll := []int{2, 3}
	if testing.Short() {
		unroll = unroll[:1]
	}
	for _, f := range files {
		path, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range unroll {
			var results [2]string
			for i, engine := range []string{mcm.EngineSAT, mcm.EngineExplicit} {
				cfg := herd.Default()
				cfg.Unroll, cfg.Engine = n, engine
				conf := filepath.Join(shared.Path(t, "lkmm/model"), "linux-kernel.cfg")
				if err := cfg.ReadConf([]string{conf}, func(string) bool { return false }, io.Discard); err != nil {
					t.Fatal(err)
				}
				res, err := herd.NewChecker(cfg).Check(context.Background(), path)
				if err != nil {
					t.Fatalf("%s at %d, %s: %v", f, n, engine, err)
				}
				results[i] = fmt.Sprintf("%+v", res.Outcome.Result(res.Test, false))
			}
			if results[0] != results[1] {
				t.Errorf("%s at --unroll %d: SAT %s, explicit %s", f, n, results[0], results[1])
			}
		}
	}
}

// TestHerdAArch64OnPeterson checks --unroll none on the suite's Peterson
// with one fence under herd's own aarch64.cat, unmodified: the broken
// variant is refuted as under purr's aarch64, with the same executions,
// and the flag herd raises for its DMB ISH, which lies outside the spin,
// so no failed iteration is kept for it (events.Unfolding.RetryTags;
// keeping one counted 22 negative executions, and took about forty
// times as long).
func TestHerdAArch64OnPeterson(t *testing.T) {
	cfg := herd.Default()
	cfg.Unroll, cfg.Model = mcm.Unbounded, "aarch64.cat"
	cfg.Includes = []string{shared.Path(t, "herd-libdir")}
	res, err := herd.NewChecker(cfg).Check(context.Background(), filepath.Join(loopsDir, "aarch64-peterson-one-fence.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	out := res.Outcome
	verdict := res.Outcome.Result(res.Test, false).Verdict.String()
	if verdict != "Ok" || out.Loop || out.Positive != 4 || out.Negative != 12 || fmt.Sprint(out.Flags) != "[Assuming-common-inner-shareable-domain]" {
		t.Errorf("%s, Loop %v, %d/%d executions, flags %v: want Ok, no Loop, 4/12, the shareability flag", verdict, out.Loop, out.Positive, out.Negative, out.Flags)
	}
}
