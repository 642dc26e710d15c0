package eval

import (
	"maps"
	"slices"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/mcm/internal/predef"
)

// ImpliesAcyclicPoRf tells whether every execution the model accepts has
// po ∪ rf acyclic, by a check the model states: a required (not a flag,
// not skipped, not under an `if` the model's variants leave undecided)
// `acyclic X` whose X certainly contains po and rf (or rfe and rfi both),
// through unions, intersections, closures and let-bound names (sb, com,
// hb). Anything else, a function, a procedure's check, a fixpoint, counts
// as containing neither, so false may be a model that implies it
// semantically (TSO's "ppo | rfe | ...", which leaves po's write-read
// pairs out): the answer is sound, not complete.
//
// Telling whether a bound is enough (mcm's cutReachable) needs it: a
// consistent execution that goes past the bound then has a thread whose
// events up to its cut depend on nothing past a cut.
func ImpliesAcyclicPoRf(m Model) bool {
	found := false
	certainChecks(m, nil, func(x *contents) {
		found = found || x.has(atomPo) && x.hasRf()
	})
	return found
}

// coherentWrites tells whether the model requires a relation that
// certainly contains po-loc and co to be acyclic: a consistent
// execution's coi then never goes against po.
func coherentWrites(m Model) bool {
	found := false
	certainChecks(m, nil, func(x *contents) {
		found = found || (x.has(atomPo) || x.has(atomPoLoc)) && x.has(atomCo)
	})
	return found
}

// CoherentWrites tells whether a thread's write to a location is
// co-before its later writes to it in every consistent execution:
// coherentWrites, or a required irreflexive X; Y where X certainly
// contains po or po-loc and Y co (or the other way round), as RC11's
// irreflexive hb; eco?.
func CoherentWrites(m Model) bool {
	if coherentWrites(m) {
		return true
	}
	found := false
	certainIrreflexiveSeqs(m, func(x, y *contents) {
		po := func(c *contents) bool { return c.has(atomPo) || c.has(atomPoLoc) }
		found = found || po(x) && y.has(atomCo) || x.has(atomCo) && po(y)
	})
	return found
}

// ReadsOwnLatest tells whether, in every execution the model accepts, a
// thread's read of a location that no other thread accesses reads the
// thread's latest write to it before the read in program order, or the
// initial write when there is none: po; rf, po; co and po; fr are each
// irreflexive by a required check, an acyclic X where X certainly
// contains po (or po-loc) and the other, or an irreflexive X; Y where X
// certainly contains one and Y the other (RC11's hb; eco?, or C11's Rf
// and Coh). A read from a write after it would make po; rf cyclic, and
// one from a write co-before the latest (the initial write is co-before
// every other) po; fr, or po; co when the latest is co-before it.
func ReadsOwnLatest(m Model) bool {
	var covered [3]bool // po against rf, co, fr
	po := func(c *contents) bool { return c.has(atomPo) || c.has(atomPoLoc) }
	cover := func(x, y *contents) {
		if po(x) {
			for i, ok := range [3]bool{y.hasRf(), y.has(atomCo), y.has(atomFr)} {
				covered[i] = covered[i] || ok
			}
		}
	}
	certainChecks(m, nil, func(x *contents) { cover(x, x) })
	certainIrreflexiveSeqs(m, func(x, y *contents) {
		cover(x, y)
		cover(y, x)
	})
	return covered == [3]bool{true, true, true}
}

// coherent tells whether the model requires a relation that certainly
// contains po-loc, rf, co and fr to be acyclic (SC per location): in a
// consistent execution, rf, co and fr never go against po between the
// events of one thread.
func coherent(m Model) bool {
	found := false
	certainChecks(m, nil, func(x *contents) {
		found = found || (x.has(atomPo) || x.has(atomPoLoc)) && x.has(atomCo) && x.has(atomFr) && x.hasRf()
	})
	return found
}

// EventClass is what a model can know of an event from the program
// alone: whether it reads, writes or is a fence, and its tags.
type EventClass struct {
	Kind byte // 'R', 'W' or 'F'
	Tags []string
	// Own, for accesses (FlagsSilent): 1 + the index of the one thread
	// that accesses their location (no other thread's access or lock
	// mark is ever there); 0 when not known.
	Own int
}

// ReadWriteOrder is what one of a model's required `acyclic O` checks
// orders, in every execution, of a program whose events fall in given
// classes (indexes into them): a pair of program order from a read of
// class r to a write of class w is in O when Po[{r, w}]; when it is a
// control, data or address dependency and Ctrl, Data or Addr holds
// {r, w}; when a fence of class f lies between them and Fence[{r, f, w}].
type ReadWriteOrder struct {
	Check                string // the check's name, or its position
	Po, Ctrl, Data, Addr map[[2]int]bool
	Fence                map[[3]int]bool
	// PickCtrl, PickData, PickAddr hold {r, w} when O holds the pairs of
	// the pick dependencies (a choice's condition on the way); Rmw when
	// it holds those of amo, the read-modify-write pairs of one
	// instruction (rmw holds them too); PoLoc when it holds the pairs of
	// program order between accesses to one location.
	PickCtrl, PickData, PickAddr, Rmw, PoLoc map[[2]int]bool
}

// ReadWriteOrders lists the model's required acyclic checks whose
// relation O certainly contains rfe, each with what it orders of the
// classes' read-write pairs, when the model also requires a relation
// that certainly contains po-loc and rf to be acyclic (no read reads
// from a write po-after it); none otherwise. What a relation certainly
// contains is found as ImpliesAcyclicPoRf finds it, through sequences
// too ([A | Q]; po, po; [DMB.full]; po, ctrl; [W]) and the sets the
// events' tags decide: sound, not complete.
//
// With it po ∪ rf is acyclic in every consistent execution of a program
// every read-write pair of program order of which O orders: a cycle of
// po ∪ rf, its rfi in po, alternates segments of po, each from a read
// (where an rfe arrives) to a write (where the next leaves), with rfe, so
// it would be a cycle of O.
func ReadWriteOrders(m Model, classes []EventClass) []ReadWriteOrder {
	if len(classes) > maxClasses {
		return nil
	}
	internal := false
	var out []ReadWriteOrder
	a := &porf{model: m, classes: classes, coherent: coherent(m)}
	a.found = func(x *contents) {
		internal = internal || (x.has(atomPo) || x.has(atomPoLoc)) && (x.has(atomRf) || x.has(atomRfi))
		if !x.has(atomRf) && !x.has(atomRfe) && !x.holdsRfe(classes) {
			return
		}
		o := ReadWriteOrder{Check: x.check, Po: map[[2]int]bool{}, Ctrl: map[[2]int]bool{},
			Data: map[[2]int]bool{}, Addr: map[[2]int]bool{}, Fence: map[[3]int]bool{},
			PickCtrl: map[[2]int]bool{}, PickData: map[[2]int]bool{}, PickAddr: map[[2]int]bool{}, Rmw: map[[2]int]bool{},
			PoLoc: map[[2]int]bool{}}
		for f := range x.pairs {
			k := [2]int{f.from, f.to}
			switch f.kind {
			case famPo:
				o.Po[k] = true
				o.PoLoc[k] = true
			case famPoLoc:
				o.PoLoc[k] = true
			case famCtrl:
				o.Ctrl[k] = true
			case famData:
				o.Data[k] = true
			case famAddr:
				o.Addr[k] = true
			case famVia:
				o.Fence[[3]int{f.from, f.via, f.to}] = true
			case famPickCtrl:
				o.PickCtrl[k] = true
			case famPickData:
				o.PickData[k] = true
			case famPickAddr:
				o.PickAddr[k] = true
			case famRmw:
				o.Rmw[k] = true
			}
		}
		out = append(out, o)
	}
	runCertain(a)
	if !internal {
		return nil
	}
	return out
}

// maxClasses bounds the classes a set's bits hold.
const maxClasses = 64

// certainChecks calls found with what the relation of each of the
// model's required acyclic checks certainly contains, for a program whose
// events fall in classes (contents.check names the check).
func certainChecks(m Model, classes []EventClass, found func(*contents)) {
	runCertain(&porf{model: m, classes: classes, found: found})
}

// certainIrreflexiveSeqs calls found with what the two sides of each of
// the model's required irreflexive checks of a sequence X; Y certainly
// contain: no pair of X comes back to its start by a pair of Y.
func certainIrreflexiveSeqs(m Model, found func(x, y *contents)) {
	runCertain(&porf{model: m, foundSeq: found})
}

// runCertain runs the prelude and the model for a's callbacks.
func runCertain(a *porf) {
	prelude, _, err := library()
	if err != nil {
		return
	}
	m := a.model
	a.variants, a.included = map[string]bool{}, map[string]bool{}
	for _, v := range m.Variants {
		a.variants[v] = true
	}
	env := a.predefined()
	a.run(prelude.Stmts, env, false)
	// The prelude's rf & ext and rf & int, which together are rf.
	env["rfe"], env["rfi"] = a.rfe(), &contents{atoms: 1 << atomRfi}
	a.run(m.Cat.Stmts, env, true)
}

// Atoms are the whole predefined relations (and po & loc) a value
// certainly contains, as bits of contents.atoms.
const (
	atomPo = iota
	atomRf
	atomRfe
	atomRfi
	atomLoc
	atomPoLoc
	atomCo
	atomFr
	atomAccessID // every read and write with itself
	atomRfInv    // rf^-1, which rf^-1; co makes fr (herd's rc11.cat's rb)
)

// famKind is a family of pairs of classified events: famID, the identity
// on class from (= to); famPo, every pair of program order from class
// from to class to; famCtrl, famData, famAddr, those of ctrl, data and
// addr; famVia, those of program order with a fence of class via between;
// famRfe, those of rfe; famPick*, those of the pick dependencies.
type famKind int8

const (
	famID famKind = iota
	famPo
	famCtrl
	famData
	famAddr
	famVia
	famRfe // those of rfe (not in po)
	// famPickCtrl, famPickData, famPickAddr: those of the pick
	// dependencies (a choice's condition on the way, as a CSEL's).
	famPickCtrl
	famPickData
	famPickAddr
	famRmw // those of amo: the read and write of one atomic instruction
	// famPoLoc: those of program order between accesses to one location
	// (po & loc; in a coherent model, fr and co hold those from reads
	// and writes to writes).
	famPoLoc
)

type family struct {
	kind          famKind
	from, to, via int
}

// contents is what a value certainly holds: as a relation, atoms and
// families of pairs; as a set, the classes certainly in it and those
// certainly out of it (bits by class index).
type contents struct {
	atoms   uint64
	pairs   map[family]bool
	in, out uint64
	check   string   // certainChecks: the check it is the relation of
	may     *mayHold // FlagsSilent: what it may hold (nil: anything)
	// fun is a function a let binds (not recursive), with the names of
	// its definition, which a call evaluates its body with.
	fun     *ast.Fun
	closure map[string]*contents
}

func (x *contents) has(atom int) bool { return x != nil && x.atoms&(1<<atom) != 0 }

// holdsRfe tells whether x holds every pair of rfe from a write to a read
// of the classes (a model that restricts its order to some events, the
// kernel's [Marked]; ...; [Marked], for a program all of whose accesses
// are in it).
func (x *contents) holdsRfe(classes []EventClass) bool {
	for i, w := range classes {
		for j, r := range classes {
			if w.Kind == 'W' && r.Kind == 'R' && !x.pairs[family{kind: famRfe, from: i, to: j}] {
				return false
			}
		}
	}
	return true
}

func (x *contents) hasRf() bool {
	return x.has(atomRf) || x.has(atomRfe) && x.has(atomRfi)
}

type porf struct {
	model       Model
	variants    map[string]bool
	included    map[string]bool // as the evaluator, a file at most once
	classes     []EventClass
	coherent    bool // the model keeps each location SC (coherent): fr and co hold po-loc's pairs to writes
	found       func(*contents)
	foundSeq    func(x, y *contents) // certainIrreflexiveSeqs's
	mayAnalysis bool                 // FlagsSilent: find what values may hold, and flags that may be raised (loud)
	loud        bool
}

// all is the set of the classes of accesses and fences, whose kinds the
// base sets decide; kinds those of the given kinds.
func (a *porf) all() uint64 { return a.kinds("RWF") }

// every is the set of every class, whatever its kind.
func (a *porf) every() uint64 { return uint64(1)<<len(a.classes) - 1 }

func (a *porf) kinds(ks string) uint64 {
	var s uint64
	for i, c := range a.classes {
		for j := range len(ks) {
			if c.Kind == ks[j] {
				s |= 1 << i
			}
		}
	}
	return s
}

// predefined binds the predefined names to what they certainly hold: the
// sets the classes decide, the relations whose pairs the families name.
func (a *porf) predefined() map[string]*contents {
	env := map[string]*contents{}
	all := a.all()
	kindSet := func(ks string) *contents {
		in := a.kinds(ks)
		return &contents{in: in, out: all &^ in}
	}
	base := map[string]*contents{"_": {in: a.every()}, "R": kindSet("R"), "W": kindSet("W"),
		"M": kindSet("RW"), "Exp": kindSet("RW"), "F": kindSet("F"), "IW": kindSet("I"), "I": kindSet("I")}
	fams := func(k famKind, from uint64) *contents {
		x := &contents{pairs: map[family]bool{}}
		for i := range a.classes {
			for j := range a.classes {
				if from&(1<<i) != 0 {
					x.pairs[family{kind: k, from: i, to: j}] = true
				}
			}
		}
		return x
	}
	for _, e := range predef.Table() {
		var v *contents
		switch {
		case e.Kind == cat.KindSet && base[e.Name] != nil:
			v = base[e.Name]
		case e.Kind == cat.KindSet && e.Tag && !slices.Contains(baseSetNames, e.Name):
			v = a.tagged(e.Name)
		case e.Name == "po":
			v = fams(famPo, all)
			v.atoms = 1 << atomPo
		case e.Name == "ctrl":
			v = fams(famCtrl, a.kinds("R"))
		case e.Name == "data":
			v = fams(famData, a.kinds("R"))
		case e.Name == "addr":
			v = fams(famAddr, a.kinds("R"))
		case e.Name == "pick-ctrl-dep":
			v = either(fams(famPickCtrl, a.kinds("R")), fams(famCtrl, a.kinds("R"))) // they include the plain ones
		case e.Name == "pick-data-dep":
			v = either(fams(famPickData, a.kinds("R")), fams(famData, a.kinds("R")))
		case e.Name == "pick-addr-dep":
			v = either(fams(famPickAddr, a.kinds("R")), fams(famAddr, a.kinds("R")))
		case e.Name == "rmw", e.Name == "amo":
			v = fams(famRmw, a.kinds("R"))
		case e.Name == "id":
			v = &contents{atoms: 1 << atomAccessID, pairs: a.identity(all)}
		case e.Name == "rf":
			v = a.rfe()
			v.atoms = 1 << atomRf
		case e.Name == "ext":
			// Every pair of rf between threads: the rf & ext a model
			// names rfe (the kernel's lock.cat, after its own rf).
			v = a.rfe()
			v.atoms = 0
		case e.Name == "loc":
			v = &contents{atoms: 1 << atomLoc}
		case e.Name == "co":
			v = &contents{atoms: 1 << atomCo, pairs: a.poLocIf(a.coherent, "W")}
		case e.Name == "fr":
			v = &contents{atoms: 1 << atomFr, pairs: a.poLocIf(a.coherent, "R")}
		case e.Name == "int":
			// Every pair of program order, either way, and each event with
			// itself.
			v = fams(famPo, a.every())
			v.atoms = 1 << atomAccessID
			maps.Copy(v.pairs, a.identity(a.all()))
		case e.Kind != cat.KindSet && predef.Reflexive(e.Name):
			// Every access with itself (herd's sm, same-instr, ...):
			// rf; sm holds rf.
			v = &contents{atoms: 1 << atomAccessID, pairs: a.identity(a.kinds("RW"))}
		}
		if a.mayAnalysis {
			v = withMay(v, a.predefinedMay(e))
		}
		if _, bound := env[e.Name]; !bound || v != nil {
			env[e.Name] = v
		}
	}
	return env
}

// poLocIf is, when cond, the pairs of program order between accesses to
// one location from the classes of the given kinds to the writes: in a
// coherent execution a read is fr-before, and a write co-before, the
// writes po-after it at its location (against po, fr or co with po-loc
// would close a cycle of the coherence check).
func (a *porf) poLocIf(cond bool, from string) map[family]bool {
	out := map[family]bool{}
	if !cond {
		return out
	}
	src, dst := a.kinds(from), a.kinds("W")
	for i := range a.classes {
		for j := range a.classes {
			if src&(1<<i) != 0 && dst&(1<<j) != 0 {
				out[family{kind: famPoLoc, from: i, to: j}] = true
			}
		}
	}
	return out
}

// tagged is the set of the events carrying a tag: the classes whose
// tags hold it, and not the others but those that may carry any.
func (a *porf) tagged(name string) *contents {
	v := &contents{}
	for i, c := range a.classes {
		switch {
		case slices.Contains(c.Tags, name):
			v.in |= 1 << i
		case c.Kind != 'O':
			v.out |= 1 << i
		}
	}
	if a.mayAnalysis {
		v.may = &mayHold{set: v.in | a.kinds("O")}
	}
	return v
}

// rfe is what rfe certainly holds: its pairs from every class of writes
// to every class of reads.
func (a *porf) rfe() *contents {
	x := &contents{atoms: 1 << atomRfe, pairs: map[family]bool{}}
	for i, w := range a.classes {
		for j, r := range a.classes {
			if w.Kind == 'W' && r.Kind == 'R' {
				x.pairs[family{kind: famRfe, from: i, to: j}] = true
			}
		}
	}
	return x
}

// baseSetNames are the predefined sets an engine computes (RMW among
// them, a tag too): what the tags decide of them is not all.
var baseSetNames = []string{"_", "W", "R", "M", "Exp", "F", "IW", "I", "FW", "B", "RMW"}

func (a *porf) identity(s uint64) map[family]bool {
	out := map[family]bool{}
	for i := range a.classes {
		if s&(1<<i) != 0 {
			out[family{kind: famID, from: i, to: i}] = true
		}
	}
	return out
}

// run walks statements, binding names in env, and calls found with each
// required acyclic check's relation (when model: the prelude's checks are
// no model's).
func (a *porf) run(stmts []ast.Stmt, env map[string]*contents, model bool) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Let:
			a.bind(st.Rec, st.Bindings, env)
		case *ast.Check:
			switch {
			case model && a.mayAnalysis && (st.Mode == ast.Flag || st.Mode == ast.UndefinedUnless):
				a.flag(st, env)
			case model:
				a.check(st, env)
			}
		case *ast.Include:
			if st.Resolved != "" && !a.included[st.Resolved] {
				a.included[st.Resolved] = true
				a.run(st.Stmts, env, model)
			}
		case *ast.IfVariant:
			switch then, decided := a.cond(st.Cond); {
			case decided && then:
				a.run(st.Then, env, model)
			case decided:
				a.run(st.Else, env, model)
			default:
				a.loud = a.loud || model && (HasFlags(st.Then) || HasFlags(st.Else))
				a.forget(st.Then, env)
				a.forget(st.Else, env)
			}
		case *ast.Procedure:
			a.loud = a.loud || model && HasFlags(st.Body)
		case *ast.Forall:
			a.loud = a.loud || model && HasFlags(st.Body)
		case *ast.With:
			env[st.Var] = nil
			if isCoGeneration(st) {
				// purr binds the engines' co, which extends the base (a
				// model's own generate_cos is refused when it runs).
				env[st.Var] = &contents{atoms: 1 << atomCo}
			}
		case *ast.Enum:
			// A bell's tags: the set of each is the events carrying it, as
			// the engines bind them.
			env[st.Name] = nil
			for _, t := range st.Tags {
				name := ast.TagSet(t)
				env[name] = nil
				if !slices.Contains(baseSetNames, name) {
					env[name] = a.tagged(name)
				}
			}
		case *ast.MatchStmt:
			// Which arm runs depends on the test: what they bind is unknown.
			a.loud = a.loud || model && HasFlags([]ast.Stmt{st})
			for _, c := range st.Clauses {
				a.forget(c.Body, env)
			}
			a.forget(st.Default, env)
		}
		// Procedures, calls and forall bind nothing outside their bodies;
		// their checks are not followed.
	}
}

// check reports a required acyclic check's relation to found, and the
// two sides of a required irreflexive X; Y to foundSeq.
func (a *porf) check(c *ast.Check, env map[string]*contents) {
	if c.Mode != ast.Require || c.Negated {
		return
	}
	id := c.Name
	if id == "" {
		id = c.Pos.String() // as Check.ID names an unnamed check
	}
	if a.model.Skips(id) {
		return
	}
	if seq, ok := c.X.(*ast.Binary); ok && seq.Op == ast.Seq && c.Kind == ast.Irreflexive && a.foundSeq != nil {
		// S1; ...; Sn is irreflexive as its rotations are: each split
		// into S1..Sk and Sk+1..Sn is one X; Y.
		parts := seqParts(seq)
		for k := 1; k < len(parts); k++ {
			if x, y := a.seqContents(parts[:k], env), a.seqContents(parts[k:], env); x != nil && y != nil {
				a.foundSeq(x, y)
			}
		}
	}
	if c.Kind != ast.Acyclic || a.found == nil {
		return
	}
	x := a.contents(c.X, env)
	if x == nil {
		return
	}
	found := *x
	found.check = id
	a.found(&found)
}

// seqParts lists the operands of a sequence, nested sequences flattened.
func seqParts(x ast.Expr) []ast.Expr {
	if seq, ok := x.(*ast.Binary); ok && seq.Op == ast.Seq {
		return append(seqParts(seq.X), seqParts(seq.Y)...)
	}
	return []ast.Expr{x}
}

// seqContents is what the sequence of parts certainly holds; nil,
// nothing.
func (a *porf) seqContents(parts []ast.Expr, env map[string]*contents) *contents {
	out := a.contents(parts[0], env)
	for _, p := range parts[1:] {
		y := a.contents(p, env)
		if out == nil || y == nil {
			return nil
		}
		out = a.seq(out, y)
	}
	return out
}

// bind binds a let's names to what their values contain: nothing known of
// a recursive definition (a fixpoint may start empty) or of a pattern.
func (a *porf) bind(rec bool, bs []*ast.Binding, env map[string]*contents) {
	for _, b := range bs {
		var v *contents
		if fun, ok := b.Value.(*ast.Fun); ok && !rec && len(b.Names) == 1 {
			v = &contents{fun: fun, closure: maps.Clone(env)}
		} else if !rec && len(b.Names) == 1 {
			v = a.contents(b.Value, env)
			if a.mayAnalysis {
				v = withMay(v, a.upper(b.Value, env))
			}
		}
		for _, n := range b.Names {
			env[n] = v
		}
	}
	if rec && a.mayAnalysis {
		a.recMay(bs, env)
	}
}

// recMay gives a let rec's names what they may hold: the least fixpoint
// of their definitions, iterated from nothing in the finite lattice of
// classes; anything when it does not settle or a name is a tuple.
func (a *porf) recMay(bs []*ast.Binding, env map[string]*contents) {
	for _, b := range bs {
		if _, fun := b.Value.(*ast.Fun); fun || len(b.Names) != 1 {
			return
		}
		env[b.Names[0]] = withMay(nil, &mayHold{})
	}
	for range 20 {
		stable := true
		for _, b := range bs {
			old := env[b.Names[0]].may
			next := old.union(a.upper(b.Value, env))
			if !next.same(old) {
				stable = false
				env[b.Names[0]] = withMay(nil, next)
			}
		}
		if stable {
			return
		}
	}
	for _, b := range bs {
		env[b.Names[0]] = withMay(nil, anything)
	}
}

// contents says what x certainly holds; nil, nothing.
func (a *porf) contents(x ast.Expr, env map[string]*contents) *contents {
	switch x := x.(type) {
	case *ast.Var:
		return env[x.Name]
	case *ast.Universe:
		return &contents{in: a.every()}
	case *ast.Binary:
		l, r := a.contents(x.X, env), a.contents(x.Y, env)
		if l == nil || r == nil {
			if x.Op == ast.Union {
				return either(l, r)
			}
			return nil
		}
		switch x.Op {
		case ast.Union:
			return either(l, r)
		case ast.Inter:
			return a.both(l, r)
		case ast.Diff:
			if id, ok := x.Y.(*ast.Var); ok && id.Name == "id" && env["id"].has(atomAccessID) {
				return a.withoutID(l)
			}
			return &contents{in: l.in & r.out, out: l.out | r.in}
		case ast.Seq:
			return a.seq(l, r)
		case ast.Cartesian:
			out := &contents{pairs: map[family]bool{}}
			for i := range a.classes {
				for j := range a.classes {
					if l.in&(1<<i) != 0 && r.in&(1<<j) != 0 {
						out.pairs[family{kind: famPo, from: i, to: j}] = true
					}
				}
			}
			return out
		}
	case *ast.Unary:
		v := a.contents(x.X, env)
		if v == nil {
			return nil
		}
		switch x.Op {
		case ast.Plus:
			return &contents{atoms: v.atoms, pairs: v.pairs}
		case ast.Star, ast.Opt:
			return either(&contents{atoms: v.atoms, pairs: v.pairs}, &contents{atoms: 1 << atomAccessID, pairs: a.identity(a.all())})
		case ast.Compl:
			return &contents{in: v.out, out: v.in}
		case ast.ToID:
			return &contents{pairs: a.identity(v.in)}
		case ast.Inverse:
			if v.has(atomRf) {
				return &contents{atoms: 1 << atomRfInv}
			}
		}
	case *ast.App:
		if body, inner := a.call(x, env); body != nil {
			return a.contents(body, inner)
		}
	case *ast.LetIn:
		inner := maps.Clone(env)
		a.bind(x.Rec, x.Bindings, inner)
		return a.contents(x.Body, inner)
	case *ast.IfExpr:
		switch holds, decided := a.cond(x.Cond); {
		case decided && holds:
			return a.contents(x.Then, env)
		case decided:
			return a.contents(x.Else, env)
		}
		return meet(a.contents(x.Then, env), a.contents(x.Else, env))
	case *ast.Try:
		return meet(a.contents(x.X, env), a.contents(x.Fallback, env))
	}
	return nil
}

// call is a call of a function a let bound: its body, and the names it
// sees, its parameters bound to the arguments' values; nil for a call of
// anything else (a builtin, a parameter) or with other arguments.
func (a *porf) call(x *ast.App, env map[string]*contents) (ast.Expr, map[string]*contents) {
	f := a.contents(x.Fun, env)
	if f == nil || f.fun == nil {
		return nil, nil
	}
	args := []ast.Expr{x.Arg}
	if t, ok := x.Arg.(*ast.Tuple); ok && len(f.fun.Params) != 1 {
		args = t.Elems
	}
	if len(args) != len(f.fun.Params) {
		return nil, nil
	}
	inner := maps.Clone(f.closure)
	for i, p := range f.fun.Params {
		v := a.contents(args[i], env)
		if a.mayAnalysis {
			v = withMay(v, a.upper(args[i], env))
		}
		inner[p] = v
	}
	return f.fun.Body, inner
}

// withMay is a copy of v (nil: nothing certain) that may hold may: v
// may be another name's value, which stays as it is.
func withMay(v *contents, may *mayHold) *contents {
	var c contents
	if v != nil {
		c = *v
	}
	c.may = may
	return &c
}

// either is a union's contents.
func either(x, y *contents) *contents {
	if x == nil {
		x = &contents{}
	}
	if y == nil {
		y = &contents{}
	}
	out := &contents{atoms: x.atoms | y.atoms, pairs: maps.Clone(x.pairs), in: x.in | y.in, out: x.out & y.out}
	if out.pairs == nil {
		out.pairs = map[family]bool{}
	}
	maps.Copy(out.pairs, y.pairs)
	return out
}

// meet is what both of two values certainly hold, one or the other
// (the branches of an if).
func meet(x, y *contents) *contents {
	if x == nil || y == nil {
		return nil
	}
	out := &contents{atoms: x.atoms & y.atoms, pairs: map[family]bool{}, in: x.in & y.in, out: x.out & y.out}
	for f := range x.pairs {
		if y.pairs[f] {
			out.pairs[f] = true
		}
	}
	return out
}

// both is an intersection's contents: po's families hold ctrl's, data's,
// addr's and the fenced ones; po and loc make po-loc.
func (a *porf) both(x, y *contents) *contents {
	out := &contents{atoms: x.atoms & y.atoms, pairs: map[family]bool{}, in: x.in & y.in, out: x.out | y.out}
	inPo := func(f family, z *contents) bool {
		return z.pairs[f] || f.kind != famID && f.kind != famRfe && z.pairs[family{kind: famPo, from: f.from, to: f.to}]
	}
	// po-loc's pairs are in loc too; po's with loc are po-loc's.
	withLoc := func(f family, z *contents) bool {
		return z.has(atomLoc) && (f.kind == famPoLoc || f.kind == famID)
	}
	for f := range x.pairs {
		if inPo(f, y) || withLoc(f, y) {
			out.pairs[f] = true
		}
		if f.kind == famPo && (y.has(atomLoc) || y.pairs[family{kind: famPoLoc, from: f.from, to: f.to}]) {
			out.pairs[family{kind: famPoLoc, from: f.from, to: f.to}] = true
		}
	}
	for f := range y.pairs {
		if inPo(f, x) || withLoc(f, x) {
			out.pairs[f] = true
		}
		if f.kind == famPo && (x.has(atomLoc) || x.pairs[family{kind: famPoLoc, from: f.from, to: f.to}]) {
			out.pairs[family{kind: famPoLoc, from: f.from, to: f.to}] = true
		}
	}
	if (x.has(atomPo) || x.has(atomPoLoc)) && (y.has(atomLoc) || y.has(atomPoLoc)) ||
		(y.has(atomPo) || y.has(atomPoLoc)) && (x.has(atomLoc) || x.has(atomPoLoc)) {
		out.atoms |= 1 << atomPoLoc
	}
	return out
}

// seq is a sequence's contents: identities restrict a family's ends, and
// two pairs of program order through a fence make a fenced pair; a
// relation between accesses keeps its atoms through the identity on
// every access (herd's sc.cat: (fr | rf | co); sm).
func (a *porf) seq(x, y *contents) *contents {
	out := &contents{pairs: map[family]bool{}}
	const betweenAccesses = 1<<atomRf | 1<<atomRfe | 1<<atomRfi | 1<<atomCo | 1<<atomFr | 1<<atomPoLoc
	if a.identityOnAccesses(y) {
		out.atoms |= x.atoms & betweenAccesses
	}
	if a.identityOnAccesses(x) {
		out.atoms |= y.atoms & betweenAccesses
	}
	if x.has(atomRfInv) && y.has(atomCo) {
		out.atoms |= 1 << atomFr // fr is (rf^-1; co) \ id
	}
	for f := range x.pairs {
		for g := range y.pairs {
			if f.to != g.from {
				continue
			}
			switch {
			case f.kind == famID:
				out.pairs[g] = true
			case g.kind == famID:
				out.pairs[f] = true
			case f.kind == famPo && g.kind == famPo && a.classes[f.to].Kind == 'F':
				out.pairs[family{kind: famVia, from: f.from, to: g.to, via: f.to}] = true
			}
		}
	}
	return out
}

// withoutID is what x \ id certainly holds: x's whole relations, which
// are irreflexive, but loc and the identity, and its families of program
// order, whose events differ (not rmw's: herd's C builds a
// read-modify-write as one event).
func (a *porf) withoutID(x *contents) *contents {
	out := &contents{atoms: x.atoms &^ (1<<atomLoc | 1<<atomAccessID), pairs: map[family]bool{}}
	for f := range x.pairs {
		if f.kind == famPo || f.kind == famVia || f.kind == famPoLoc {
			out.pairs[f] = true
		}
	}
	return out
}

// identityOnAccesses tells whether x certainly holds every read and
// write with itself (classes known: without them nothing is certain of
// a class).
func (a *porf) identityOnAccesses(x *contents) bool {
	if x.has(atomAccessID) || x.has(atomLoc) {
		return true
	}
	if x == nil || len(a.classes) == 0 {
		return false
	}
	for i := range a.classes {
		if a.kinds("RW")&(1<<i) != 0 && !x.pairs[family{kind: famID, from: i, to: i}] {
			return false
		}
	}
	return true
}

// cond decides an if's condition by the model's variants; decided is
// false when it compares values, which depend on the test.
func (a *porf) cond(c ast.Cond) (holds, decided bool) {
	switch c := c.(type) {
	case *ast.Variant:
		return a.variants[c.Name], true
	case *ast.Not:
		x, ok := a.cond(c.X)
		return !x, ok
	case *ast.And:
		x, okx := a.cond(c.X)
		y, oky := a.cond(c.Y)
		switch {
		case okx && !x, oky && !y:
			return false, true
		}
		return x && y, okx && oky
	case *ast.Or:
		x, okx := a.cond(c.X)
		y, oky := a.cond(c.Y)
		switch {
		case okx && x, oky && y:
			return true, true
		}
		return x || y, okx && oky
	}
	return false, false
}

// forget unbinds, as unknown, the names that statements which may or may
// not run bind.
func (a *porf) forget(stmts []ast.Stmt, env map[string]*contents) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Let:
			for _, b := range st.Bindings {
				for _, n := range b.Names {
					env[n] = nil
				}
			}
		case *ast.With:
			env[st.Var] = nil
		case *ast.Enum:
			env[st.Name] = nil
			for _, t := range st.Tags {
				env[ast.TagSet(t)] = nil
			}
		case *ast.Include:
			// Whether the evaluator includes the file here or later is
			// unknown: a later include is not followed either.
			a.included[st.Resolved] = true
			a.forget(st.Stmts, env)
		case *ast.IfVariant:
			a.forget(st.Then, env)
			a.forget(st.Else, env)
		case *ast.MatchStmt:
			for _, c := range st.Clauses {
				a.forget(c.Body, env)
			}
			a.forget(st.Default, env)
		}
	}
}
