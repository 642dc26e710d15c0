package mcm_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/outcome"
)

var update = flag.Bool("update", false, "rewrite testdata/loopcorpus.golden with the answers found")

const loopGolden = "testdata/loopcorpus.golden"

// loopSuite is a folder of a shared corpus run under the model its herd7
// references were made with.
type loopSuite struct {
	name string // the golden file's key: folder and model
	dir  string // under ../shared
	// model is an embedded model's name, or conf a herd7 .cfg under
	// ../shared that names the model (the LKMM's).
	model, conf string
	// refs are herd7 7.57's outputs at its default bound, relative to
	// dir; "" for one X.litmus.expected beside each test.
	refs []string
	// skip leaves out the tests of a folder no reference covers and purr
	// does not read (RISC-V's mixed sizes).
	skip func(rel string) bool
}

// loopSuites are the shared corpora, as corpus_test.go, lkmm_test.go
// (cmd/purr), riscvcorpus_test.go and ppccorpus_test.go run them.
var loopSuites = []loopSuite{
	{name: "herd-regression/AArch64 aarch64", dir: "corpus/herd-regression/AArch64", model: "aarch64"},
	{name: "herd-regression/C rc11", dir: "corpus/herd-regression/C", model: "rc11"},
	{name: "herd-catalogue-aarch64 aarch64", dir: "corpus/herd-catalogue-aarch64", model: "aarch64", refs: []string{"herd-7.57.txt"}},
	{name: "herd-catalogue-aarch64 sc", dir: "corpus/herd-catalogue-aarch64", model: "sc", refs: []string{"herd-7.57-sc.txt"}},
	{name: "dat3m-aarch64 aarch64", dir: "corpus/dat3m-aarch64", model: "aarch64", refs: []string{"herd-7.57.txt"}},
	{name: "dat3m-aarch64 sc", dir: "corpus/dat3m-aarch64", model: "sc", refs: []string{"herd-7.57-sc.txt"}},
	{name: "dat3m-c11 rc11", dir: "corpus/dat3m-c11", model: "rc11", refs: []string{"herd-7.57-rc11.txt"}},
	{name: "dat3m-ppc ppc", dir: "corpus/dat3m-ppc", model: "ppc", refs: []string{"herd-7.57.txt"}},
	{name: "riscv-official riscv", dir: "corpus/riscv-official", model: "riscv", refs: []string{"herd-7.57.txt"},
		skip: func(rel string) bool { return !strings.HasPrefix(rel, "tests/non-mixed-size/") }},
	{name: "random-aarch64 aarch64", dir: "corpus/random-aarch64", model: "aarch64", refs: []string{"herd-7.57.txt"}},
	{name: "random-aarch64 sc", dir: "corpus/random-aarch64", model: "sc", refs: []string{"herd-7.57-sc.txt"}},
	{name: "random-c rc11", dir: "corpus/random-c", model: "rc11", refs: []string{"herd-7.57-rc11.txt"}},
	{name: "lkmm/kernel-tests lkmm", dir: "lkmm/kernel-tests", conf: "lkmm/model/linux-kernel.cfg", refs: []string{"herd-7.57.txt"}},
	{name: "lkmm/dat3m lkmm", dir: "lkmm/dat3m", conf: "lkmm/model/linux-kernel.cfg", refs: []string{"herd-7.57.txt"}},
}

// The bounds a loop test is checked at, in turn, while the bound cuts a
// loop; the raising stops after a check that took over loopRaiseTime (or
// loopCheckTimeout, which refuses it).
var (
	loopBounds       = []int{2, 4, 8, 16, 32}
	loopRaiseTime    = 5 * time.Second
	loopCheckTimeout = 30 * time.Second
)

// loopShort are the loop tests -short runs (a retry loop, loops on
// constants that end within 2 iterations and beyond, each under a second);
// the golden lines of the others are not compared.
var loopShort = []string{
	"herd-regression/AArch64 aarch64 A184.litmus",
	"herd-regression/AArch64 aarch64 L028.litmus",
	"herd-regression/AArch64 aarch64 L047.litmus",
}

// TestLoopCorpus checks --unroll none on every test of the shared corpora
// whose program has a loop (every one of them without -short, loopShort's
// with it). The answer at --unroll 2 must be herd7's (verdict and states,
// where herd7's reference has the test). The bound is then raised (4, 8,
// ...) while it cuts a loop: the answers settle when the bound cuts none,
// or when the last two agree, and --unroll none must give the settled
// answer without herd's Loop mark, or refuse the test. A bounded answer
// that outcome.Bound says holds for every bound must equal every larger
// bound's. testdata/loopcorpus.golden pins, per test, the answer at 2,
// whether it holds for every bound (and why not), and --unroll none's
// answer or refusal; the raised bounds' answers are logged, as where the
// raising stops depends on the time the checks take.
func TestLoopCorpus(t *testing.T) {
	root := shared.Path(t, ".")
	want := readLoopGolden(t)
	var lines []string
	for _, s := range loopSuites {
		shared.Path(t, s.dir) // skips the test when a corpus is absent
		var tests []string
		if testing.Short() {
			for _, key := range loopShort {
				if rel, ok := strings.CutPrefix(key, s.name+" "); ok {
					tests = append(tests, rel)
				}
			}
		} else {
			tests = loopTests(t, root, s)
		}
		if len(tests) == 0 {
			continue
		}
		k := suiteChecker(t, root, s)
		refs := suiteRefs(t, root, s)
		for _, rel := range tests {
			key := s.name + " " + rel
			var ref *herdtest.Block
			if b, ok := refs[rel]; ok && b.Result != nil {
				ref = &b
			}
			r := checkLoopTest(k, root, s, rel, ref)
			for _, e := range r.errs {
				t.Errorf("%s: %s", key, e)
			}
			if r.raised != "" {
				t.Logf("%s: %s", key, r.raised)
			}
			line := key + " | " + r.line
			if w, ok := want[key]; !*update && (!ok || w != line) {
				t.Errorf("golden differs (-update rewrites it):\n got: %s\nwant: %s", line, w)
			}
			lines = append(lines, line)
		}
		t.Logf("%s: %d tests with loops", s.name, len(tests))
	}
	if !*update && !testing.Short() {
		for key := range want {
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, key+" | ") }) {
				t.Errorf("%s: in %s, but no longer a loop test of the corpora", key, loopGolden)
			}
		}
	}
	if *update {
		if testing.Short() {
			t.Fatal("-update needs the full run (without -short)")
		}
		if err := os.WriteFile(loopGolden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loopResult is what checkLoopTest found of one test: its golden line,
// the answers as the bound was raised (which depend on the time the
// checks take, so not golden) and what is wrong.
type loopResult struct {
	line, raised string
	errs         []string
}

// checkLoopTest runs one loop test at the bounds and without one; ref is
// herd7's answer at its default bound, nil when it has none.
func checkLoopTest(k *herd.Checker, root string, s loopSuite, rel string, ref *herdtest.Block) loopResult {
	path := filepath.Join(root, s.dir, rel)
	var r loopResult
	fail := func(format string, args ...any) { r.errs = append(r.errs, fmt.Sprintf(format, args...)) }
	// At herd7's bound.
	a2, b2, _, err := loopCheck(k, path, 2)
	if err != nil {
		r.line = "refused at --unroll 2: " + cleanErr(err, root)
		return r
	}
	if ref != nil {
		var diffs []string
		for _, d := range herdtest.Compare(*ref, herdtest.Block{Result: &a2.res}) {
			if !strings.HasPrefix(d, "witnesses") {
				diffs = append(diffs, d)
			}
		}
		switch why, known := loopHerdDiffers[s.name+" "+rel]; {
		case known && len(diffs) == 0:
			fail("agrees with herd7 at --unroll 2, though loopHerdDiffers says %q", why)
		case known && !a2.loop:
			fail("differs from herd7 at --unroll 2 (%s) without herd's Loop mark", strings.Join(diffs, "; "))
		case !known:
			for _, d := range diffs {
				fail("--unroll 2 differs from herd7: %s", d)
			}
		}
	}
	exact := "not exact: " + boundWhy(b2)
	if !a2.loop {
		exact = "no loop cut"
	} else if b2 != nil && b2.Exact {
		exact = "exact"
	}
	// Raising the bound: answers[i] is at loopBounds[i]. An answer the
	// bound did not cut is every larger bound's.
	answers := []loopAnswer{a2}
	exactFrom := -1
	if !a2.loop || b2 != nil && b2.Exact {
		exactFrom = 0
	}
	stopped := ""
	for i := 1; i < len(loopBounds) && answers[i-1].loop; i++ {
		a, b, took, err := loopCheck(k, path, loopBounds[i])
		if err != nil {
			stopped = fmt.Sprintf("; --unroll %d refused: %s", loopBounds[i], cleanErr(err, root))
			break
		}
		answers = append(answers, a)
		if exactFrom < 0 && (!a.loop || b != nil && b.Exact) {
			exactFrom = i
		}
		if took > loopRaiseTime {
			stopped = fmt.Sprintf("; --unroll %d took over %v", loopBounds[i], loopRaiseTime)
			break
		}
	}
	if exactFrom >= 0 {
		for i := exactFrom + 1; i < len(answers); i++ {
			if answers[i].key != answers[exactFrom].key {
				fail("--unroll %d's answer (%s) was said to hold for every bound, but --unroll %d's is %s",
					loopBounds[exactFrom], answers[exactFrom].text, loopBounds[i], answers[i].text)
			}
		}
	}
	last := answers[len(answers)-1]
	from := len(answers) - 1
	for from > 0 && answers[from-1].key == last.key {
		from--
	}
	settled := !last.loop || from < len(answers)-1
	switch {
	case !last.loop:
		r.raised = fmt.Sprintf("--unroll %d cuts no loop: %s%s", loopBounds[len(answers)-1], last.text, stopped)
	case settled:
		r.raised = fmt.Sprintf("stable from %d to %d: %s%s", loopBounds[from], loopBounds[len(answers)-1], last.text, stopped)
	default:
		r.raised = fmt.Sprintf("unsettled at %d: %s%s", loopBounds[len(answers)-1], last.text, stopped)
	}
	r.raised = strings.ReplaceAll(r.raised, root+string(filepath.Separator), "")
	line := fmt.Sprintf("2: %s, %s | ", a2.text, exact)
	// Without a bound.
	an, _, _, err := loopCheck(k, path, mcm.Unbounded)
	switch {
	case err != nil:
		line += "none: refused: " + cleanErr(err, root)
	case an.loop:
		fail("--unroll none marks its answer Loop")
		line += "none: Loop " + an.text
	default:
		line += "none: " + an.text
		if settled && an.key != last.key {
			fail("--unroll none answers %s, the bounded answers settle on %s", an.text, last.text)
		}
	}
	r.line = strings.ReplaceAll(line, root+string(filepath.Separator), "")
	return r
}

// loopHerdDiffers are the loop tests where purr's answer at --unroll 2 is
// not herd7's, and why: purr marks them Loop.
var loopHerdDiffers = map[string]string{
	// herd7 runs a loop whose branch depends on constants alone to its
	// end whatever -unroll (its test's comment: "Complete loop unrolling
	// for a cheap price"); purr cuts it at the bound, as it does every
	// loop, and --unroll none gives herd7's answer.
	"herd-regression/AArch64 aarch64 L028.litmus": "herd7 unrolls a loop on constants to its end",
}

// loopAnswer is a check's answer: verdict, states and flags.
type loopAnswer struct {
	key  string // all of it, to compare
	text string // verdict, number of states, a hash of them, flags
	loop bool
	res  herdout.Result
}

// loopCheck checks a test at a bound (mcm.Unbounded for none), and says
// how long it took.
func loopCheck(k *herd.Checker, path string, unroll int) (loopAnswer, *outcome.Bound, time.Duration, error) {
	k.Config().Unroll = unroll
	start := time.Now()
	res, err := k.Check(context.Background(), path)
	if err != nil {
		return loopAnswer{}, nil, 0, err
	}
	r := res.Outcome.Result(res.Test, false)
	return answerOf(r), res.Outcome.Bound, time.Since(start), nil
}

func answerOf(r herdout.Result) loopAnswer {
	var b strings.Builder
	b.WriteString(r.Verdict.String())
	for _, st := range r.States {
		b.WriteString("\n")
		for _, x := range st.Bindings {
			fmt.Fprintf(&b, "%s=%s;", x.Loc, x.Value)
		}
		for _, f := range st.Faults {
			fmt.Fprintf(&b, "fault %s;", f)
		}
	}
	for _, f := range r.Flags {
		b.WriteString("\nflag " + f)
	}
	h := fnv.New32a()
	io.WriteString(h, b.String())
	text := fmt.Sprintf("%s %d states %08x", r.Verdict, len(r.States), h.Sum32())
	if len(r.Flags) > 0 {
		text += " flags " + strings.Join(r.Flags, ",")
	}
	return loopAnswer{key: b.String(), text: text, loop: r.Loop, res: r}
}

// boundWhy is why a bounded answer is not exact.
func boundWhy(b *outcome.Bound) string {
	if b == nil {
		return ""
	}
	return b.Why
}

// cleanErr is an error's message without the machine's paths, on one line.
func cleanErr(err error, root string) string {
	msg := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		msg = "timed out"
	}
	msg = strings.ReplaceAll(msg, root+string(filepath.Separator), "")
	return strings.ReplaceAll(msg, "\n", " / ")
}

// suiteChecker is a herd.Checker for a suite's model, which the checks
// of its tests reuse.
func suiteChecker(t testing.TB, root string, s loopSuite) *herd.Checker {
	cfg := herd.Default()
	cfg.Timeout = loopCheckTimeout
	if s.conf != "" {
		if err := cfg.ReadConf([]string{filepath.Join(root, s.conf)}, func(string) bool { return false }, io.Discard); err != nil {
			t.Fatal(err)
		}
	} else {
		cfg.Model = s.model
	}
	return herd.NewChecker(cfg)
}

// suiteRefs reads a suite's herd7 answers, by path relative to its
// folder.
func suiteRefs(t *testing.T, root string, s loopSuite) map[string]herdtest.Block {
	out := map[string]herdtest.Block{}
	dir := filepath.Join(root, s.dir)
	if len(s.refs) == 0 {
		files, _ := filepath.Glob(filepath.Join(dir, "*.litmus.expected"))
		for _, f := range files {
			blocks, err := herdtest.ParseFile(f)
			if err != nil || len(blocks) != 1 {
				t.Fatalf("%s: %v", f, err)
			}
			out[strings.TrimSuffix(filepath.Base(f), ".expected")] = blocks[0]
		}
		return out
	}
	for _, name := range s.refs {
		blocks, err := herdtest.ParseFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			p := b.Path
			if p == "" && b.Result != nil {
				p = b.Result.Name + ".litmus"
			}
			out[p] = b
		}
	}
	return out
}

// loopTests lists the tests of a suite whose program has a loop, by path
// relative to its folder, in order. A test purr cannot read is left out:
// its refusal is the corpus tests' business.
func loopTests(t *testing.T, root string, s loopSuite) []string {
	dir := filepath.Join(root, s.dir)
	k := suiteChecker(t, root, s)
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".litmus") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if s.skip != nil && s.skip(rel) {
			return nil
		}
		lt, err := k.Read(path)
		if err != nil {
			return nil
		}
		if hasLoop(lt) {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// hasLoop tells whether some thread of a test has a loop.
func hasLoop(lt *litmus.Test) bool {
	if lt.Program == nil {
		return false
	}
	for _, p := range lt.Program.Procs {
		if p.HasLoop() {
			return true
		}
	}
	return false
}

// readLoopGolden reads the golden file: its lines by suite and test.
func readLoopGolden(t testing.TB) map[string]string {
	src, err := os.ReadFile(loopGolden)
	if err != nil {
		if os.IsNotExist(err) && *update {
			return nil
		}
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		if key, _, ok := strings.Cut(l, " | "); ok {
			out[key] = l
		}
	}
	return out
}

// BenchmarkUnbounded measures --unroll none against --unroll 2 on the loop
// tests of the shared corpora (those of testdata/loopcorpus.golden that
// --unroll 2 answers): one op checks every one of them, those --unroll
// none answers under answered/..., those it refuses (the refusal's cost)
// under refused/....
func BenchmarkUnbounded(b *testing.B) {
	root := shared.Path(b, ".")
	suites := map[string]loopSuite{}
	for _, s := range loopSuites {
		suites[s.name] = s
	}
	type loopTest struct {
		k    *herd.Checker
		path string
	}
	groups := map[string][]loopTest{}
	checkers := map[string]*herd.Checker{}
	for key, line := range readLoopGolden(b) {
		if strings.Contains(line, "refused at --unroll 2") {
			continue
		}
		var s loopSuite
		for name := range suites {
			if strings.HasPrefix(key, name+" ") && len(name) > len(s.name) {
				s = suites[name]
			}
		}
		if s.name == "" {
			b.Fatalf("%s: no suite", key)
		}
		if checkers[s.name] == nil {
			checkers[s.name] = suiteChecker(b, root, s)
		}
		group := "answered"
		if strings.Contains(line, "| none: refused") {
			group = "refused"
		}
		groups[group] = append(groups[group], loopTest{checkers[s.name], filepath.Join(root, s.dir, strings.TrimPrefix(key, s.name+" "))})
	}
	for _, tests := range groups { // the models, loaded once
		for _, lt := range tests {
			if _, _, _, err := loopCheck(lt.k, lt.path, 2); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, group := range []string{"answered", "refused"} {
		tests := groups[group]
		slices.SortFunc(tests, func(x, y loopTest) int { return strings.Compare(x.path, y.path) })
		for _, mode := range []struct {
			name   string
			unroll int
		}{{"unroll=2", 2}, {"none", mcm.Unbounded}} {
			b.Run(fmt.Sprintf("%s/%s/%d-tests", group, mode.name, len(tests)), func(b *testing.B) {
				for b.Loop() {
					for _, lt := range tests {
						_, _, _, err := loopCheck(lt.k, lt.path, mode.unroll)
						if err != nil && (group == "answered" || mode.unroll != mcm.Unbounded) {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
