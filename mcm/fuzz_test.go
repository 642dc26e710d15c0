package mcm

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// fuzzTests are the fixed tests FuzzEval evaluates its models on: plain
// accesses, a fence, dependencies, a read-modify-write and C atomics with
// their tags, so that every predefined set and relation can be non-empty.
var fuzzTests = []string{
	"testdata/classic/SB+dmb.sys.litmus",
	"testdata/classic/SB+swps.litmus",
	`AArch64 fuzz-deps
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0          | P1                 ;
 LDR W0,[X1] | LDAR W0,[X1]       ;
 EOR W2,W0,W0| CBNZ W0,L0         ;
 ADD W2,W2,#1| L0:                ;
 STR W2,[X3] | LDXR W2,[X3]       ;
             | STXR W4,W0,[X3]    ;
exists (0:X0=1 /\ 1:X0=1)`,
	`C fuzz-c11
{}
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  int r0 = atomic_exchange_explicit(y, 2, memory_order_acq_rel);
}
P1 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (1:r0=2 /\ 1:r1=0)`,
}

// fuzzBudget bounds one engine's work on one test; models slower than that
// are skipped, not failed: the fuzzer looks for crashes and disagreements.
const fuzzBudget = 2 * time.Second

// FuzzEval evaluates arbitrary Cat models on fixed tests with both
// engines: evaluation never panics, and when the engines answer they agree
// (an error must be the same error from both).
func FuzzEval(f *testing.F) {
	seeds, _ := filepath.Glob(repoPath("cat/testdata/fuzz/*.cat"))
	if d := shared.Dir(); d != "" {
		more, _ := filepath.Glob(filepath.Join(d, "herd-libdir", "*.cat"))
		seeds = append(seeds, more...)
	}
	for _, s := range seeds {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	embedded, _ := fs.Glob(models.FS, "*.cat")
	for _, name := range embedded {
		src, _ := fs.ReadFile(models.FS, name)
		f.Add(src)
	}
	var tests []*litmus.Test
	for _, src := range fuzzTests {
		if strings.Contains(src, "\n") {
			tests = append(tests, inlineTest(f, src))
		} else {
			tests = append(tests, parseTestFile(f, repoPath(src)))
		}
	}
	loader := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	if d := shared.Dir(); d != "" {
		loader.IncludeDirs = []string{filepath.Join(d, "herd-libdir")}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := loader.LoadSource("fuzz.cat", src)
		if err != nil {
			return
		}
		for _, lt := range tests {
			if d := fuzzCompare(m, lt); d != "" {
				t.Fatalf("%s: %s", lt.Name, d)
			}
		}
	})
}

// fuzzCompare runs both engines on one test within fuzzBudget and
// describes their disagreement ("" when they agree or one ran out of
// time).
func fuzzCompare(m *cat.Model, lt *litmus.Test) string {
	run := func(engine string) (*outcome.Outcome, error) {
		ctx, cancel := context.WithTimeout(context.Background(), fuzzBudget)
		defer cancel()
		return CheckContext(ctx, m, lt, engineOptions(engine, 1))
	}
	want, werr := run(EngineSAT)
	if errors.Is(werr, context.DeadlineExceeded) {
		return ""
	}
	got, gerr := run(EngineExplicit)
	if errors.Is(gerr, context.DeadlineExceeded) {
		return ""
	}
	return strings.Join(resultsDiff(lt, want, werr, got, gerr), "; ")
}
