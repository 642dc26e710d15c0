package eval

import (
	"context"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"sort"
	"sync"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/mcm/internal/predef"
	"github.com/purr-mcm/purr/stdlib"
)

// Model is a Cat model as the engines run it: purr's prelude before it
// and, unless left out, the well-formedness rules of executions after it.
type Model struct {
	Cat      *cat.Model
	Variants []string // enabled model variants
	// SkipWellFormed leaves purr's well-formedness rules out, so that tests
	// can check that an engine's rf and co meet them by themselves.
	SkipWellFormed bool
	// ByConstruction names the well-formedness rules that the engine's
	// candidate executions meet by construction: they are not evaluated
	// (the SAT engine's formula would otherwise carry a gate per triple
	// of writes for "co; co", assigned anew in every execution).
	ByConstruction []string
	// SkipChecks names the checks left out (herd's -skipchecks): they
	// neither filter executions nor raise flags. A check the model leaves
	// unnamed is named by its position (Check.ID).
	SkipChecks []string
}

// Skips tells whether the model leaves out the check of this ID
// (Check.ID).
func (m Model) Skips(id string) bool { return slices.Contains(m.SkipChecks, id) }

// Run evaluates the model over the algebra, on top of the sets and
// relations herd7 predefines for the test (rels["co"] is the co that
// "with co from ..." binds), and returns the model's checks in order. It
// gives up, returning ctx.Err(), when ctx is done.
func Run[L comparable](ctx context.Context, m Model, al *Algebra[L], sets map[string]Set[L], rels map[string]Rel[L]) ([]Check[L], error) {
	checks, _, err := run(ctx, m, al, sets, rels, false)
	return checks, err
}

// Captured is what a model binds and shows, for pictures and listings:
// the sets and relations its top level binds (the prelude's too; those a
// "with x from S" over several elements binds are left out, as they
// differ from branch to branch), and what its show statements select.
type Captured[L comparable] struct {
	Sets  map[string]Set[L]
	Rels  map[string]Rel[L]
	Shown []string // the names shown (show r, show X as r), in order, without the unshown
}

// RunCapturing is Run that also returns what the model binds and shows.
func RunCapturing[L comparable](ctx context.Context, m Model, al *Algebra[L], sets map[string]Set[L], rels map[string]Rel[L]) ([]Check[L], *Captured[L], error) {
	return run(ctx, m, al, sets, rels, true)
}

func run[L comparable](ctx context.Context, m Model, al *Algebra[L], sets map[string]Set[L], rels map[string]Rel[L], capture bool) ([]Check[L], *Captured[L], error) {
	prelude, wf, err := library()
	if err != nil {
		return nil, nil, fmt.Errorf("purr's library: %v", err)
	}
	top, err := predefinedEnv(al, sets, rels)
	if err != nil {
		return nil, nil, err
	}
	ev := &evaluator[L]{ctx: ctx, al: al, variants: map[string]bool{}, included: map[string]bool{}, co: rels["co"], loc: rels["loc"], tagged: sets}
	if capture {
		ev.captured = &Captured[L]{Sets: map[string]Set[L]{}, Rels: map[string]Rel[L]{}}
	}
	for _, v := range m.Variants {
		ev.variants[v] = true
	}
	if _, can := al.lg.(Prefixpoints[L]); can && !capture {
		ev.prefixpoints = modelRecs(prelude, m.Cat)
	}
	sc, err := ev.run(prelude.Stmts, top)
	if err != nil {
		return nil, nil, err
	}
	ev.coValues = map[uintptr]bool{}
	for _, name := range coDerived {
		if v, ok := sc.lookup(name); ok && valueID[L](v) != 0 {
			ev.coValues[valueID[L](v)] = true
		}
	}
	ev.tracking = true
	modelScope, err := ev.run(m.Cat.Stmts, sc)
	ev.tracking = false
	if err != nil {
		return nil, nil, err
	}
	if capture {
		end := modelScope
		if ev.beforeChoice != nil {
			end = ev.beforeChoice
		}
		ev.captureScope(end, top)
	}
	// Only the model's own checks can be skipped, not purr's rules of
	// well-formed executions.
	ev.checks = slices.DeleteFunc(ev.checks, func(c Check[L]) bool { return m.Skips(c.ID()) })
	if !m.SkipWellFormed {
		// The rules see the prelude's names, not the model's, with one
		// exception: the receives that follow the message rules, which a
		// model selects by including msg.cat.
		wfScope := sc
		if v, ok := modelScope.lookup(messageReceives); ok {
			wfScope = sc.child()
			wfScope.set(messageReceives, v)
		}
		rules := slices.DeleteFunc(slices.Clone(wf.Stmts), func(st ast.Stmt) bool {
			c, ok := st.(*ast.Check)
			return ok && slices.Contains(m.ByConstruction, c.Name)
		})
		n := len(ev.checks)
		if _, err := ev.run(rules, wfScope); err != nil {
			return nil, nil, err
		}
		for i := n; i < len(ev.checks); i++ {
			ev.checks[i].WellFormed = true
		}
	}
	return ev.checks, ev.captured, nil
}

// coDerived are the names the engine and the prelude bind to co and to
// relations computed from it.
var coDerived = []string{"co", "fr", "coe", "coi", "fre", "fri"}

// captureScope records the sets and relations bound from sc up to (not
// including) top; an inner binding hides an outer one of the same name.
func (ev *evaluator[L]) captureScope(sc, top *env) {
	seen := map[string]bool{}
	for e := sc; e != nil && e != top; e = e.parent {
		for i, name := range e.names {
			v := e.vals[i]
			if seen[name] {
				continue
			}
			seen[name] = true
			ev.captureValue(name, v, false)
		}
	}
}

// captureValue records a set or relation under name (other values are
// not drawn); over tells whether it replaces an earlier one.
func (ev *evaluator[L]) captureValue(name string, v value, over bool) bool {
	c := ev.captured
	_, isSet := c.Sets[name]
	_, isRel := c.Rels[name]
	if (isSet || isRel) && !over {
		return true
	}
	switch v := v.(type) {
	case Set[L]:
		delete(c.Rels, name)
		c.Sets[name] = v
	case Rel[L]:
		delete(c.Sets, name)
		c.Rels[name] = v
	case emptyVal:
		delete(c.Sets, name)
		c.Rels[name] = Rel[L]{}
	default:
		return false
	}
	return true
}

// show records what a show or unshow statement selects.
func (ev *evaluator[L]) show(st ast.Stmt, sc *env) error {
	c := ev.captured
	if c == nil || ev.choices > 0 {
		return nil
	}
	add := func(name string, v value) {
		if ev.captureValue(name, v, true) && !slices.Contains(c.Shown, name) {
			c.Shown = append(c.Shown, name)
		}
	}
	switch st := st.(type) {
	case *ast.Show:
		for _, name := range st.Names {
			if v, ok := sc.lookup(name); ok {
				add(name, v)
			}
		}
	case *ast.ShowAs:
		v, err := ev.expr(st.X, sc)
		if err != nil {
			return err
		}
		add(st.Name, v)
	case *ast.Unshow:
		c.Shown = slices.DeleteFunc(c.Shown, func(n string) bool { return slices.Contains(st.Names, n) })
	}
	return nil
}

// messageReceives names the set of receives to which the message rules
// of well-formedness apply instead of the memory ones (a receive may get
// nothing, and never gets an initial value): empty in the prelude,
// RECV once a model includes msg.cat.
const messageReceives = "message-receives"

// preludeFile names purr's prelude (stdlib/prelude.cat) in positions.
const preludeFile = "prelude.cat"

// Library files, parsed once.
var (
	libOnce           sync.Once
	libPrelude, libWF *ast.File
	libErr            error
)

func library() (*ast.File, *ast.File, error) {
	prepared := &cat.Cache{Prepared: []fs.FS{stdlib.FS}}
	libOnce.Do(func() {
		read := func(name string) *ast.File {
			src, err := stdlib.FS.ReadFile(name)
			if err != nil {
				libErr = err
				return nil
			}
			f, err := prepared.Parse(name, src)
			if err != nil {
				libErr = err
			}
			return f
		}
		libPrelude = read(preludeFile)
		libWF = read("wellformed.cat")
	})
	return libPrelude, libWF, libErr
}

// CheckNames sets l to refuse, when it loads a model, the names that
// purr's engines would find unbound running it: l's Predefined are the
// names of predef's table, its Prelude purr's prelude, and the with
// statements the evaluator carries out itself are its NativeWith.
func CheckNames(l *cat.Loader) error {
	prelude, _, err := library()
	if err != nil {
		return fmt.Errorf("purr's library: %v", err)
	}
	l.Predefined, l.Prelude, l.NativeWith = predef.Kinds(), prelude.Stmts, isCoGeneration
	return nil
}

// predefinedNames is predef's table, read once.
var predefinedNames = predef.Table()

// predefinedScope is the names of predefinedNames in their scope's order
// (each once) and their index, which every test's scope of predefined
// names shares (see env.shared).
var predefinedScope = func() (s struct {
	names []string
	index map[string]int
	tags  int // the tags among them
}) {
	s.index = map[string]int{}
	for _, e := range predefinedNames {
		if e.Tag {
			s.tags++
		}
		if _, dup := s.index[e.Name]; !dup {
			s.index[e.Name] = len(s.names)
			s.names = append(s.names, e.Name)
		}
	}
	return s
}()

// predefinedEnv binds the names of predef's table: the builtin functions,
// and the sets and relations an engine computed for a test (sets holds a
// tag's set only when some event carries the tag; the others are empty).
// Only the table's names are bound, so a model sees the same names in
// both engines and in the resolver.
func predefinedEnv[L comparable](al *Algebra[L], sets map[string]Set[L], rels map[string]Rel[L]) (*env, error) {
	fns := builtinValues[L]()
	top := &env{names: predefinedScope.names, vals: make([]value, len(predefinedScope.names)),
		index: predefinedScope.index, shared: true}
	var blank Set[L] // the empty sets of the tags no event carries, cut from one allocation
	for _, e := range predefinedNames {
		var v value
		switch e.Kind {
		case cat.KindFunction:
			if fn, ok := fns[e.Name]; ok {
				v = fn
			}
		case cat.KindSet:
			if s, ok := sets[e.Name]; ok {
				v = s
			} else if e.Tag {
				n := al.n()
				if len(blank) < n {
					blank = make(Set[L], predefinedScope.tags*n)
					for i := range blank {
						blank[i] = al.f
					}
				}
				v, blank = blank[:n:n], blank[n:]
			}
		case cat.KindRelation:
			if r, ok := rels[e.Name]; ok {
				v = r
			}
		}
		if v == nil {
			return nil, fmt.Errorf("purr: the engine has no meaning for the predefined %s %s", e.Kind, e.Name)
		}
		top.vals[top.index[e.Name]] = v
	}
	return top, nil
}

// lastRecs is monotoneRecs of the last model run: a batch runs one model
// on every test, and the analysis reads the model's statements only.
var lastRecs struct {
	sync.Mutex
	model *cat.Model
	recs  map[*ast.Binding]bool
}

// modelRecs is monotoneRecs of the prelude and the model, read-only.
func modelRecs(prelude *ast.File, m *cat.Model) map[*ast.Binding]bool {
	lastRecs.Lock()
	defer lastRecs.Unlock()
	if lastRecs.model != m {
		lastRecs.model, lastRecs.recs = m, monotoneRecs(prelude.Stmts, m.Stmts)
	}
	return lastRecs.recs
}

// builtinCache holds builtinValues' maps, by the type of their literals.
var builtinCache sync.Map

// builtinValues returns the builtin functions as values, by name: made
// once per type of literals, as they hold nothing of a test.
func builtinValues[L comparable]() map[string]value {
	key := reflect.TypeFor[L]()
	if m, ok := builtinCache.Load(key); ok {
		return m.(map[string]value)
	}
	m := map[string]value{}
	for name, fn := range builtins[L]() {
		m[name] = &builtin[L]{name: name, fn: fn}
	}
	builtinCache.Store(key, m)
	return m
}

// BuiltinNames are the names of the functions the evaluator predefines.
func BuiltinNames() []string {
	var out []string
	for name := range builtins[bool]() {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
