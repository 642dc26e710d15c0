package mcm

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
)

var (
	genCount = flag.Int("gen-count", 0, "random tests TestGeneratedDifferential compares the engines on (0: 300, 30 under -short)")
	genSeed  = flag.Uint64("gen-seed", 1, "seed of TestGeneratedDifferential's generator")
)

// genLimit bounds the estimated candidates of a generated test, so that
// the explicit engine finishes quickly; bigger tests are drawn again.
const genLimit = 2000

// genLocs are the locations generated tests use; thread registers X10,
// X11, X12 hold their addresses.
var genLocs = []string{"x", "y", "z"}

// genThread writes one thread of a random test.
type genThread struct {
	r     *rand.Rand
	locs  int
	lines []string
	loads []string // registers a load wrote, which later accesses may depend on
	regs  int      // next result register (W0, W1, ...)
	temps int      // next temporary register (W20, W21, ...)
	label *int     // labels are numbered across the test
}

func (g *genThread) emit(format string, args ...any) {
	g.lines = append(g.lines, fmt.Sprintf(format, args...))
}

func (g *genThread) result() string {
	r := fmt.Sprintf("W%d", g.regs)
	g.regs++
	g.loads = append(g.loads, r)
	return r
}

func (g *genThread) temp() string {
	r := fmt.Sprintf("W%d", 20+g.temps)
	g.temps++
	return r
}

func (g *genThread) addr() string { return fmt.Sprintf("X%d", 10+g.r.IntN(g.locs)) }

// dependency returns a register holding zero computed from an earlier
// load, or "" when the thread has loaded nothing yet.
func (g *genThread) dependency() string {
	if len(g.loads) == 0 {
		return ""
	}
	t := g.temp()
	src := g.loads[g.r.IntN(len(g.loads))]
	g.emit("EOR %s,%s,%s", t, src, src)
	return t
}

// access emits a load or a store, through an address dependency on an
// earlier load when dep is set; stores may instead carry a data
// dependency, or store a loaded value.
func (g *genThread) access(dep bool) {
	at := "[" + g.addr() + "]"
	if dep {
		if z := g.dependency(); z != "" {
			at = "[" + g.addr() + "," + z + ",SXTW]"
		}
	}
	switch k := g.r.IntN(10); {
	case k < 4:
		op := "LDR"
		if g.r.IntN(6) == 0 {
			op = "LDAR"
		}
		if op == "LDAR" && strings.Contains(at, ",") {
			op = "LDR" // LDAR takes a base register only
		}
		g.emit("%s %s,%s", op, g.result(), at)
	case k < 9:
		v := g.temp()
		g.emit("MOV %s,#%d", v, 1+g.r.IntN(2))
		if !dep && g.r.IntN(3) == 0 {
			if z := g.dependency(); z != "" { // a data dependency
				g.emit("ADD %s,%s,%s", v, v, z)
			}
		}
		if len(g.loads) > 0 && g.r.IntN(4) == 0 {
			// Store what a load read: values flow, and can go round
			// a cycle of reads-from that no value starts.
			v = g.loads[g.r.IntN(len(g.loads))]
		}
		op := "STR"
		if g.r.IntN(6) == 0 && !strings.Contains(at, ",") {
			op = "STLR"
		}
		g.emit("%s %s,%s", op, v, at)
	default:
		v := g.temp()
		g.emit("MOV %s,#%d", v, 1+g.r.IntN(2))
		if strings.Contains(at, ",") {
			at = "[" + g.addr() + "]"
		}
		g.emit("SWP %s,%s,%s", v, g.result(), at)
	}
}

// instruction emits one random instruction (with what it depends on).
func (g *genThread) instruction() {
	switch k := g.r.IntN(20); {
	case k < 11:
		g.access(false)
	case k < 14:
		g.emit("DMB %s", []string{"SY", "LD", "ST"}[g.r.IntN(3)])
	case k < 18:
		g.access(true)
	default: // a control dependency, over one instruction or none
		if len(g.loads) == 0 {
			g.access(false)
			return
		}
		src := g.loads[g.r.IntN(len(g.loads))]
		*g.label++
		l := fmt.Sprintf("LC%02d", *g.label)
		g.emit("%s %s,%s", []string{"CBZ", "CBNZ"}[g.r.IntN(2)], src, l)
		if g.r.IntN(2) == 0 {
			g.access(false)
		}
		g.emit("%s:", l)
		g.access(false)
	}
}

// generateLitmus writes a random AArch64 litmus test: 2–4 threads of 2–3
// instructions over 2–3 locations, observing every register a load
// writes and every location.
func generateLitmus(r *rand.Rand, name string) string {
	locs := 2 + r.IntN(2)
	threads := make([]*genThread, []int{2, 2, 2, 3, 3, 4}[r.IntN(6)])
	label := 0
	for i := range threads {
		g := &genThread{r: r, locs: locs, label: &label}
		for n := 2 + r.IntN(2); n > 0; n-- {
			g.instruction()
		}
		threads[i] = g
	}
	var b strings.Builder
	fmt.Fprintf(&b, "AArch64 %s\n{\n", name)
	for i := range threads {
		for l := 0; l < locs; l++ {
			fmt.Fprintf(&b, "%d:X%d=%s; ", i, 10+l, genLocs[l])
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	rows := 0
	for _, g := range threads {
		rows = max(rows, len(g.lines))
	}
	cell := func(s string) string { return fmt.Sprintf(" %-22s", s) }
	for i := range threads {
		b.WriteString(cell(fmt.Sprintf("P%d", i)))
		b.WriteString(map[bool]string{true: ";\n", false: "|"}[i == len(threads)-1])
	}
	for row := 0; row < rows; row++ {
		for i, g := range threads {
			s := ""
			if row < len(g.lines) {
				s = g.lines[row]
			}
			b.WriteString(cell(s))
			b.WriteString(map[bool]string{true: ";\n", false: "|"}[i == len(threads)-1])
		}
	}
	var observed, cond []string
	for i, g := range threads {
		for _, reg := range g.loads {
			loc := fmt.Sprintf("%d:X%s", i, reg[1:])
			observed = append(observed, loc)
			if r.IntN(2) == 0 {
				cond = append(cond, fmt.Sprintf("%s=%d", loc, r.IntN(3)))
			}
		}
	}
	for _, l := range genLocs[:locs] {
		observed = append(observed, l)
		if r.IntN(3) == 0 {
			cond = append(cond, fmt.Sprintf("%s=%d", l, r.IntN(3)))
		}
	}
	if len(cond) == 0 {
		cond = append(cond, "x=0")
	}
	fmt.Fprintf(&b, "locations [%s;]\n", strings.Join(observed, "; "))
	quant := []string{"exists", "exists", "~exists", "forall"}[r.IntN(4)]
	fmt.Fprintf(&b, "%s (%s)\n", quant, strings.Join(cond, " /\\ "))
	return b.String()
}

// TestGeneratedDifferential compares the engines on random litmus tests
// under sc, tso, pso, aarch64 and a model without axioms, under which
// executions with dependency cycles remain (-gen-count N for more).
func TestGeneratedDifferential(t *testing.T) {
	embedded := []string{"sc", "tso", "pso", "aarch64"}
	names := append(embedded, "none")
	ms := map[string]*cat.Model{"none": inlineModel(t, `"no axioms"`+"\n")}
	for _, n := range embedded {
		ms[n] = embeddedModel(t, n)
	}
	r := rand.New(rand.NewPCG(*genSeed, 0))
	// The threads of a litmus test are P0, P1, ... in order (herd7 refuses
	// other names, and so does purr), so the text cannot shuffle them; the
	// engines must not depend on that order, and a third of the tests are
	// also checked with their processes reordered in the program. The
	// reordering draws from a stream of its own, which leaves the tests a
	// seed generates unchanged.
	shuffle := rand.New(rand.NewPCG(*genSeed, 1))
	count := *genCount
	if count == 0 {
		count = 300
		if testing.Short() {
			count = 30
		}
	}
	compared, drawn, shuffled, candidates := 0, 0, 0, 0.0
	// How many tests have other final states under a model than under sc:
	// the generator makes tests that tell the models apart.
	relaxed := map[string]int{}
	for compared < count {
		drawn++
		if drawn > 20*count {
			t.Fatalf("only %d of %d tests drawn were small enough", compared, drawn)
		}
		name := fmt.Sprintf("gen%d", drawn)
		src := generateLitmus(r, name)
		lt, err := litmus.Parse(name+".litmus", []byte(src))
		if err != nil {
			t.Fatalf("the generator wrote a test purr cannot read: %v\n%s", err, src)
		}
		n, err := candidateEstimate(lt, 2)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if n > genLimit {
			continue
		}
		compared++
		candidates += n
		states := map[string]string{}
		outs := map[string]*outcome.Outcome{}
		for _, model := range names {
			out, d := compareEngines(ms[model], lt)
			if len(d) > 0 {
				t.Errorf("%s under %s: the engines disagree: %s\n%s", name, model, strings.Join(d, "; "), src)
				continue
			}
			if out != nil {
				outs[model] = out
				keys := make([]string, len(out.States))
				for i, st := range out.States {
					keys[i] = outcome.StateKey(st)
				}
				sort.Strings(keys)
				states[model] = strings.Join(keys, "\n")
				if states[model] != states["sc"] {
					relaxed[model]++
				}
			}
		}
		if shuffle.IntN(3) == 0 {
			model := names[shuffle.IntN(len(names))]
			if want := outs[model]; want != nil {
				shuffled++
				order := shuffle.Perm(len(lt.Program.Procs))
				if sort.IntsAreSorted(order) {
					slices.Reverse(order)
				}
				got, d := compareEngines(ms[model], withProcs(lt, order...))
				if len(d) == 0 && got != nil {
					d = sameOutcome(lt, want, got)
				}
				if len(d) > 0 {
					t.Errorf("%s under %s with its processes in the order %v: %s\n%s", name, model, order, strings.Join(d, "; "), src)
				}
			}
		}
	}
	t.Logf("%d tests compared under %v (%d drawn, %.0f candidates on average, %d also with their processes reordered); tests with other states than under sc: %v",
		compared, names, drawn, candidates/float64(compared), shuffled, relaxed)
}
