package eval

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/mcm/internal/predef"
)

// TestRetriesSound checks the analysis against concrete executions:
// random expressions, evaluated on random executions E and on E' (E
// without a random set D of reads, fences and branches, as the program
// side removes them, its ctrl losing random pairs), must relate as their
// abstract values say: what cannot grow is within E's value restricted to
// the kept events, what cannot shrink contains it, and the facts (domain
// or range kept, closed, empty) hold of E's value.
func TestRetriesSound(t *testing.T) { testSound(t, removeRetries) }

// TestPrefixesSound is TestRetriesSound for PrefixesRemovable: D is what
// cutting each thread short removes, the events after a point of its path
// and the reads of a removed write, whatever they are.
func TestPrefixesSound(t *testing.T) { testSound(t, removePrefixes) }

// TestSilentRetriesSound is TestRetriesSound for SilentRetriesRemovable:
// D may hold writes too, and then every read of them.
func TestSilentRetriesSound(t *testing.T) { testSound(t, removeSilent) }

// TestSilentFirstSound is TestSilentRetriesSound with TestTags.SilentFirst
// in a model that keeps each location sequentially consistent: E is
// coherent, and no kept event is in program order before a removed one of
// its location.
func TestSilentFirstSound(t *testing.T) { testSound(t, removeSilentFirst) }

// TestSilentGapSound is TestSilentRetriesSound in a model that keeps
// each location sequentially consistent, where a kept access may come
// before a removed one of its location (a thread takes its lock again):
// E is coherent, its read-modify-writes are removed whole, and
// TestTags.GapFree accepts the predefined names whose values on E hold no
// gap access (or end at none).
func TestSilentGapSound(t *testing.T) { testSound(t, removeSilentGap) }

// removeSilentFirst and removeSilentGap are the property tests' names for
// removeSilent with TestTags.SilentFirst, and with TestTags.GapFree, in a
// coherent model.
const (
	removeSilentFirst = -1
	removeSilentGap   = -2
)

func testSound(t *testing.T, what int) {
	first, gap := what == removeSilentFirst, what == removeSilentGap
	if first || gap {
		what = removeSilent
	}
	proved := 0      // gap: rounds whose ARMv8 ordered-before steps the analysis shows cannot grow
	races := 0       // rounds where A covers the retries' locations
	kernelRaces := 0 // rounds where A and rmw cover them, and A alone does not
	prefixes := what == removePrefixes
	rng := rand.New(rand.NewSource(27))
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	for round := range rounds {
		var src strings.Builder
		var names []string
		g := &exprGen{rng: rng, rels: slices.Clone(baseRels), sets: slices.Clone(baseSets)}
		for i := range 12 {
			name := fmt.Sprintf("x%d", i)
			expr := g.rel(3)
			if i%3 == 0 {
				expr = g.set(3)
				g.sets = append(g.sets, name)
			} else {
				if rng.Intn(2) == 0 && len(names) > 0 {
					// X \ (X & Z), which the analysis knows is X \ Z.
					prev := names[len(names)-1]
					if slices.Contains(g.rels, prev) {
						expr = fmt.Sprintf("%s \\ (%s & %s)", prev, prev, g.rel(1))
					}
				}
				g.rels = append(g.rels, name)
			}
			fmt.Fprintf(&src, "let %s = %s\n", name, expr)
			names = append(names, name)
		}
		if first || gap {
			// ARMv8's local read successor and atomicity.
			src.WriteString("let lrs = [W]; (po-loc \\ (po-loc; [W]; po-loc)); [R]\n")
			src.WriteString("let atomic = (rmw & (fr; co)) \\ (fri; [W]; coi)\n")
			// The same as herd's aarch64.cat spells them: fr from rf and
			// co, the location within the accesses, a complement.
			src.WriteString("let herd-fri = ((rf^-1; co) \\ id) & int\n")
			src.WriteString("let herd-atomic = (rmw & (fr; co)) \\ (herd-fri; [W]; coi)\n")
			src.WriteString("let same-loc = [M]; loc; [M]\n")
			src.WriteString("let herd-lrs = [W]; ((po & same-loc) & ~((po & same-loc); [W]; (po & same-loc))); [R]\n")
			names = append(names, "lrs", "atomic", "herd-fri", "herd-atomic", "same-loc", "herd-lrs")
		}
		// RC11's data races, whose flag FlagsKept must find kept when
		// every access at the retries' locations is atomic (A).
		src.WriteString("let conflict = ((W * _) | (_ * W)) & loc \\ ((IW * _) | (_ * IW))\n")
		src.WriteString("let race = (conflict & ext) \\ ((po | rf)+ | ((po | rf)+)^-1 | A * A)\n")
		// The kernel's, whose marked accesses are a union of tags and
		// of rmw's domain and range, when every access at the retries'
		// locations is marked.
		src.WriteString("let marked = (~M) | IW | A | domain(rmw) | range(rmw)\n")
		src.WriteString("let plain = M \\ marked\n")
		src.WriteString("let pre-race = ext & ((plain * M) | ((M \\ IW) * plain))\n")
		src.WriteString("let kernel-race = (pre-race & co) | (pre-race & (co?; rf)) | (pre-race & fr)\n")
		names = append(names, "conflict", "race", "marked", "plain", "pre-race", "kernel-race")
		if gap {
			// Where ARMv8 and RISC-V use the local read successor.
			src.WriteString("let aob = rmw; lrs; [R]\n")
			src.WriteString("let dob = (addr | data); lrs\n")
			src.WriteString("let through = ((addr | data); lrs)*; addr\n")
			src.WriteString("let riscv = ([R]; (po-loc \\ (po-loc?; [W]; po-loc)); [R]) \\ (rf^-1; rf)\n")
			names = append(names, "aob", "dob", "through", "riscv")
		}
		l := retriesLoader(t, nil)
		m, err := l.LoadSource("p.cat", []byte(src.String()))
		if err != nil {
			t.Fatalf("%v\n%s", err, src.String())
		}
		x := randomExecution(rng, what, gap)
		for (first || gap) && !x.coherent() || first && !x.firstAccesses() || gap && !x.hasGap() {
			x = randomExecution(rng, what, gap)
		}
		full := x.capture(t, m, x.all(), false)
		reduced := x.capture(t, m, x.kept, true)
		tags := TestTags{SilentFirst: first, RetryClasses: x.retryClasses()}
		if gap {
			tags.GapFree = func(name string) bool {
				members, ok := full[name]
				if !ok {
					return false
				}
				for p := range members {
					if x.gap(int(p.B)) {
						return false
					}
				}
				return true
			}
		}
		a := &retries{variants: map[string]bool{}, included: map[string]bool{}, skip: func(string) bool { return false }, prefixes: prefixes, silent: what == removeSilent,
			tags: tags, coherent: first || gap}
		prelude, _, err := library()
		if err != nil {
			t.Fatal(err)
		}
		scope := a.run(m.Stmts, a.run(prelude.Stmts, retriesPredefined(tags, what)))
		for _, name := range names {
			v, _ := scope.lookup(name)
			e, ok := v.(*events)
			if !ok {
				t.Fatalf("%s: abstract value %T", name, v)
			}
			if first && (name == "lrs" || name == "atomic" || name == "herd-lrs" || name == "herd-atomic") && e.grows != nil {
				t.Fatalf("%s: with SilentFirst, the analysis should find it cannot grow", name)
			}
			if gap && (name == "atomic" || name == "herd-atomic") && e.grows != nil {
				t.Fatalf("%s: in a coherent model, the analysis should find it cannot grow", name)
			}
			if gap && name == "aob" && e.grows == nil && tags.GapFree("rmw") {
				proved++
			}
			if name == "race" && x.atomicCovers() && tags.RetryClasses != nil {
				if !(e.endAway && within(e.shape) == "loc") {
					t.Fatalf("race: the analysis should find its pairs away from the retries (endAway %v, shape %q)", e.endAway, e.shape)
				}
				races++
			}
			if name == "kernel-race" && x.markedCovers() && tags.RetryClasses != nil {
				if !(e.endAway && within(e.shape) == "loc") {
					t.Fatalf("kernel-race: the analysis should find its pairs away from the retries (endAway %v, shape %q)", e.endAway, e.shape)
				}
				if !x.atomicCovers() {
					kernelRaces++
				}
			}
			if msg := x.contradicts(e, full[name], reduced[name]); msg != "" {
				t.Errorf("round %d, %s = %s: %s\nE: %v\nE': %v\nD: %v", round, name, lineOf(src.String(), name), msg, full[name], reduced[name], x.removed())
			}
		}
	}
	if gap && proved == 0 {
		t.Errorf("no round shows rmw; lrs cannot grow")
	}
	if races == 0 && !prefixes {
		t.Errorf("no round has A cover the retries' locations")
	}
	if kernelRaces == 0 && what == removeSilent && !first {
		t.Errorf("no round has A and rmw cover the retries' locations where A alone does not")
	}
}

func lineOf(src, name string) string {
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "let "+name+" = ") {
			return strings.TrimPrefix(line, "let "+name+" = ")
		}
	}
	return ""
}

var (
	baseRels = []string{"po", "rf", "co", "fr", "loc", "ext", "int", "id", "ctrl", "addr", "data", "rmw", "po-loc", "rfe", "fre", "coi", "fri", "rfi"}
	baseSets = []string{"W", "R", "M", "F", "B", "_", "IW", "FW", "A", "emptyset"}
)

// exprGen makes random expressions over the names of relations and sets
// it has: the base ones, and the bindings made so far.
type exprGen struct {
	rng        *rand.Rand
	rels, sets []string
}

func (g *exprGen) rel(depth int) string {
	rng := g.rng
	if depth == 0 || rng.Intn(4) == 0 {
		return g.rels[rng.Intn(len(g.rels))]
	}
	r := func() string { return g.rel(depth - 1) }
	s := func() string { return g.set(depth - 1) }
	switch rng.Intn(12) {
	case 0:
		return "(" + r() + " | " + r() + ")"
	case 1:
		return "(" + r() + " & " + r() + ")"
	case 2:
		return "(" + r() + " \\ " + r() + ")"
	case 3, 4:
		return "(" + r() + " ; " + r() + ")"
	case 5:
		return "(" + r() + ")+"
	case 6:
		return "(" + r() + ")*"
	case 7:
		return "(" + r() + ")?"
	case 8:
		return "(" + r() + ")^-1"
	case 9:
		return "(~(" + r() + "))"
	case 10:
		return "[" + s() + "]"
	}
	return "(" + s() + " * " + s() + ")"
}

func (g *exprGen) set(depth int) string {
	rng := g.rng
	if depth == 0 || rng.Intn(3) == 0 {
		return g.sets[rng.Intn(len(g.sets))]
	}
	s := func() string { return g.set(depth - 1) }
	switch rng.Intn(6) {
	case 0:
		return "(" + s() + " | " + s() + ")"
	case 1:
		return "(" + s() + " & " + s() + ")"
	case 2:
		return "(" + s() + " \\ " + s() + ")"
	case 3:
		return "(~(" + s() + "))"
	case 4:
		return "domain(" + g.rel(depth-1) + ")"
	}
	return "range(" + g.rel(depth-1) + ")"
}

// execution is a small random execution: two initial writes, then events
// of two threads.
type execution struct {
	n                  int
	kind               []byte // 'I' (initial write), 'W', 'R', 'F', 'B'
	thread, loc        []int
	rf, co, addr, data map[Pair]bool
	rmw                map[Pair]bool // a read and the write after it (silent retries)
	atomic             []bool        // carries the tag A
	ctrl, reducedCtrl  map[Pair]bool
	kept               []bool
	prefixes           bool // D cuts threads short (else it is some reads, fences and branches)
	silent             bool // D may hold writes (silent retries)
}

// randomExecution makes an execution; retake (with silent retries) often
// starts thread 0 with a write, then a read-modify-write of the same
// location, then a read of it: a lock taken again after an unlock, whose
// failed attempt may be removed.
func randomExecution(rng *rand.Rand, what int, retake bool) *execution {
	prefixes := what == removePrefixes
	n := 4 + rng.Intn(6)
	x := &execution{n: n, kind: make([]byte, n), thread: make([]int, n), loc: make([]int, n),
		rf: map[Pair]bool{}, co: map[Pair]bool{}, addr: map[Pair]bool{}, data: map[Pair]bool{}, ctrl: map[Pair]bool{}, reducedCtrl: map[Pair]bool{}, rmw: map[Pair]bool{},
		prefixes: prefixes, silent: what == removeSilent}
	for i := range n {
		x.thread[i], x.loc[i] = -1-i, i%2
		if i < 2 {
			x.kind[i] = 'I'
			continue
		}
		x.kind[i] = "WRRFB"[rng.Intn(5)]
		x.thread[i], x.loc[i] = rng.Intn(2), rng.Intn(2)
	}
	retake = retake && n >= 7 && rng.Intn(2) == 0
	if retake {
		for i, k := range "WRWR" {
			x.kind[2+i], x.thread[2+i], x.loc[2+i] = byte(k), 0, 0
		}
		x.kind[6], x.thread[6], x.loc[6] = 'W', 1, 0 // what the last read may read
	}
	writes := func(l int) []int {
		var ws []int
		for i := range n {
			if (x.kind[i] == 'I' || x.kind[i] == 'W') && x.loc[i] == l {
				ws = append(ws, i)
			}
		}
		return ws
	}
	for l := range 2 {
		ws := writes(l) // the initial write first, then the others in a random order
		rest := ws[1:]
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		for i := range ws {
			for j := i + 1; j < len(ws); j++ {
				x.co[PairOf(ws[i], ws[j])] = true
			}
		}
	}
	for i := range n {
		if x.kind[i] == 'R' {
			ws := writes(x.loc[i])
			x.rf[PairOf(ws[rng.Intn(len(ws))], i)] = true
		}
	}
	x.atomic = make([]bool, n)
	for i := range n {
		x.atomic[i] = x.kind[i] != 'I' && rng.Intn(3) > 0
	}
	x.kept = make([]bool, n)
	if prefixes {
		// D: each thread from a random point on, and the reads of what
		// is removed, to a fixpoint.
		cut := []int{2 + rng.Intn(n-1), 2 + rng.Intn(n-1)}
		for i := range n {
			x.kept[i] = x.thread[i] < 0 || i < cut[x.thread[i]]
		}
		for changed := true; changed; {
			changed = false
			for p := range x.rf {
				if !x.kept[p.A] && x.kept[p.B] {
					for j := int(p.B); j < n; j++ {
						if x.thread[j] == x.thread[p.B] && x.kept[j] {
							x.kept[j], changed = false, true
						}
					}
				}
			}
		}
	} else {
		// D: some reads, fences and branches (never a write, but with
		// silent retries, and then every read of a removed write).
		for i := range n {
			x.kept[i] = x.kind[i] == 'I' || x.kind[i] == 'W' && what != removeSilent || rng.Intn(3) > 0
		}
		if retake {
			x.kept[2], x.kept[3], x.kept[4], x.kept[5], x.kept[6] = true, false, false, true, true
		}
		if what == removeSilent {
			// A read and the next event of its thread, a write of its
			// location: a read-modify-write, kept or removed whole.
			for i := range n {
				for j := i + 1; j < n; j++ {
					if x.thread[j] != x.thread[i] {
						continue
					}
					if x.kind[i] == 'R' && x.kind[j] == 'W' && x.loc[i] == x.loc[j] && (rng.Intn(2) == 0 || retake && i == 3) {
						x.rmw[PairOf(i, j)] = true
					}
					break
				}
			}
		}
		for changed := true; changed; {
			changed = false
			for p := range x.rf {
				if !x.kept[p.A] && x.kept[p.B] {
					x.kept[p.B], changed = false, true
				}
			}
			for p := range x.rmw {
				if x.kept[p.A] != x.kept[p.B] {
					x.kept[p.A], x.kept[p.B], changed = false, false, true
				}
			}
		}
	}
	// Dependencies from reads to later events of their thread; a kept
	// event depends on no removed one.
	for i := range n {
		for j := range n {
			if x.kind[i] != 'R' || !x.po(i, j) {
				continue
			}
			for _, dep := range []map[Pair]bool{x.addr, x.data, x.ctrl} {
				if rng.Intn(3) == 0 && (x.kept[i] || !x.kept[j]) {
					dep[PairOf(i, j)] = true
				}
			}
			if !prefixes && x.kept[i] && x.kept[j] && x.ctrl[PairOf(i, j)] && rng.Intn(2) == 0 {
				x.reducedCtrl[PairOf(i, j)] = true
			}
		}
	}
	return x
}

// firstAccesses tells whether x meets TestTags.SilentFirst: no kept
// access in program order before a removed one of its location.
func (x *execution) firstAccesses() bool {
	for i := range x.n {
		for j := range x.n {
			if x.po(i, j) && x.mem(i) && x.mem(j) && x.loc[i] == x.loc[j] && x.kept[i] && !x.kept[j] {
				return false
			}
		}
	}
	return true
}

func (x *execution) mem(i int) bool { return x.kind[i] != 'F' && x.kind[i] != 'B' }

// gap tells whether event i is a gap access (TestTags.GapFree): kept, and
// its next write in program order to its location is removed.
func (x *execution) gap(i int) bool {
	if !x.kept[i] || !x.mem(i) || x.thread[i] < 0 {
		return false
	}
	for j := i + 1; j < x.n; j++ {
		if x.po(i, j) && x.kind[j] == 'W' && x.loc[j] == x.loc[i] {
			return !x.kept[j]
		}
	}
	return false
}

// hasGap tells whether some access of x is a gap access.
func (x *execution) hasGap() bool {
	for i := range x.n {
		if x.gap(i) {
			return true
		}
	}
	return false
}

// coherent tells whether x is consistent in a model that keeps each
// location sequentially consistent: po-loc, rf, co and fr acyclic.
func (x *execution) coherent() bool {
	mem := x.mem
	edge := map[Pair]bool{}
	for p := range x.rf {
		edge[p] = true
	}
	for p := range x.co {
		edge[p] = true
		for q := range x.rf {
			if q.A == p.A && q.B != p.B {
				edge[PairOf(int(q.B), int(p.B))] = true // fr
			}
		}
	}
	for i := range x.n {
		for j := range x.n {
			if x.po(i, j) && mem(i) && mem(j) && x.loc[i] == x.loc[j] {
				edge[PairOf(i, j)] = true
			}
		}
	}
	// Acyclic: Floyd-Warshall on so few events.
	reach := make([][]bool, x.n)
	for i := range reach {
		reach[i] = make([]bool, x.n)
		for j := range reach[i] {
			reach[i][j] = edge[PairOf(i, j)]
		}
	}
	for k := range x.n {
		for i := range x.n {
			for j := range x.n {
				reach[i][j] = reach[i][j] || reach[i][k] && reach[k][j]
			}
		}
	}
	for i := range x.n {
		if reach[i][i] {
			return false
		}
	}
	return true
}

// observed tells whether the final state shows location l, so that FW
// holds its co-last write: with silent retries, only where no write is
// removed (mcm's retriesRemovable requires it); elsewhere, every location.
func (x *execution) observed(l int) bool {
	if !x.silent {
		return true
	}
	for i := range x.n {
		if !x.kept[i] && x.loc[i] == l && (x.kind[i] == 'W' || x.kind[i] == 'I') {
			return false
		}
	}
	return true
}

func (x *execution) po(i, j int) bool { return x.thread[i] >= 0 && x.thread[i] == x.thread[j] && i < j }

func (x *execution) all() []bool {
	all := make([]bool, x.n)
	for i := range all {
		all[i] = true
	}
	return all
}

func (x *execution) removed() []int {
	var d []int
	for i, k := range x.kept {
		if !k {
			d = append(d, i)
		}
	}
	return d
}

// capture evaluates the model on the events exec keeps (all of them: E;
// x.kept: E') and returns each binding's members or pairs.
func (x *execution) capture(t *testing.T, m *cat.Model, exec []bool, reduced bool) map[string]map[Pair]bool {
	t.Helper()
	al := NewAlgebra[bool](bools{}, exec)
	set := func(member func(i int) bool) Set[bool] {
		s := make(Set[bool], x.n)
		for i := range s {
			s[i] = exec[i] && member(i)
		}
		return s
	}
	rel := func(related func(i, j int) bool) Rel[bool] {
		r := Rel[bool]{}
		for i := range x.n {
			for j := range x.n {
				if exec[i] && exec[j] && related(i, j) {
					r[PairOf(i, j)] = true
				}
			}
		}
		return r
	}
	in := func(m map[Pair]bool) func(i, j int) bool { return func(i, j int) bool { return m[PairOf(i, j)] } }
	isW := func(i int) bool { return x.kind[i] == 'W' || x.kind[i] == 'I' }
	mem := func(i int) bool { return isW(i) || x.kind[i] == 'R' }
	sets := map[string]Set[bool]{
		"_": set(func(int) bool { return true }), "W": set(isW), "R": set(func(i int) bool { return x.kind[i] == 'R' }),
		"M": set(mem), "Exp": set(mem), "F": set(func(i int) bool { return x.kind[i] == 'F' }),
		"B": set(func(i int) bool { return x.kind[i] == 'B' }), "IW": set(func(i int) bool { return x.kind[i] == 'I' }),
		"I": set(func(i int) bool { return x.kind[i] == 'I' }), "RMW": set(func(int) bool { return false }),
		"A": set(func(i int) bool { return x.atomic[i] }),
		"FW": set(func(i int) bool {
			if !isW(i) || !x.observed(x.loc[i]) {
				return false
			}
			for j := range x.n {
				if exec[j] && x.co[PairOf(i, j)] {
					return false
				}
			}
			return true
		}),
	}
	ctrl := x.ctrl
	if reduced && !x.prefixes {
		ctrl = x.reducedCtrl
	}
	fr := map[Pair]bool{}
	for p := range x.rf {
		for q := range x.co {
			if p.A == q.A {
				fr[PairOf(int(p.B), int(q.B))] = true
			}
		}
	}
	sameThread := func(i, j int) bool { return i == j || x.thread[i] >= 0 && x.thread[i] == x.thread[j] }
	rels := map[string]Rel[bool]{
		"id": rel(func(i, j int) bool { return i == j }), "po": rel(x.po), "int": rel(sameThread),
		"ext": rel(func(i, j int) bool { return !sameThread(i, j) }),
		"loc": rel(func(i, j int) bool { return mem(i) && mem(j) && x.loc[i] == x.loc[j] }),
		"rf":  rel(in(x.rf)), "co": rel(in(x.co)), "fr": rel(in(fr)),
		"addr": rel(in(x.addr)), "data": rel(in(x.data)), "ctrl": rel(in(ctrl)),
		"rmw": rel(in(x.rmw)), "amo": rel(in(x.rmw)),
	}
	for _, e := range predef.Table() {
		if _, ok := rels[e.Name]; !ok && e.Kind == cat.KindRelation {
			rels[e.Name] = Rel[bool]{}
		}
	}
	_, captured, err := RunCapturing(context.Background(), Model{Cat: m, SkipWellFormed: true}, al, sets, rels)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[Pair]bool{}
	for name, s := range captured.Sets {
		out[name] = map[Pair]bool{}
		for i, in := range s {
			if in {
				out[name][PairOf(i, i)] = true
			}
		}
	}
	for name, r := range captured.Rels {
		out[name] = map[Pair]bool{}
		for p, in := range r {
			if in {
				out[name][p] = true
			}
		}
	}
	// The predefined values too, for TestTags.GapFree.
	for name, s := range sets {
		if _, ok := out[name]; !ok {
			out[name] = map[Pair]bool{}
			for i, in := range s {
				if in {
					out[name][PairOf(i, i)] = true
				}
			}
		}
	}
	for name, r := range rels {
		if _, ok := out[name]; !ok {
			out[name] = map[Pair]bool{}
			for p, in := range r {
				if in {
					out[name][p] = true
				}
			}
		}
	}
	return out
}

// contradicts says how full (the value on E) and reduced (on E')
// contradict the abstract value e ("" when they do not). A set's members
// are its pairs (i, i).
func (x *execution) contradicts(e *events, full, reduced map[Pair]bool) string {
	restricted := map[Pair]bool{}
	for p := range full {
		if x.kept[p.A] && x.kept[p.B] {
			restricted[p] = true
		}
	}
	for p := range reduced {
		if !restricted[p] && e.grows == nil {
			return fmt.Sprintf("grows by %v, and the analysis says it cannot", p)
		}
	}
	for p := range restricted {
		if !reduced[p] && e.shrinks == nil {
			return fmt.Sprintf("loses %v, and the analysis says it cannot", p)
		}
	}
	for p := range full {
		switch {
		case e.empty:
			return "not empty"
		case e.domKept && !x.kept[p.A]:
			return fmt.Sprintf("%v starts in D", p)
		case e.rngKept && !x.kept[p.B]:
			return fmt.Sprintf("%v ends in D", p)
		case e.closed && x.kept[p.A] != x.kept[p.B]:
			return fmt.Sprintf("%v joins K and D", p)
		case e.back && x.kept[p.B] && !x.kept[p.A]:
			return fmt.Sprintf("%v ends in K and starts in D", p)
		case e.fromKept && x.kept[p.A] && !x.kept[p.B]:
			return fmt.Sprintf("%v goes from K to D", p)
		case e.gapFree && x.gap(int(p.B)):
			return fmt.Sprintf("%v ends at a gap access", p)
		case e.poOrID && p.A != p.B && !x.po(int(p.A), int(p.B)):
			return fmt.Sprintf("%v is against program order", p)
		case e.noSpan && x.spans(p):
			return fmt.Sprintf("%v has a removed event between", p)
		case p.A == p.B && x.class(int(p.A)) >= 0 && e.awayFrom&(1<<x.class(int(p.A))) != 0:
			return fmt.Sprintf("%v is a retries' access of a kind the set is away from", p)
		case p.A == p.B && e.noInits && x.kind[p.A] == 'I':
			return fmt.Sprintf("%v is an initial write", p)
		case e.endAway && x.atRetriesLoc(int(p.A)) && x.atRetriesLoc(int(p.B)):
			return fmt.Sprintf("%v has no end away from the removed events' locations", p)
		case e.noInit && (x.kind[p.A] == 'I' || x.kind[p.B] == 'I'):
			return fmt.Sprintf("%v has an initial write", p)
		}
	}
	for i := range x.n {
		if c := x.class(i); c >= 0 {
			bit := classMask(1) << c
			switch {
			case e.covering&bit != 0 && !full[PairOf(i, i)]:
				return fmt.Sprintf("%d is a retries' access of a kind the set covers, and not a member", i)
			case e.domCovering&bit != 0 && !x.source(full, i):
				return fmt.Sprintf("%d is a retries' access of a kind the domain covers, and starts no pair", i)
			case e.rngCovering&bit != 0 && !x.target(full, i):
				return fmt.Sprintf("%d is a retries' access of a kind the range covers, and ends no pair", i)
			}
		}
		if e.inits && x.kind[i] == 'I' && !full[PairOf(i, i)] {
			return fmt.Sprintf("initial write %d is not a member", i)
		}
		if e.all && !full[PairOf(i, i)] {
			return fmt.Sprintf("%d is not a member", i)
		}
		for j := range x.n {
			p := PairOf(i, j)
			switch {
			case e.coversPairs && x.atRetries(i) && x.atRetries(j) && !full[p]:
				return fmt.Sprintf("%v, at removed events' locations, is not a pair", p)
			case e.initFrom && x.kind[i] == 'I' && !full[p]:
				return fmt.Sprintf("%v, from an initial write, is not a pair", p)
			case e.initTo && x.kind[j] == 'I' && !full[p]:
				return fmt.Sprintf("%v, to an initial write, is not a pair", p)
			}
		}
	}
	for _, changed := range []map[Pair]bool{reduced, restricted} {
		for p := range changed {
			if reduced[p] == restricted[p] {
				continue
			}
			if e.gapOnly && !x.gap(int(p.A)) {
				return fmt.Sprintf("changes by %v, which starts at no gap access", p)
			}
			if e.spanOnly && !x.spans(p) {
				return fmt.Sprintf("changes by %v, which has no removed event between", p)
			}
		}
	}
	return ""
}

// atRetries tells whether event i is an access, not an initial write, at
// a location a removed event accesses.
func (x *execution) atRetries(i int) bool {
	if !x.mem(i) || x.kind[i] == 'I' {
		return false
	}
	for d := range x.n {
		if !x.kept[d] && x.mem(d) && x.loc[d] == x.loc[i] {
			return true
		}
	}
	return false
}

// atRetriesLoc tells whether event i is an access, an initial write
// included, at a location a removed event accesses.
func (x *execution) atRetriesLoc(i int) bool {
	if !x.mem(i) {
		return false
	}
	for d := range x.n {
		if !x.kept[d] && x.mem(d) && x.loc[d] == x.loc[i] {
			return true
		}
	}
	return false
}

// atomicCovers tells whether every access at a removed event's location
// carries A.
func (x *execution) atomicCovers() bool {
	for i := range x.n {
		if x.atRetries(i) && !x.atomic[i] {
			return false
		}
	}
	return true
}

// markedCovers tells whether every access at a removed event's location
// carries A or is in an rmw pair.
func (x *execution) markedCovers() bool {
	for i := range x.n {
		if x.atRetries(i) && !x.atomic[i] && !x.classKey(i).InRMW {
			return false
		}
	}
	return true
}

// classKey is the kind of the retries' access i (TestTags.RetryClasses).
func (x *execution) classKey(i int) AccessClass {
	c := AccessClass{Write: x.kind[i] == 'W'}
	if x.atomic[i] {
		c.Tags = []string{"A"}
	}
	for p := range x.rmw {
		c.InRMW = c.InRMW || int(p.A) == i || int(p.B) == i
	}
	return c
}

// retryClasses lists the kinds of the retries' accesses, in the order of
// their first events.
func (x *execution) retryClasses() []AccessClass {
	var out []AccessClass
	for i := range x.n {
		if x.atRetries(i) && x.class(i) == len(out) {
			out = append(out, x.classKey(i))
		}
	}
	return out
}

// class is the index of event i's kind among retryClasses, -1 when it is
// no retries' access.
func (x *execution) class(i int) int {
	if !x.atRetries(i) {
		return -1
	}
	key := fmt.Sprint(x.classKey(i))
	var seen []string
	for j := range x.n {
		if !x.atRetries(j) {
			continue
		}
		k := fmt.Sprint(x.classKey(j))
		if k == key {
			if idx := slices.Index(seen, k); idx >= 0 {
				return idx
			}
			return len(seen)
		}
		if !slices.Contains(seen, k) {
			seen = append(seen, k)
		}
	}
	return -1
}

// source and target tell whether i starts (ends) a pair of r.
func (x *execution) source(r map[Pair]bool, i int) bool {
	for p := range r {
		if int(p.A) == i {
			return true
		}
	}
	return false
}

func (x *execution) target(r map[Pair]bool, i int) bool {
	for p := range r {
		if int(p.B) == i {
			return true
		}
	}
	return false
}

// spans tells whether a removed event lies between p's events in program
// order, either way.
func (x *execution) spans(p Pair) bool {
	a, b := int(p.A), int(p.B)
	for m := range x.n {
		if !x.kept[m] && (x.po(a, m) && x.po(m, b) || x.po(b, m) && x.po(m, a)) {
			return true
		}
	}
	return false
}
