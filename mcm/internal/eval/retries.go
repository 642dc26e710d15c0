package eval

// Removing a loop's failed iterations. A loop whose retry path only reads
// (no write, and only registers dead where it starts again) runs once in
// the reduced program that --unroll none checks: every execution E of the
// unbounded program becomes an execution E' of the reduced one by deleting
// the events D of its failed iterations, keeping the rest K. The reduced
// program has exactly the outcomes of the unbounded one when every
// consistent E gives a consistent E', which is a property of the model:
// this file proves it by abstract interpretation of the model's
// statements, or refuses with the construct that may break it.
//
// What the program side guarantees of (E, K), and the analysis assumes:
//
//   - E' is E restricted to K: its events are K, and each predefined set
//     and relation of E' is that of E restricted to K, except the control
//     dependencies (ctrl, iico_ctrl, and the pick dependencies), which may
//     lose pairs: a kept event's dependency may have run only through a
//     failed iteration's branch.
//   - D holds no write (W, IW, FW, and the lock writes LKW and UL), no
//     source of rf and no event co orders; every kept read keeps its rf
//     source; no kept event depends (addr, data, rf-reg) on an event of
//     D, unless TestTags.DepsMove says the dependencies may change.
//   - With silent retries (SilentRetriesRemovable), D may hold writes
//     that only removed reads read, none of them the last write to a
//     location the final state shows (so no final write, FW, is removed
//     and none is added).
//   - D is made of whole iterations, so of whole instruction instances:
//     the relations between the events of one instance (iico_*, si,
//     same-instance, same-instr, amo) never join K to D; and rmw never
//     does either, its write being kept and its read in the same,
//     successful, iteration.
//
// The abstract value of a set or relation X says how X(E'), computed on
// the reduced execution, relates to X(E)|K, computed on E and restricted
// to K: equal (exact), X(E') ⊆ X(E)|K (it may shrink), ⊇ (it may grow),
// or neither. A required check (acyclic, irreflexive, empty) that holds
// on E holds on E' when its relation cannot grow; a negated one when it
// cannot shrink and its witness cannot lie in D.
//
// Besides its direction, a value carries facts about X(E) that make
// operators exact where they would lose pairs: its domain or range holds
// no event of D (a set of writes, rf's sources), or it is closed (no pair
// joins K to D: id, the relations of one instruction). A sequence a;b
// loses exactly the paths whose middle event is in D, and a closure the
// paths through D, so they stay exact when these facts rule D out.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/mcm/internal/predef"
	"github.com/purr-mcm/purr/source"
)

// RetriesRemovable reports whether every check of the model (purr's
// prelude and well-formedness rules included, the skipped checks left
// out, flags and undefined_unless ignored as they only raise flags) keeps
// holding when the events of a loop's failed, read-only iterations are
// removed from a consistent execution, under the assumptions the comment
// at the top of retries.go lists. When it cannot show it, the error (a
// *source.Error) is at the construct that may grow, or shrink under a
// negated check, and says why.
//
// Flags are not covered: the reduced program raises only flags the
// unbounded one raises (its executions are the unbounded program's), but
// may miss one that only a failed iteration's events raise.
func RetriesRemovable(m Model) error { return RetriesRemovableFor(m, TestTags{}) }

// TestTags tells RetriesRemovableFor what one test's events carry, as
// names of tag sets as the engines bind them (predef's tags, and the sets
// a bell's enum declares, such as Srcu-lock).
type TestTags struct {
	// Carried accepts the tags some event carries (nil: any). The sets of
	// the others are empty on E and E' alike, which settles choices a
	// model makes over them: herd's aarch64.cat orders its TLBI and cache
	// maintenance events, the kernel's lock.cat chooses reads-from for
	// failed trylocks and spin_is_locked.
	Carried func(tag string) bool
	// Removable accepts the tags some event of a retry (a read, fence or
	// branch that may be removed) carries (nil: any). The sets of the
	// others lose no member: the kernel's bell matches RCU read-side
	// sections, which a retry then neither opens nor closes.
	Removable func(tag string) bool
	// WritesInPo (PrefixesRemovable): program order orders every two
	// writes of a thread (none are parallel parts of one instruction).
	WritesInPo bool
	// SilentFirst (SilentRetriesRemovable): no kept event is in program
	// order before a removed event of its location (the test-and-set is
	// the thread's first access to the lock). po & loc then joins no kept
	// event to a removed one, nor, in a model that keeps each location
	// sequentially consistent, do rf, co and fr within a thread: against
	// po they would break it.
	SilentFirst bool
	// GapFree (SilentRetriesRemovable, when not SilentFirst) accepts the
	// name of a predefined set that holds no gap access, or of a
	// predefined relation no pair of which ends at one (nil: none). A gap
	// access is a kept access whose next write to its location in program
	// order is a removed one: the unlock before a thread takes its lock
	// again. Removing the failed attempts lets a local read successor
	// (po-loc with no write between) start at it.
	GapFree func(name string) bool
	// RetryClasses (FlagsKept) sorts the accesses to the locations a
	// removed event accesses, initial writes left out, into the kinds a
	// model tells apart (nil, or more than 64: nothing is known of them).
	// A flag's witness at a location is kept when the sets the model
	// builds from tags show it away from those accesses: RC11's races of
	// non-atomic accesses, the kernel's of plain ones, when the lock's
	// accesses are atomic, marked or read-modify-writes.
	RetryClasses []AccessClass
	// DepsMove: a kept event's address, data or control dependencies
	// may, on E, come from a removed read, and on E' from a kept read
	// with the same value (a register that a retry read back into, as a
	// weak CAS failing spuriously does): the dependencies may gain and
	// lose pairs between kept events.
	DepsMove bool
	// SplitInstances: a retry may start inside an instruction (events'
	// own locations: after a C CAS's read of its expected value), so
	// that the relations between the events of one instance may gain and
	// lose pairs between kept events.
	SplitInstances bool
}

// AccessClass is a kind of access at the retries' locations
// (TestTags.RetryClasses).
type AccessClass struct {
	Tags  []string // the tags each access of the kind carries
	Write bool     // writes; else reads
	// InRMW: each access of the kind is the read (the write) of an rmw
	// pair whose two halves are executed together, so in domain(rmw)
	// (range(rmw)) whenever executed.
	InRMW bool
}

// classMask is a set of TestTags.RetryClasses, by index.
type classMask uint64

// retryClasses gives the kinds of access at the retries' locations and
// the mask of them all: one kind nothing is known of when tags knows
// none (the full mask is then that kind alone).
func (tags TestTags) retryClasses() ([]AccessClass, classMask) {
	n := len(tags.RetryClasses)
	if n == 0 || n > 64 {
		return nil, 1
	}
	return tags.RetryClasses, ^classMask(0) >> (64 - n)
}

// classFacts marks which kinds of access at the retries' locations a
// predefined set (or rmw's domain and range) holds: every access of a
// kind in covering (domCovering, rngCovering), none of one in awayFrom.
// Tags are set's.
func (tags TestTags) classFacts(name string, x *events) *events {
	classes, full := tags.retryClasses()
	var reads, writes, rmwReads, rmwWrites classMask
	for i, c := range classes {
		bit := classMask(1) << i
		switch {
		case c.Write:
			writes |= bit
			if c.InRMW {
				rmwWrites |= bit
			}
		default:
			reads |= bit
			if c.InRMW {
				rmwReads |= bit
			}
		}
	}
	switch name {
	case "_", "M":
		x.covering = full
	case "R":
		x.covering, x.awayFrom, x.noInits = reads, writes, true
	case "W":
		x.covering, x.awayFrom = writes, reads
	case "IW", "I", "F", "B":
		x.awayFrom = full // initial writes are left out
	case "rmw":
		x.domCovering, x.rngCovering = rmwReads, rmwWrites
	}
	return x
}

// RetriesRemovableFor is RetriesRemovable for the tests whose events
// carry the tags that tags describes.
func RetriesRemovableFor(m Model, tags TestTags) error { return removable(m, tags, removeRetries) }

// PrefixesRemovable reports whether every check of the model keeps
// holding when a consistent execution is cut short: restricted to a set K
// of its events whose part in each thread is a prefix of the thread's path
// and whose reads read from writes of K. The events removed, D, may then
// be writes, split an instruction or a read-modify-write, and be the
// sources of rf and co; the analysis is the one of RetriesRemovable with
// none of the facts that rest on D holding no write (tags.Removable is
// ignored), and the final writes may grow (a write co-before a removed one
// may be the last one kept). Used by the check that a bound is enough.
func PrefixesRemovable(m Model, tags TestTags) error {
	tags.Removable = nil
	return removable(m, tags, removePrefixes)
}

// SilentRetriesRemovable is RetriesRemovableFor when the retries removed
// may also write back what they read (events' silent retries: a failed
// test-and-set): D may then hold read-modify-writes, whose writes are in
// co and read only by reads of D; every kept read keeps its source.
// tags.Removable accepts the tags of those writes too.
func SilentRetriesRemovable(m Model, tags TestTags) error {
	return removable(m, tags, removeSilent)
}

// FlagsKept reports whether every flag of the model (flag and
// undefined_unless) that an execution raises, the execution without its
// retries' events raises too (silent: retries that write back what they
// read): its relation cannot shrink, and no witness holds a removed event.
// Then the reduced program raises the flags of the unbounded one and no
// retry needs to be kept for them. The other checks are left to
// RetriesRemovableFor and SilentRetriesRemovable.
func FlagsKept(m Model, tags TestTags, silent bool) error {
	what := removeRetries
	if silent {
		what = removeSilent
	}
	return removable(m, tags, what|flagsOnly)
}

// flagsOnly, or-ed into what, asks removable about the flags alone.
const flagsOnly = 16

// What removable removes: the events of read-only retries, of retries
// that write back what they read, or the ends of an execution.
const (
	removeRetries = iota
	removeSilent
	removePrefixes
)

func removable(m Model, tags TestTags, what int) error {
	prelude, wf, err := library()
	if err != nil {
		return fmt.Errorf("purr's library: %v", err)
	}
	flags := what&flagsOnly != 0
	what &^= flagsOnly
	prefixes := what == removePrefixes
	a := &retries{variants: map[string]bool{}, tags: tags, included: map[string]bool{}, skip: m.Skips, prefixes: prefixes, silent: what == removeSilent, flags: flags}
	a.coherent = a.silent && coherent(m)
	for _, v := range m.Variants {
		a.variants[v] = true
	}
	top := retriesPredefined(tags, what)
	sc := a.run(prelude.Stmts, top)
	if prefixes && tags.WritesInPo && coherentWrites(m) {
		// In E, consistent, a thread's writes to a location are in co as
		// in po: coi follows the path back, as po does.
		if v, ok := sc.lookup("coi"); ok {
			if e, ok := v.(*events); ok {
				c := *e
				c.back = true
				sc = sc.child()
				sc.set("coi", &c)
			}
		}
	}
	modelScope := a.run(m.Cat.Stmts, sc)
	if !m.SkipWellFormed {
		// The rules see the prelude's names and the model's receives, as
		// run does.
		wfScope := sc
		if v, ok := modelScope.lookup(messageReceives); ok {
			wfScope = sc.child()
			wfScope.set(messageReceives, v)
		}
		a.wellFormed = true
		a.run(wf.Stmts, wfScope)
	}
	if a.refusal != nil {
		return a.refusal
	}
	return nil
}

// cause is where and why a value may shrink or grow.
type cause struct {
	pos  source.Pos
	text string // the sub-expression, as Cat
	why  string
}

// events is the abstract value of an event set or a relation.
type events struct {
	shrinks, grows *cause // nil when it cannot
	// Facts about the value on E: no member (set) or no pair's source
	// (domKept) or target (rngKept) is in D; closed: no pair joins an
	// event of K to one of D. A set has domKept == rngKept.
	domKept, rngKept, closed bool
	// back (PrefixesRemovable): a pair whose target is kept has its
	// source kept, as in the relations that follow a thread's path (po,
	// dependencies) or go from a write to its reads (rf): the events cut
	// off are all after a kept one on its path, or read from a write cut
	// off.
	back  bool
	empty bool // empty in every execution
	// fromKept: no pair goes from a kept event to a removed one (implied
	// by rngKept and by closed).
	fromKept bool
	// transitive on E, as po and co are: X+ is X.
	transitive bool
	// With silent retries (see TestTags.GapFree): gapOnly, every pair the
	// value may gain or lose starts at a gap access; gapFree, no member
	// (set) or pair's target (relation) is a gap access on E.
	gapOnly, gapFree bool
	// With silent retries: poOrID, every pair (x, y) on E has x = y or x
	// before y in program order; spanOnly, every pair the value may gain
	// or lose has a removed event between its two events in program
	// order; noSpan, no pair on E has (rmw: a lock's retries never lie
	// inside an exclusive pair, events' silent retries).
	poOrID, spanOnly, noSpan bool
	// Of the accesses, initial writes left out, to the locations a
	// removed event accesses (the retries' accesses, of the kinds
	// TestTags.RetryClasses lists), on E: awayFrom, the kinds no member
	// (set) is of; covering, the kinds every access of which is a member;
	// domCovering, rngCovering, the kinds every access of which is a
	// pair's source, target (relation); coversPairs, every pair of two
	// retries' accesses is one of its pairs. endAway: every pair has an
	// end at none of those locations (an initial write counts as at its
	// location).
	awayFrom, covering, domCovering, rngCovering classMask
	endAway, coversPairs                         bool
	// Of the initial writes: all, every event is a member (set); inits,
	// every initial write is; noInits, none is; initFrom, initTo, every
	// pair from (to) an initial write is a pair (relation); noInit, no
	// pair has an initial write at an end.
	all, inits, noInits, initFrom, initTo, noInit bool
	// within names a tag (or W) whose events hold the set, or the
	// relation's domain ("" for none); shape is "po" for the predefined po and
	// "po;po" for its square (see the difference in binary), "id" for a
	// part of the identity, and with silent retries "loc" or "int"
	// for a relation within loc or int, "rf", "co" or "fr" for them,
	// "rf^-1" for rf's inverse, "com" for a relation within rf, co, fr
	// and id (rf^-1; co is); "po-loc" for po & loc, "po-loc?" with the
	// identity, "po-loc;[W]" for it followed by writes.
	within, shape string
	// parts are the operands of an intersection, by identity: one
	// abstract value stands for one evaluation, so X \ (X & Z) is known
	// to be X \ Z.
	parts [2]*events
}

// Other abstract values: a known tag (or "" for an unknown one), a tuple,
// a set of values (its elements when listed, open when it may hold
// others or differ between E and E'), a builtin function by name.
type (
	absTag   string
	absTuple []value
	absSet   struct {
		elems []value
		open  *cause
	}
	absBuiltin string
)

// retriesDepth bounds the nesting of function applications and
// procedure calls the analysis follows: past it, a value is unknown.
const retriesDepth = 40

type retries struct {
	variants   map[string]bool
	tags       TestTags
	included   map[string]bool
	skip       func(id string) bool
	wellFormed bool   // analysing purr's rules, which cannot be skipped
	callAs     string // the name a call gives the checks of its body
	depth      int
	refusal    *source.Error // the first check that may fail on E'
	failed     bool          // an unbound name or fail was met (see Try)
	prefixes   bool          // PrefixesRemovable's analysis
	silent     bool          // SilentRetriesRemovable's
	flags      bool          // FlagsKept's: the flags are the checks
	coherent   bool          // the model keeps each location sequentially consistent
}

// away tells whether no member of a set is a retries' access (events'
// awayFrom); covers, whether every retries' access is one.
func (a *retries) away(x *events) bool   { return holdsAll(x.awayFrom, a.tags) }
func (a *retries) covers(x *events) bool { return holdsAll(x.covering, a.tags) }

// holdsAll tells whether m holds every kind of the retries' accesses.
func holdsAll(m classMask, tags TestTags) bool {
	_, full := tags.retryClasses()
	return m&full == full
}

// endOff tells whether no member of a set is a retries' access or an
// initial write: a pair with an end in it has an end at none of the
// retries' locations (events' endAway).
func (a *retries) endOff(x *events) bool { return a.away(x) && x.noInits }

// exact is a set or relation equal on E' and on E restricted to K, of
// which nothing else is known.
func exact() *events { return &events{} }

// nothing is the empty set or relation.
func nothing() *events {
	return &events{domKept: true, rngKept: true, closed: true, empty: true}
}

// unknown is a value the analysis cannot follow, at node.
func unknown(node ast.Node, why string) *events {
	c := causeAt(node, why)
	return &events{shrinks: c, grows: c}
}

func causeAt(node ast.Node, why string) *cause {
	return &cause{pos: node.Position(), text: short(ast.String(node)), why: why}
}

// short cuts a printed expression to what an error message can show.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// normalise adds what the facts imply: a relation whose sources and
// targets are all kept joins no kept event to a removed one, and the
// empty value is exact.
func (e *events) normalise() *events {
	if e.empty {
		e.shrinks, e.grows = nil, nil
		e.domKept, e.rngKept, e.closed = true, true, true
		e.awayFrom, e.endAway, e.noInits, e.noInit, e.transitive = ^classMask(0), true, true, true, true
	}
	e.closed = e.closed || (e.domKept && e.rngKept)
	e.back = e.back || e.domKept || e.empty
	e.fromKept = e.fromKept || e.rngKept || e.closed
	if !e.changes() {
		e.gapOnly, e.spanOnly = false, false
	}
	return e
}

// changes tells whether the value may shrink or grow.
func (e *events) changes() bool { return e.shrinks != nil || e.grows != nil }

// gapChanges tells whether what the value may gain or lose (if anything)
// starts at gap accesses; spanChanges, whether it has removed events
// between its ends in program order.
func (e *events) gapChanges() bool  { return !e.changes() || e.gapOnly }
func (e *events) spanChanges() bool { return !e.changes() || e.spanOnly }

// retriesPredefined binds the predefined names to their abstract values
// (see retriesBase).
func retriesPredefined(tags TestTags, what int) *env {
	top := &env{}
	top.names, top.vals = top.name1[:0], top.val1[:0]
	base := retriesBase
	switch what {
	case removePrefixes:
		base = prefixBase
	case removeSilent:
		base = silentBase
	}
	for _, e := range predef.Table() {
		switch {
		case e.Kind == cat.KindFunction:
			top.set(e.Name, absBuiltin(e.Name))
		case e.Tag:
			top.set(e.Name, tags.gapFree(e.Name, tags.set(e.Name, base(e)), what == removeSilent))
		default:
			x := base(e)
			if tags.DepsMove && slices.Contains(dependencies, e.Name) {
				c := &cause{text: e.Name, why: whyDepsMove}
				x.shrinks, x.grows = c, c
			}
			if tags.SplitInstances && slices.Contains(instanceRelations, e.Name) {
				c := &cause{text: e.Name, why: whySplit}
				x.shrinks, x.grows, x.closed = c, c, false
			}
			top.set(e.Name, tags.gapFree(e.Name, tags.classFacts(e.Name, x), what == removeSilent))
		}
	}
	return top
}

// silentBase is retriesBase for retries that may write back what they
// read: writes, co and the rmw pairs may hold removed events (a removed
// read-modify-write is removed whole), rf's sources too (read only by
// removed reads). FW stays as it is: the engines give it the co-last
// write of each location the final state shows, and the program side
// removes none of those (mcm's retriesRemovable).
func silentBase(e predef.Entry) *events {
	x := retriesBase(e)
	switch e.Name {
	case "W", "RMW":
		x.domKept, x.rngKept, x.closed, x.fromKept = false, false, false, false
	case "rf":
		x.domKept, x.closed, x.fromKept = false, false, false
	case "co":
		x.domKept, x.rngKept, x.closed, x.fromKept = false, false, false, false
	case "fr":
		x.rngKept, x.closed, x.fromKept = false, false, false
	case "rmw", "amo":
		x.rngKept = false // removed whole: still closed
		x.noSpan = true
		return x.normalise()
	case "id", "si", "same-instance", "same-instr", "sm", "iico_data", "iico_ctrl", "iico_order":
		x.noSpan = true // within one instruction instance
		return x
	case "po":
		x.poOrID = true
		return x
	case "loc", "int":
		x.shape = e.Name // for po & loc, and int & rf, co, fr (see binary)
		return x
	default:
		return x
	}
	// retriesBase's, from the facts just dropped, but for rf: every kept
	// read keeps its source.
	x.back = e.Name == "rf"
	return x.normalise()
}

// prefixBase is retriesBase for executions cut short (PrefixesRemovable):
// only the initial writes are never removed, and only id joins no kept
// event to a removed one.
func prefixBase(e predef.Entry) *events {
	x := retriesBase(e)
	x.domKept, x.rngKept, x.closed, x.back, x.fromKept = false, false, false, false, false
	switch e.Name {
	case "IW", "I":
		x.domKept, x.rngKept = true, true
	case "FW":
		x.grows = &cause{text: e.Name, why: "a write co-before a removed one may be the last one kept"}
	case "id", "po", "rf", "rmw", "amo", "addr", "data", "ctrl", "pick-addr-dep", "pick-data-dep", "pick-ctrl-dep",
		"iico_data", "iico_ctrl", "rf-reg":
		x.back = true
	}
	if e.Name == "id" {
		x.closed = true
	}
	return x.normalise()
}

// gapFree marks a predefined set or relation TestTags.GapFree accepts,
// with silent retries.
func (tags TestTags) gapFree(name string, x *events, silent bool) *events {
	if silent && (tags.SilentFirst || tags.GapFree != nil && tags.GapFree(name)) {
		x.gapFree = true
	}
	return x
}

// set is the abstract value of the set of the events carrying a tag,
// given what the test's events carry.
func (tags TestTags) set(tag string, x *events) *events {
	if classes, full := tags.retryClasses(); classes != nil {
		var carrying classMask
		for i, c := range classes {
			if slices.Contains(c.Tags, tag) {
				carrying |= classMask(1) << i
			}
		}
		x.covering, x.awayFrom = x.covering|carrying, x.awayFrom|full&^carrying
	}
	switch {
	case tags.Carried != nil && !tags.Carried(tag):
		return nothing()
	case tags.Removable != nil && !tags.Removable(tag):
		return x.kept()
	}
	return x
}

// Why a predefined relation may lose pairs on E'.
const (
	whyCtrl     = "a kept event's control dependency may run only through the branch of a removed iteration"
	whyPick     = "a pick dependency may run through a removed iteration, which purr does not rule out"
	whySplit    = "a retry may start inside an instruction (after a C CAS reads its expected value), joining a kept event of one instance to the next's"
	whyDepsMove = "a retry may read back into a register the value it held (a weak CAS failing spuriously), so that a kept event's dependency comes from a removed read"
)

// instanceRelations are the predefined relations between the events of
// one instruction instance, which TestTags.SplitInstances changes.
var instanceRelations = []string{"si", "same-instance", "iico_data", "iico_ctrl", "iico_order", "amo"}

// dependencies are the predefined relations TestTags.DepsMove moves.
var dependencies = []string{"addr", "data", "ctrl", "rf-reg", "pick-addr-dep", "pick-data-dep", "pick-ctrl-dep"}

// retriesBase is the abstract value of a predefined set or relation: its
// causes carry no position, which the use gives them (see placed).
func retriesBase(e predef.Entry) *events {
	x := exact()
	if e.Name == "LKW" || e.Name == "UL" {
		// Lock writes, never removed.
		x.domKept, x.rngKept = true, true
		return x.normalise()
	}
	if e.Tag {
		x.within = e.Name
		return x // the events carrying a tag: each keeps it
	}
	switch e.Name {
	case "_", "M":
		x.all, x.inits = e.Name == "_", true
	case "R", "Exp", "F", "B", "RMW":
	case "W", "IW", "I", "FW":
		// Writes are never removed.
		x.domKept, x.rngKept = true, true
		x.inits = e.Name != "FW"
		if e.Name == "W" {
			x.within = "W"
		}
	case "id", "si", "same-instance", "same-instr", "sm", "iico_data", "iico_order":
		// Pairs of one event, or of one instruction instance, which is
		// wholly kept or wholly removed.
		x.closed = true
	case "po":
		x.shape, x.transitive = "po", true
	case "loc":
		x.shape = "loc" // for the flags' witnesses (FlagsKept), and po & loc
	case "int", "ext", "addr", "data", "rf-reg", "same-low-order-bits", "same-tag-loc":
		// Pairwise facts about two events, which E' keeps: the order and
		// thread of kept events, their addresses and their dependencies
		// (a kept event depends on no removed one).
	case "rf":
		x.domKept = true // sources are writes
		x.shape = "rf"
	case "co":
		x.domKept, x.rngKept = true, true
		x.shape, x.transitive = "co", true
	case "fr":
		x.rngKept = true // targets are writes; a kept read keeps its source
		x.shape = "fr"
	case "rmw", "amo":
		x.rngKept, x.closed = true, true // the write is kept, and so its read
	case "ctrl", "iico_ctrl":
		x.shrinks = &cause{text: e.Name, why: whyCtrl}
		x.closed = e.Name == "iico_ctrl"
	default:
		// pick-*-dep, and any name added to the table since: not known to
		// be kept, assumed to lose pairs.
		x.shrinks = &cause{text: e.Name, why: whyPick}
	}
	return x.normalise()
}

// placed gives the causes of a predefined value the position of its use.
func placed(v value, at *ast.Var) value {
	e, ok := v.(*events)
	if !ok || (e.shrinks == nil || e.shrinks.pos.IsValid()) && (e.grows == nil || e.grows.pos.IsValid()) {
		return v
	}
	out := *e
	fix := func(c *cause) *cause {
		if c == nil || c.pos.IsValid() {
			return c
		}
		return &cause{pos: at.Pos, text: c.text, why: c.why}
	}
	out.shrinks, out.grows = fix(e.shrinks), fix(e.grows)
	return &out
}

// ---------------------------------------------------------------- statements

func (a *retries) run(stmts []ast.Stmt, sc *env) *env {
	for _, st := range stmts {
		sc = a.stmt(st, sc)
	}
	return sc
}

func (a *retries) stmt(st ast.Stmt, sc *env) *env {
	switch st := st.(type) {
	case *ast.Let:
		next := a.bind(st.Bindings, st.Rec, sc)
		if st.When != nil {
			a.check(st.When, next)
		}
		return next
	case *ast.Check:
		a.check(st, sc)
	case *ast.Include:
		if st.Resolved != "" && !a.included[st.Resolved] {
			a.included[st.Resolved] = true
			return a.run(st.Stmts, sc)
		}
	case *ast.Procedure:
		next := sc.child()
		p := &procedure{def: st, env: next}
		next.set(st.Name, p)
		if !st.Rec {
			p.env = sc
		}
		return next
	case *ast.Call:
		a.call(st, sc)
	case *ast.Forall:
		a.forall(st, sc)
	case *ast.IfVariant:
		if c, known := a.cond(st.Cond, sc); known {
			if c {
				return a.run(st.Then, sc)
			}
			return a.run(st.Else, sc)
		}
		return a.alternatives(st, sc, st.Then, st.Else)
	case *ast.MatchStmt:
		t, _ := a.expr(st.X, sc).(absTag)
		var arms [][]ast.Stmt
		for _, c := range st.Clauses {
			if t != "" && c.Tag == string(t) {
				return a.run(c.Body, sc)
			}
			arms = append(arms, c.Body)
		}
		if t != "" {
			return a.run(st.Default, sc)
		}
		if st.HasDefault {
			arms = append(arms, st.Default)
		}
		return a.alternatives(st, sc, arms...)
	case *ast.With:
		return a.with(st, sc)
	case *ast.Enum:
		next := sc.child()
		var tags []value
		for _, t := range st.Tags {
			tags = append(tags, absTag(t))
		}
		next.set(st.Name, &absSet{elems: tags})
		for _, t := range st.Tags {
			name := ast.TagSet(t)
			set := exact()
			set.within = name
			next.set(name, a.tags.gapFree(name, a.tags.set(name, set), a.silent))
		}
		return next
	}
	// show, unshow, debug, instructions: no check.
	return sc
}

// alternatives runs each list of statements (the branches of an if or
// match whose choice the analysis cannot tell), so that the checks of
// each are analysed, and returns a scope binding what any of them binds
// to the join of its values.
func (a *retries) alternatives(at ast.Node, sc *env, arms ...[]ast.Stmt) *env {
	var ends []*env
	for _, arm := range arms {
		ends = append(ends, a.run(arm, sc))
	}
	next := sc.child()
	for _, end := range ends {
		for e := end; e != nil && e != sc; e = e.parent {
			for _, name := range e.names {
				if _, done := next.own(name); done {
					continue
				}
				var v value
				for _, other := range ends {
					w, _ := other.lookup(name)
					if w == nil {
						w = unknown(at, "bound on some branches only")
					}
					v = a.join(v, w, at)
				}
				next.set(name, v)
			}
		}
	}
	return next
}

func (a *retries) call(st *ast.Call, sc *env) {
	v, _ := sc.lookup(st.Name)
	p, ok := v.(*procedure)
	if !ok {
		return // the loader refuses such a call; purr's evaluator too
	}
	arg := a.expr(st.Arg, sc)
	if a.depth >= retriesDepth {
		a.refuse(st.Pos, "calls of %s nest too deep for purr to follow whether their checks hold once a loop's read-only retries are removed: %s", st.Name, cannot)
		return
	}
	body := p.env.child()
	a.bindParams(st, p.def.Params, arg, body)
	saved := a.callAs
	if st.As != "" {
		a.callAs = st.As
	}
	a.depth++
	a.run(p.def.Body, body)
	a.depth--
	a.callAs = saved
}

// forall checks its body for each member of a set. Over a set of values,
// the variable stands for any of them. Over the events (or pairs) of a
// set that cannot grow, the members on E' are members on E, each a kept
// event, the same on both: its singleton is exact, and kept.
func (a *retries) forall(st *ast.Forall, sc *env) {
	body := sc.child()
	switch s := a.expr(st.Set, sc).(type) {
	case *absSet:
		if s.open != nil {
			a.refuseAt(s.open, "may change", "forall walks its members")
			return
		}
		var x value = nothing()
		for _, e := range s.elems {
			x = a.join(x, e, st)
		}
		body.set(st.Var, x)
	case *events:
		if s.grows != nil {
			a.refuseAt(s.grows, "may grow", "forall would walk more members")
			return
		}
		body.set(st.Var, exact().kept())
	default:
		body.set(st.Var, unknown(st, "forall over a value purr does not follow"))
	}
	a.run(st.Body, body)
}

// kept marks a value whose members are all kept.
func (e *events) kept() *events {
	e.domKept, e.rngKept = true, true
	return e.normalise()
}

// with: an execution passes when some choice of x passes the rest. For
// E', take the choice of E restricted to K; it is a choice on E' when the
// choices are herd's orders (linearisations, generate_orders,
// generate_cos: the strict total orders on S extending r, which restrict
// to orders on S(E') extending r(E') when S is exact and r cannot grow)
// or purr's co, or a list of values, each of which stands for itself.
func (a *retries) with(w *ast.With, sc *env) *env {
	next := sc.child()
	if isCoGeneration(w) {
		app := w.Set.(*ast.App)
		fname := app.Fun.(*ast.Var).Name
		if !a.fromLibrary(sc, fname) {
			a.refuse(w.Pos, "with co from %s(...): the model's own %s, which purr does not run: %s", fname, fname, cannot)
			return next
		}
		// purr binds the engine's co and requires that it extend the base.
		base := a.expr(app.Arg, sc)
		if fname == "linearisations" {
			if t, ok := base.(absTuple); ok && len(t) == 2 {
				base = t[1]
			}
		}
		if e, ok := base.(*events); !ok || e.grows != nil {
			a.refuseAt(grown(base, app), "may grow", "co must extend it")
		}
		co := exact()
		co.domKept, co.rngKept = !a.prefixes && !a.silent, !a.prefixes && !a.silent // writes, which only prefixes and silent retries remove
		co.shape, co.transitive = "co", true
		next.set(w.Var, co.normalise())
		return next
	}
	if sx, rx, _, isGen := orderGenerator(w); isGen && a.fromLibrary(sc, w.Set.(*ast.App).Fun.(*ast.Var).Name) {
		var s value
		if sx == nil {
			s, _ = sc.lookup("W")
		} else {
			s = a.expr(sx, sc)
		}
		r := a.expr(rx, sc)
		se, sOK := s.(*events)
		re, rOK := r.(*events)
		switch {
		case !sOK || se.grows != nil || se.shrinks != nil:
			a.refuseAt(changed(s, w), "may change", "the orders chosen range over it")
		case !rOK || re.grows != nil:
			a.refuseAt(grown(r, rx), "may grow", "the orders chosen extend it")
		}
		x := exact() // the order of E, restricted to K
		if sOK {
			x.domKept, x.rngKept = se.domKept, se.domKept
		}
		next.set(w.Var, x.normalise())
		return next
	}
	switch s := a.expr(w.Set, sc).(type) {
	case *absCross:
		return a.withCross(w, s, next)
	case *absSet:
		if s.open != nil {
			a.refuseAt(s.open, "may change", "with "+w.Var+" chooses among its members")
			break
		}
		var x value = nothing()
		for _, e := range s.elems {
			x = a.join(x, e, w)
		}
		next.set(w.Var, x)
		return next
	case *events:
		if c := first(s.grows, s.shrinks); c != nil {
			a.refuseAt(c, "may change", "with "+w.Var+" chooses among its members")
			break
		}
		a.refuse(w.Pos, "with %s from %s: it chooses among the events or pairs of a set or relation, which differ once a loop's retries are removed: %s",
			w.Var, short(ast.String(w.Set)), cannot)
	default:
		a.refuse(w.Pos, "with %s from %s: the choices may differ when a loop's read-only retries are removed, and purr cannot show that each choice made on the unbounded program has one on the reduced program: %s",
			w.Var, short(ast.String(w.Set)), cannot)
	}
	next.set(w.Var, unknown(w, "a choice purr does not follow"))
	return next
}

// grown is the cause of v's growth (v at node).
func grown(v value, node ast.Node) *cause {
	if e, ok := v.(*events); ok && e.grows != nil {
		return e.grows
	}
	return causeAt(node, "not a set or relation purr follows")
}

// changed is the cause of any change of v (v at node).
func changed(v value, node ast.Node) *cause {
	if e, ok := v.(*events); ok {
		if e.grows != nil {
			return e.grows
		}
		if e.shrinks != nil {
			return e.shrinks
		}
	}
	return causeAt(node, "not a set or relation purr follows")
}

// fromLibrary is eval's fromLibrary over abstract values.
func (a *retries) fromLibrary(sc *env, name string) bool {
	v, ok := sc.lookup(name)
	if !ok {
		return false
	}
	switch f := v.(type) {
	case absBuiltin:
		return name == "linearisations" && string(f) == name
	case *closure:
		file := f.body.Position().File
		return file == "cross.cat" || strings.HasSuffix(file, "/cross.cat") || strings.HasSuffix(file, ":cross.cat")
	}
	return false
}

// check: a required check holds on E' when its value cannot grow; a
// negated one when it cannot shrink and the witness E has (a member, a
// reflexive pair, a cycle) lies in K.
func (a *retries) check(c *ast.Check, sc *env) {
	isFlag := c.Mode == ast.Flag || c.Mode == ast.UndefinedUnless
	if isFlag != a.flags {
		return // flags decide no execution; FlagsKept asks about them alone
	}
	negated := c.Negated
	if c.Mode == ast.UndefinedUnless {
		// undefined_unless X raises its flag when X fails: as ~X does.
		negated = !negated
	}
	name := c.Name
	if name == "" {
		name = c.Kind.String()
	} else if a.callAs != "" {
		name = a.callAs
	}
	id := name
	if c.Name == "" {
		id = c.Pos.String()
	}
	if !a.wellFormed && a.skip(id) {
		return
	}
	what := fmt.Sprintf("check %s (%s)", name, c.Pos)
	v := a.expr(c.X, sc)
	if s, ok := v.(*absSet); ok {
		if s.open != nil {
			a.refuseAt(s.open, "may change", what+" tests its members")
		}
		return
	}
	e, ok := v.(*events)
	if !ok {
		a.refuse(c.Pos, "%s: purr does not follow its value: %s", what, cannot)
		return
	}
	if !negated {
		if e.grows != nil {
			a.refuseAt(e.grows, "may grow", what+" needs it not to")
		}
		return
	}
	if e.shrinks != nil {
		a.refuseAt(e.shrinks, "may shrink", "the negated "+what+" needs it not to")
		return
	}
	witnessKept := e.domKept || e.rngKept // a cycle's or a reflexive pair's events are in both
	if c.Kind == ast.IsEmpty {
		witnessKept = e.domKept && e.rngKept
	}
	// Within a location, a pair with an end at none of the retries'
	// locations has no event at them.
	witnessKept = witnessKept || (within(e.shape) == "loc" || within(e.shape) == "com") && e.endAway
	if !witnessKept {
		a.refuse(c.Pos, "the negated %s: its witness may lie wholly in a loop's removed retries, and the reduced execution would then pass it: %s", what, cannot)
	}
}

func (a *retries) refuse(pos source.Pos, format string, args ...any) {
	if a.refusal == nil {
		a.refusal = source.Errorf(pos, format, args...)
		if a.silent {
			a.refusal.Msg = strings.NewReplacer("a loop's read-only retries", "a loop's retries that write back what they read").Replace(a.refusal.Msg)
		}
		if a.prefixes {
			a.refusal.Msg = strings.NewReplacer("a loop's read-only retries are removed", "an execution is cut short",
				"a loop's removed retries", "the events cut off", "the unbounded program", "the whole execution",
				"the reduced program", "the one cut short", cannot, "purr cannot show that a bound is enough").Replace(a.refusal.Msg)
		}
	}
}

// cannot ends every refusal.
const cannot = "--unroll none cannot use this model"

// refuseAt refuses at a cause: the value may change as verb says
// ("may grow"), which need (what uses it) does not allow.
func (a *retries) refuseAt(c *cause, verb, need string) {
	a.refuse(c.pos, "%s %s when a loop's read-only retries are removed (%s), and %s: %s", c.text, verb, c.why, need, cannot)
}

// ---------------------------------------------------------------- bindings

func (a *retries) bind(bs []*ast.Binding, rec bool, sc *env) *env {
	next := sc.child()
	if !rec {
		for _, b := range bs {
			a.bindParams(b, b.Names, a.expr(b.Value, sc), next)
		}
		return next
	}
	allFuns := true
	for _, b := range bs {
		if _, ok := b.Value.(*ast.Fun); !ok {
			allFuns = false
		}
	}
	if allFuns {
		for _, b := range bs {
			a.bindParams(b, b.Names, a.expr(b.Value, next), next)
		}
		return next
	}
	// A least fixpoint, iterated from the empty value: each iterate on E'
	// is described by the join of the abstract iterates so far, which
	// grows in a lattice of finite height.
	for _, b := range bs {
		if len(b.Names) != 1 {
			for _, n := range b.Names {
				next.set(n, unknown(b, "let rec of a tuple"))
			}
			return next
		}
		next.set(b.Names[0], nothing())
	}
	for round := 0; ; round++ {
		stable := true
		for _, b := range bs {
			old, _ := next.own(b.Names[0])
			v := a.join(old, a.expr(b.Value, next), b)
			if e, ok := v.(*events); ok {
				// A fresh value per round: one abstract value stands for
				// one concrete value (see parts).
				copied := *e
				v = &copied
			}
			if round > 20 {
				v = unknown(b, "a recursive definition whose analysis does not settle")
			}
			if !sameAbstract(old, v) {
				stable = false
			}
			next.set(b.Names[0], v)
		}
		if stable || round > 20 {
			return next
		}
	}
}

// sameAbstract compares abstract values for a fixpoint's convergence.
func sameAbstract(x, y value) bool {
	ex, okx := x.(*events)
	ey, oky := y.(*events)
	if okx && oky {
		return (ex.shrinks == nil) == (ey.shrinks == nil) && (ex.grows == nil) == (ey.grows == nil) &&
			ex.domKept == ey.domKept && ex.rngKept == ey.rngKept && ex.closed == ey.closed && ex.empty == ey.empty &&
			ex.fromKept == ey.fromKept
	}
	if okx || oky {
		return false
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

func (a *retries) bindParams(at ast.Node, names []string, v value, sc *env) {
	if len(names) == 1 {
		if names[0] != "_" {
			sc.set(names[0], v)
		}
		return
	}
	t, ok := v.(absTuple)
	for i, n := range names {
		if n == "_" {
			continue
		}
		if ok && len(t) == len(names) {
			sc.set(n, t[i])
		} else {
			sc.set(n, unknown(at, "a tuple purr does not follow"))
		}
	}
}

// ---------------------------------------------------------------- joins

// join is the least abstract value describing both x and y (nil: none).
func (a *retries) join(x, y value, at ast.Node) value {
	if x == nil {
		return y
	}
	if y == nil {
		return x
	}
	if s, ok := x.(*absSet); ok && len(s.elems) == 0 && s.open == nil {
		x = nothing()
	}
	if s, ok := y.(*absSet); ok && len(s.elems) == 0 && s.open == nil {
		y = nothing()
	}
	switch x := x.(type) {
	case *events:
		if y, ok := y.(*events); ok {
			if x.empty {
				return y
			}
			if y.empty {
				return x
			}
			return (&events{shrinks: first(x.shrinks, y.shrinks), grows: first(x.grows, y.grows),
				domKept: x.domKept && y.domKept, rngKept: x.rngKept && y.rngKept, closed: x.closed && y.closed,
				fromKept: x.fromKept && y.fromKept}).normalise()
		}
	case absTag:
		if y, ok := y.(absTag); ok {
			if x == y {
				return x
			}
			return absTag("")
		}
	case absTuple:
		if y, ok := y.(absTuple); ok && len(x) == len(y) {
			out := make(absTuple, len(x))
			for i := range x {
				out[i] = a.join(x[i], y[i], at)
			}
			return out
		}
	case *absSet:
		if y, ok := y.(*absSet); ok {
			return &absSet{elems: append(append([]value(nil), x.elems...), y.elems...), open: first(x.open, y.open)}
		}
	case *closure:
		if y, ok := y.(*closure); ok && x.body == y.body && x.env == y.env {
			return x
		}
	case absBuiltin:
		if x == y {
			return x
		}
	case *procedure:
		if y, ok := y.(*procedure); ok && x.def == y.def {
			return x
		}
	}
	return unknown(at, "values of different kinds")
}

func first(c, d *cause) *cause {
	if c != nil {
		return c
	}
	return d
}

// ---------------------------------------------------------------- expressions

func (a *retries) expr(x ast.Expr, sc *env) value {
	switch x := x.(type) {
	case *ast.Var:
		if v, ok := sc.lookup(x.Name); ok {
			return placed(v, x)
		}
		a.failed = true
		return unknown(x, "an unbound name")
	case *ast.Empty:
		return nothing()
	case *ast.Universe:
		return &events{all: true, inits: true, covering: ^classMask(0)}
	case *ast.Tag:
		return absTag(x.Name)
	case *ast.SetLit:
		if len(x.Elems) == 0 {
			return nothing()
		}
		s := &absSet{}
		members := 0
		for _, e := range x.Elems {
			v := a.expr(e, sc)
			if _, ok := v.(absMember); ok {
				members++
			}
			s.elems = append(s.elems, v)
		}
		if members == len(s.elems) {
			return memberSingleton() // events or pairs: a set or relation
		}
		return s
	case *ast.Tuple:
		out := make(absTuple, len(x.Elems))
		for i, e := range x.Elems {
			out[i] = a.expr(e, sc)
		}
		return out
	case *ast.Binary:
		return a.binary(x, a.expr(x.X, sc), a.expr(x.Y, sc))
	case *ast.Unary:
		return a.unary(x, a.expr(x.X, sc))
	case *ast.App:
		return a.apply(x, a.expr(x.Fun, sc), a.expr(x.Arg, sc))
	case *ast.Fun:
		return &closure{name: x.Name, params: x.Params, body: x.Body, env: sc}
	case *ast.LetIn:
		return a.expr(x.Body, a.bind(x.Bindings, x.Rec, sc))
	case *ast.Match:
		t, _ := a.expr(x.X, sc).(absTag)
		var v value
		for _, c := range x.Clauses {
			if t != "" && c.Tag == string(t) {
				return a.expr(c.Body, sc)
			}
			if t == "" {
				v = a.join(v, a.expr(c.Body, sc), x)
			}
		}
		if x.Default != nil {
			v = a.join(v, a.expr(x.Default, sc), x)
		}
		if v == nil {
			return unknown(x, "no arm of the match matches")
		}
		return v
	case *ast.MatchSet:
		return a.matchSet(x, sc)
	case *ast.IfExpr:
		if c, known := a.cond(x.Cond, sc); known {
			if c {
				return a.expr(x.Then, sc)
			}
			return a.expr(x.Else, sc)
		}
		return a.join(a.expr(x.Then, sc), a.expr(x.Else, sc), x)
	case *ast.Try:
		// herd takes the fallback when X fails, which here is when it
		// names something unbound (the other failures do not depend on
		// the execution); otherwise X.
		saved := a.failed
		a.failed = false
		v := a.expr(x.X, sc)
		failed := a.failed
		a.failed = saved
		if failed {
			return a.expr(x.Fallback, sc)
		}
		return v
	}
	return unknown(x, "an expression purr does not follow")
}

// matchSet decomposes a listed set of values; the members of an event
// set or relation are not followed.
func (a *retries) matchSet(x *ast.MatchSet, sc *env) value {
	v := a.expr(x.X, sc)
	if e, ok := v.(*events); ok && e.empty {
		return a.expr(x.Empty, sc)
	}
	s, ok := v.(*absSet)
	if !ok {
		if e, isEvents := v.(*events); isEvents && first(e.grows, e.shrinks) != nil {
			c := first(e.grows, e.shrinks)
			return &events{shrinks: c, grows: c} // as unknown as what it walks
		}
		return unknown(x, "it walks the members of a set or relation, which differ once a loop's retries are removed")
	}
	if s.open != nil {
		return unknown(x, "it walks the members of a set that may differ")
	}
	if len(s.elems) == 0 {
		return a.expr(x.Empty, sc)
	}
	inner := sc.child()
	if x.Elem != "_" {
		inner.set(x.Elem, s.elems[0])
	}
	if x.Rest != "_" {
		inner.set(x.Rest, &absSet{elems: s.elems[1:]})
	}
	return a.expr(x.NonEmpty, inner)
}

// cond decides a condition when the analysis knows it (variants, tags).
// When it does not, the condition still has one value on E and E' alike:
// purr compares only tags, which come from the model's text and its
// choices (E' makes E's), never from events; so analysing every branch
// covers the one both take.
func (a *retries) cond(c ast.Cond, sc *env) (holds, known bool) {
	switch c := c.(type) {
	case *ast.Variant:
		return a.variants[c.Name], true
	case *ast.Not:
		x, k := a.cond(c.X, sc)
		return !x, k
	case *ast.And:
		x, kx := a.cond(c.X, sc)
		y, ky := a.cond(c.Y, sc)
		if kx && !x || ky && !y {
			return false, true
		}
		return x && y, kx && ky
	case *ast.Or:
		x, kx := a.cond(c.X, sc)
		y, ky := a.cond(c.Y, sc)
		if kx && x || ky && y {
			return true, true
		}
		return x || y, kx && ky
	case *ast.Compare:
		x, isTag := a.expr(c.X, sc).(absTag)
		if !isTag || x == "" {
			return false, false
		}
		switch y := a.expr(c.Y, sc).(type) {
		case absTag:
			if c.Op == ast.Equal && y != "" {
				return x == y, true
			}
		case *absSet:
			if c.Op == ast.MemberOf && y.open == nil {
				for _, e := range y.elems {
					t, ok := e.(absTag)
					if !ok || t == "" {
						return false, false
					}
					if t == x {
						return true, true
					}
				}
				return false, true
			}
		}
	}
	return false, false
}
