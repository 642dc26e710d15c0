package mutants

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/dialects"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// The repository's tests the fuzzer starts from: one or more of each
// dialect, small enough for both engines.
var seedTests = []string{
	"../../testdata/MP.litmus",
	"../../testdata/classic/SB.litmus",
	"../../testdata/classic/MP+dmb.st+po.litmus",
	"../../testdata/classic/CoRR.litmus",
	"../../testdata/x86/deref.litmus",
	"../../testdata/x86/SB+mfences.litmus",
	"../../testdata/x86_64/SB.litmus",
	"../../testdata/bpf/MP+fetch+addr.litmus",
	"../../testdata/bpf/SB.litmus",
	"../../testdata/ppc/MP+sync+ctrlisync.litmus",
	"../../testdata/ppc/INC+lwarx-stwcx.litmus",
	"../../cmd/purr/testdata/SB-C.litmus",
}

// seedRecipes are the mutations every seed test gets in the seed corpus:
// none, then one of each kind at a few places (see Mutate).
var seedRecipes = [][]byte{
	nil,
	{0, 2, 0}, {0, 3, 0}, {0, 6, 0}, // lines deleted: the state, the program
	{1, 2, 0}, {1, 6, 0}, // lines duplicated
	{2, 2, 9}, {2, 6, 14}, // lines cut
	{3, 0, 40}, {3, 0, 90}, // tokens inserted
	{4, 0, 0}, {4, 1, 3}, {4, 2, 1}, // constants changed
	{5, 5, 6}, // lines swapped
	{0, 2, 0, 1, 3, 0, 4, 1, 1},
}

// budget bounds one engine's work on one mutant: past it the engine must
// give up (context.DeadlineExceeded) rather than answer.
const budget = 2 * time.Second

// hang is how long a check may take before the fuzzer calls it a hang:
// the budget plus what a single SAT call, which cannot be interrupted,
// may add on these small tests.
const hang = 30 * time.Second

// positioned matches a refusal's line: FILE:LINE:COL: message.
func positioned(file string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(file) + `:[0-9]+:[0-9]+: `)
}

// FuzzMutants mutates the seed tests and checks what must hold for every
// input: parsing and checking never panic nor hang, every refusal names
// its position (file:line:col), and when both engines answer, they give
// the same answer (an error must be the same error from both).
//
// CI runs it for a bounded number of mutants: go test ./internal/mutants -run '^$' -fuzz FuzzMutants -fuzztime 300000x
func FuzzMutants(f *testing.F) {
	for _, path := range seedTests {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, r := range seedRecipes {
			f.Add(src, r)
		}
	}
	f.Fuzz(func(t *testing.T, src, recipe []byte) {
		if d := checkMutant(Mutate(src, recipe)); d != "" {
			t.Fatal(d)
		}
	})
}

// checkMutant parses and checks one mutant with both engines and
// describes what went wrong ("" when all holds).
func checkMutant(src []byte) string {
	const file = "mutant.litmus"
	at := positioned(file)
	refused := func(who string, err error) string {
		for _, line := range strings.Split(err.Error(), "\n") {
			if !at.MatchString(line) {
				return fmt.Sprintf("%s refused without a position: %q\n%s", who, line, src)
			}
		}
		return ""
	}
	lt, err := litmus.Parse(file, src)
	if err != nil {
		return refused("the parser", err)
	}
	m, err := defaultModel(lt.Arch)
	if err != nil || m == nil {
		return "" // no default model: nothing to check it under
	}
	want, werr := checkWithin(m, lt, mcm.EngineSAT)
	if werr == errHang {
		return fmt.Sprintf("the SAT engine hung (> %v):\n%s", hang, src)
	}
	got, gerr := checkWithin(m, lt, mcm.EngineExplicit)
	if gerr == errHang {
		return fmt.Sprintf("the explicit engine hung (> %v):\n%s", hang, src)
	}
	if outOfBudget(werr) || outOfBudget(gerr) {
		return ""
	}
	switch {
	case werr != nil && gerr != nil:
		if werr.Error() != gerr.Error() {
			return fmt.Sprintf("the engines refuse differently: sat: %v; explicit: %v\n%s", werr, gerr, src)
		}
		return refused("the engines", werr)
	case werr != nil || gerr != nil:
		return fmt.Sprintf("one engine refuses: sat: %v; explicit: %v\n%s", werr, gerr, src)
	}
	rw, rg := want.Result(lt, false), got.Result(lt, false)
	if diffs := herdtest.Compare(herdtest.Block{Result: &rw}, herdtest.Block{Result: &rg}); len(diffs) > 0 {
		return fmt.Sprintf("the engines answer differently: %s\n%s", strings.Join(diffs, "; "), src)
	}
	return ""
}

var errHang = errors.New("hang")

// checkWithin checks lt with one engine within budget, or returns errHang
// when the engine has not returned after hang.
func checkWithin(m *cat.Model, lt *litmus.Test, engine string) (*outcome.Outcome, error) {
	type result struct {
		out *outcome.Outcome
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	go func() {
		out, err := mcm.CheckContext(ctx, m, lt, mcm.Options{Engine: engine, MaxVars: 100_000, MaxClauses: 400_000})
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(hang):
		return nil, errHang
	}
}

// outOfBudget tells whether a check gave up for want of time or of room,
// which says nothing about the mutant.
func outOfBudget(err error) bool {
	var limit *mcm.LimitError
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &limit)
}

var (
	modelsOnce sync.Once
	loaded     map[string]*cat.Model
	loadErrs   map[string]error
)

// defaultModel loads purr's embedded model for arch's tests, once.
func defaultModel(arch string) (*cat.Model, error) {
	modelsOnce.Do(func() {
		loaded, loadErrs = map[string]*cat.Model{}, map[string]error{}
		loader := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
		for _, a := range litmus.Dialects() {
			d, _ := litmus.LookupDialect(a)
			if d.Model == "" {
				continue
			}
			name := d.Model + ".cat"
			src, err := fs.ReadFile(models.FS, filepath.ToSlash(name))
			if err == nil {
				loaded[a], err = loader.LoadSource(name, src)
			}
			loadErrs[a] = err
		}
	})
	return loaded[arch], loadErrs[arch]
}

// TestFuzzFindings checks the mutants FuzzMutants found wrong, reduced:
// a thread whose every path the unrolling bound cuts (it jumps back to
// itself at once) has no execution under either engine; the SAT engine
// used to let it run nothing.
func TestFuzzFindings(t *testing.T) {
	for _, src := range []string{`AArch64 loop
{ 0:X1=x; }
 P0          ;
 MOV W0,#1   ;
 STR W0,[X1] ;
 L2:         ;
 B L2        ;
forall (x=1)
`, `X86 loop
{ 0:EBX=x; }
 P0           ;
 MOV [EBX],$1 ;
 L2: MFENCE   ;
 JMP L2       ;
forall (x=1)
`} {
		if d := checkMutant([]byte(src)); d != "" {
			t.Error(d)
		}
	}
}
