package eval

// The operators of RetriesRemovable's analysis (retries.go): how the
// direction of a value (may shrink, may grow) and its facts (domain or
// range kept, closed) pass through each. Throughout, X' is X computed on
// the reduced execution E', X|K on E restricted to the kept events K; D
// are the removed events.

import (
	"cmp"

	"github.com/purr-mcm/purr/cat/ast"
)

// Why the operators lose pairs or members.
const (
	whyPath   = "a path through an event of a removed iteration is lost"
	whyDomain = "an event whose pairs all lead into removed iterations leaves it"
	whyGap    = "a failed attempt removed between two accesses of its location may leave no write between them (the lock taken again after its unlock)"
)

func (a *retries) binary(x *ast.Binary, l, r value) value {
	if x.Op == ast.Add {
		return a.add(x, l, r)
	}
	ls, lSet := l.(*absSet)
	rs, rSet := r.(*absSet)
	if lSet || rSet {
		if !lSet && isNothing(l) {
			ls, lSet = &absSet{}, true
		}
		if !rSet && isNothing(r) {
			rs, rSet = &absSet{}, true
		}
		if lSet && rSet {
			return setOp(x, ls, rs)
		}
		return unknown(x, "mixes a set of values with events")
	}
	le, lOK := l.(*events)
	re, rOK := r.(*events)
	if !lOK || !rOK {
		return unknown(x, "an operand purr does not follow")
	}
	out := &events{shrinks: first(le.shrinks, re.shrinks), grows: first(le.grows, re.grows)}
	switch x.Op {
	case ast.Union:
		// Monotone in both: X'∪Y' against X|K ∪ Y|K.
		if le.within == re.within {
			out.within = le.within
		}
		switch {
		case le.shape == re.shape || re.empty:
			out.shape = within(le.shape)
		case le.empty:
			out.shape = within(re.shape)
		case sameLoc(le.shape) && sameLoc(re.shape):
			out.shape = "loc"
		}
		out.domKept, out.rngKept, out.closed = le.domKept && re.domKept, le.rngKept && re.rngKept, le.closed && re.closed
		out.back = le.back && re.back
		out.fromKept = le.fromKept && re.fromKept
		out.empty = le.empty && re.empty
		out.changesOf(le, re)
		out.gapFree, out.poOrID, out.noSpan = le.gapFree && re.gapFree, le.poOrID && re.poOrID, le.noSpan && re.noSpan
		out.awayFrom, out.covering = le.awayFrom&re.awayFrom, le.covering|re.covering
		out.domCovering, out.rngCovering = le.domCovering|re.domCovering, le.rngCovering|re.rngCovering
		out.endAway, out.coversPairs = le.endAway && re.endAway, le.coversPairs || re.coversPairs
		out.all, out.inits, out.noInit = le.all || re.all, le.inits || re.inits, le.noInit && re.noInit
		out.noInits = le.noInits && re.noInits
		out.transitive = le.transitive && re.empty || le.empty && re.transitive
		out.initFrom, out.initTo = le.initFrom || re.initFrom, le.initTo || re.initTo
	case ast.Inter:
		// Monotone in both; the pairs are some of either side's.
		le, re = unspanned(le, re), unspanned(re, le)
		out.shrinks, out.grows = first(le.shrinks, re.shrinks), first(le.grows, re.grows)
		out.domKept, out.rngKept, out.closed = le.domKept || re.domKept, le.rngKept || re.rngKept, le.closed || re.closed
		out.back = le.back || re.back
		out.fromKept = le.fromKept || re.fromKept || a.firstAccesses(le, re) || a.firstAccesses(re, le)
		out.shape = cmp.Or(within(le.shape), within(re.shape))
		if le.shape == "po" && re.shape == "loc" || le.shape == "loc" && re.shape == "po" {
			out.shape = "po-loc"
		}
		out.empty = le.empty || re.empty
		out.within = cmp.Or(le.within, re.within)
		out.parts = [2]*events{le, re}
		out.changesOf(le, re)
		out.gapFree, out.noSpan = le.gapFree || re.gapFree, le.noSpan || re.noSpan
		// In a model that keeps each location sequentially consistent,
		// rf, co and fr within a thread follow po.
		out.poOrID = le.poOrID || re.poOrID || a.coherent && (le.shape == "int" && within(re.shape) == "com" || re.shape == "int" && within(le.shape) == "com")
		out.awayFrom, out.covering = le.awayFrom|re.awayFrom, le.covering&re.covering
		out.endAway, out.coversPairs = le.endAway || re.endAway, le.coversPairs && re.coversPairs
		out.all, out.inits, out.noInit = le.all && re.all, le.inits && re.inits, le.noInit || re.noInit
		out.noInits = le.noInits || re.noInits
		out.transitive = le.transitive && re.transitive
		out.initFrom, out.initTo = le.initFrom && re.initFrom, le.initTo && re.initTo
	case ast.Diff:
		// X \ Y is X ∩ ~Y: what Y loses, X \ Y gains.
		if re.parts[0] == le && le != nil {
			re = re.parts[1] // X \ (X & Z) is X \ Z (fre = fr \ fri)
		} else if re.parts[1] == le && le != nil {
			re = re.parts[0]
		}
		re = unspanned(re, le)
		if re.shape == "po;po" && le.within == "LKR" && re.grows == nil {
			// The pairs of X not in po;po are immediate successors in po.
			// po;po loses a pair (x, y) when only removed events lie
			// between x and y; but an LKR's immediate successor is its
			// LKW (herd's spin_lock makes them one after the other), which
			// is kept: a pair from an LKR has a kept event between, or
			// none at all, on E and E' alike (the kernel's lk-rmw).
			re = &events{grows: re.grows}
		}
		out.shrinks, out.grows = first(le.shrinks, flipped("it takes away", re.grows, x, re)), first(le.grows, flipped("it takes away", re.shrinks, x, re))
		out.domKept, out.rngKept, out.closed, out.empty = le.domKept, le.rngKept, le.closed, le.empty
		out.back, out.within, out.fromKept, out.shape = le.back, le.within, le.fromKept, within(le.shape)
		if re.empty {
			out.shrinks, out.grows = le.shrinks, le.grows
		}
		out.changesOf(le, re)
		out.gapFree, out.poOrID, out.noSpan = le.gapFree, le.poOrID, le.noSpan
		// A member of S not in T is of no kind T covers; a pair of X
		// with no initial write, not in Y, which holds every pair of two
		// retries' accesses, has an end at none of their locations.
		out.awayFrom, out.covering = le.awayFrom|re.covering, le.covering&re.awayFrom
		out.noInit = le.noInit || re.initFrom && re.initTo
		out.noInits = le.noInits || re.inits
		out.endAway = le.endAway || re.coversPairs && out.noInit
	case ast.Cartesian:
		// S'×T' against (S|K)×(T|K): monotone in both.
		out.domKept, out.rngKept = le.domKept, re.domKept
		out.empty = le.empty || re.empty
		out.within = le.within
		out.gapFree = re.gapFree
		out.endAway, out.coversPairs = a.endOff(le) || a.endOff(re), a.covers(le) && a.covers(re)
		out.noInit = le.noInits && re.noInits
		out.initFrom, out.initTo = le.inits && re.all, le.all && re.inits
	case ast.Seq:
		// X';Y' ⊆ (X;Y)|K, and it misses exactly the paths x→m→y with
		// x, y kept and m removed: none when X's targets or Y's sources
		// are kept, or when either side joins no kept event to a
		// removed one (closed). Then X;Y is exact (grows) when X and Y
		// are. A path x→m→y with y kept has m kept too when Y is back.
		// Nor when no pair of X goes from a kept event to a removed one.
		//
		// With silent retries, what Y may gain or lose at gap accesses
		// (TestTags.GapFree) X;Y does not when no pair of X ends at one,
		// X gaining none. The paths po-loc; [W]; po-loc loses start at
		// gap accesses: every write between their ends is removed. The
		// paths of two relations along po that it loses span a removed
		// event.
		killed := re.changes() && re.gapOnly && le.grows == nil && le.gapFree
		if killed {
			out.shrinks, out.grows = le.shrinks, le.grows
		}
		lost := !(le.rngKept || re.domKept || le.closed || re.closed || re.back || le.fromKept)
		localSuccessor := le.shape == "po-loc;[W]" && re.shape == "po-loc" || (le.shape == "po-loc" || le.shape == "po-loc?") && re.shape == "[W];po-loc"
		switch {
		case lost && localSuccessor && a.silent:
			out.shrinks = first(out.shrinks, causeAt(x, whyGap))
		case lost:
			out.shrinks = first(out.shrinks, causeAt(x, whyPath))
		}
		out.gapOnly = le.gapChanges() && (killed || !re.changes() || re.gapOnly && le.shape == "id") && (!lost || localSuccessor)
		out.spanOnly = (!lost || le.poOrID && re.poOrID) &&
			(!le.changes() || le.spanOnly && re.poOrID && re.spanChanges()) &&
			(!re.changes() || killed || re.spanOnly && le.poOrID && le.spanChanges())
		out.poOrID, out.gapFree = le.poOrID && re.poOrID, re.gapFree
		out.noSpan = le.shape == "id" && re.noSpan || re.shape == "id" && le.noSpan
		// [S]; X and X; [S] hold some of X's pairs.
		out.endAway = (le.shape == "id" || re.shape == "id") && (le.endAway || re.endAway)
		out.noInit = le.shape == "id" && re.noInit || re.shape == "id" && le.noInit || le.noInit && re.noInit
		out.back = le.back && re.back
		out.fromKept = le.fromKept && re.fromKept
		out.domKept = le.domKept || (le.closed && re.domKept)
		out.rngKept = re.rngKept || (re.closed && le.rngKept)
		out.closed = le.closed && re.closed
		out.empty = le.empty || re.empty
		out.within = le.within
		switch {
		case le.shape == "po" && re.shape == "po":
			out.shape = "po;po"
		case le.shape == "rf^-1" && re.shape == "co":
			out.shape = "com" // fr, as herd's cos.cat computes it
		case (le.shape == "po-loc" || le.shape == "po-loc?") && re.shape == "id" && re.within == "W":
			out.shape = "po-loc;[W]"
		case le.shape == "id" && le.within == "W" && re.shape == "po-loc":
			out.shape = "[W];po-loc"
		case le.shape == "id":
			out.shape = within(re.shape) // [S]; X is within what X is within
		case re.shape == "id":
			out.shape = within(le.shape)
		case locOrID(le.shape) && locOrID(re.shape):
			// Both join events of one location, or an event to itself.
			out.shape = "loc?"
			if sameLoc(le.shape) || sameLoc(re.shape) {
				out.shape = "loc"
			}
		}
	default:
		return unknown(x, "an operator purr does not follow")
	}
	return out.normalise()
}

// within is the shape that any part of a relation of that shape has:
// "loc", "int", "com" (see events.shape); "" for the others.
func within(shape string) string {
	switch shape {
	case "loc", "int", "com":
		return shape
	case "po-loc", "[W];po-loc":
		return "loc"
	case "rf", "co", "fr":
		return "com"
	}
	return ""
}

// sameLoc tells whether a relation of that shape joins events of one
// location only; locOrID, whether it may also join an event to itself
// (a fence: loc holds no such pair).
func sameLoc(shape string) bool { return within(shape) == "loc" || within(shape) == "com" }
func locOrID(shape string) bool {
	return sameLoc(shape) || shape == "id" || shape == "loc?" || shape == "po-loc?"
}

// firstAccesses tells whether x & y joins no kept event to a removed one
// because of TestTags.SilentFirst: x is po and y loc, or x is int and y
// rf, co or fr in a model that keeps each location sequentially
// consistent (a pair against po would break it; along po, the kept event
// would be an earlier access of the removed one's location).
func (a *retries) firstAccesses(x, y *events) bool {
	if !a.silent || !a.tags.SilentFirst {
		return false
	}
	return x.shape == "po" && y.shape == "loc" || a.coherent && x.shape == "int" && within(y.shape) == "com"
}

// changesOf gives x | y, x & y or x \ y, which gains or loses only pairs
// x or y gains or loses, the facts about their changes both have.
func (out *events) changesOf(x, y *events) {
	out.gapOnly = x.gapChanges() && y.gapChanges()
	out.spanOnly = x.spanChanges() && y.spanChanges()
}

// unspanned is y in x & y or x \ y, less its changes when they all have
// a removed event between their ends in program order and no pair of x
// does, x gaining none: no pair of x is among them.
func unspanned(y, x *events) *events {
	if !y.changes() || !y.spanOnly || !x.noSpan || x.grows != nil {
		return y
	}
	out := *y
	out.shrinks, out.grows, out.spanOnly, out.gapOnly = nil, nil, false, false
	return &out
}

// flipped is the cause of the opposite change of Y in X \ Y or ~Y: at the
// operator, naming what Y does (how says what the operator does with Y).
func flipped(how string, c *cause, x ast.Node, y *events) *cause {
	if c == nil {
		return nil
	}
	verb := "may grow"
	if c == y.shrinks {
		verb = "may shrink"
	}
	return causeAt(x, how+" "+c.text+" ("+c.pos.String()+"), which "+verb+": "+c.why)
}

// isNothing tells whether v is the empty value (0, {}).
func isNothing(v value) bool {
	e, ok := v.(*events)
	return ok && e.empty
}

// setOp is a union, intersection or difference of sets of values. A
// union lists both sides' members; the others test members for equality,
// which the analysis decides only between tags.
func setOp(x *ast.Binary, l, r *absSet) value {
	switch x.Op {
	case ast.Union:
		return &absSet{elems: append(append([]value(nil), l.elems...), r.elems...), open: first(l.open, r.open)}
	case ast.Inter, ast.Diff:
		if l.open == nil && r.open == nil && allTags(l.elems) && allTags(r.elems) {
			out := &absSet{}
			for _, e := range l.elems {
				in := false
				for _, f := range r.elems {
					in = in || e == f
				}
				if in == (x.Op == ast.Inter) {
					out.elems = append(out.elems, e)
				}
			}
			return out
		}
		return &absSet{elems: l.elems, open: first(l.open, causeAt(x, "which of its members remain may depend on the execution"))}
	}
	return unknown(x, "an operator purr does not follow on sets of values")
}

func allTags(vs []value) bool {
	for _, v := range vs {
		if t, ok := v.(absTag); !ok || t == "" {
			return false
		}
	}
	return true
}

// add is e ++ S on a listed set of values.
func (a *retries) add(x *ast.Binary, e, s value) value {
	if _, ok := e.(absMember); ok {
		if isNothing(s) {
			return memberSingleton()
		}
		return a.binary(&ast.Binary{Op: ast.Union, X: x.X, Y: x.Y, Pos: x.Pos}, memberSingleton(), s)
	}
	if isNothing(s) {
		return &absSet{elems: []value{e}}
	}
	if set, ok := s.(*absSet); ok {
		return &absSet{elems: append([]value{e}, set.elems...), open: set.open}
	}
	return unknown(x, "adds a member to a set or relation purr does not follow")
}

func (a *retries) unary(x *ast.Unary, v value) value {
	e, ok := v.(*events)
	if !ok {
		return unknown(x, "an operand purr does not follow")
	}
	out := &events{shrinks: e.shrinks, grows: e.grows}
	switch x.Op {
	case ast.ToID:
		// [S'] against [S|K]: as S; its pairs join an event to itself.
		out.domKept, out.rngKept, out.closed, out.empty = e.domKept, e.domKept, true, e.empty
		out.within, out.back, out.shape = e.within, true, "id"
		out.gapOnly, out.gapFree, out.poOrID, out.noSpan = e.gapOnly, e.gapFree, true, true
		out.endAway, out.noInit = a.endOff(e), e.noInits
	case ast.Compl:
		// ~X' = K \ X' against K \ X: what X loses, ~X gains.
		if e.empty {
			return exact() // every event, or every pair
		}
		out.shrinks, out.grows = flipped("the complement of", e.grows, x, e), flipped("the complement of", e.shrinks, x, e)
		out.gapOnly, out.spanOnly = e.gapOnly, e.spanOnly // it changes where X does
		out.awayFrom, out.covering, out.noInits = e.covering, e.awayFrom, e.inits
	case ast.Inverse:
		out.domKept, out.rngKept, out.closed, out.empty = e.rngKept, e.domKept, e.closed, e.empty
		out.fromKept, out.back = e.back, e.fromKept     // the one's pairs are the other's backwards
		out.spanOnly, out.noSpan = e.spanOnly, e.noSpan // between its ends either way
		out.endAway, out.noInit, out.transitive = e.endAway, e.noInit, e.transitive
		out.domCovering, out.rngCovering = e.rngCovering, e.domCovering
		switch {
		case e.shape == "rf":
			out.shape = "rf^-1"
		case sameLoc(e.shape):
			out.shape = "loc"
		}
	case ast.Plus, ast.Star:
		// Paths of X' against paths of X between kept events: those
		// through a removed event are lost, unless every step starts or
		// ends in a kept event, or X joins no kept event to a removed one.
		// Nor when X is transitive on E: X+ is X there, X' as much as
		// X does not shrink.
		if !(e.domKept || e.rngKept || e.closed || e.back || e.fromKept || e.transitive) {
			out.shrinks = first(out.shrinks, causeAt(x, whyPath))
		}
		out.transitive = true
		if x.Op == ast.Plus && sameLoc(e.shape) {
			out.shape = "loc"
		}
		out.closed, out.empty, out.back, out.fromKept = e.closed, e.empty && x.Op == ast.Plus, e.back, e.fromKept
		if x.Op == ast.Plus {
			out.domKept, out.rngKept, out.gapFree = e.domKept, e.rngKept, e.gapFree
		}
		// A path along po that loses a step or a removed event in it
		// spans one.
		out.poOrID, out.spanOnly = e.poOrID, e.poOrID && e.spanChanges()
	case ast.Opt:
		// X' ∪ id against X|K ∪ id|K: as X.
		out.closed, out.back, out.fromKept = e.closed, e.back, e.fromKept
		out.gapOnly, out.spanOnly, out.poOrID, out.noSpan = e.gapOnly, e.spanOnly, e.poOrID, e.noSpan
		switch {
		case e.shape == "po-loc":
			out.shape = "po-loc?"
		case sameLoc(e.shape):
			out.shape = "loc?"
		}
	default:
		return unknown(x, "an operator purr does not follow")
	}
	return out.normalise()
}

// apply applies a function: a closure's body is analysed with its
// arguments' abstract values, to a bounded depth.
func (a *retries) apply(x *ast.App, f, arg value) value {
	switch f := f.(type) {
	case *closure:
		if v, ok := a.libraryFamily(x, f, arg); ok {
			return v
		}
		if a.depth >= retriesDepth {
			return unknown(x, "calls nest too deep for purr to follow")
		}
		inner := f.env.child()
		a.bindParams(x, f.params, arg, inner)
		a.depth++
		v := a.expr(f.body, inner)
		a.depth--
		if f.body.Position().File == preludeFile && x.Pos.File != preludeFile {
			v = relocated(v, x)
		}
		return v
	case absBuiltin:
		return a.builtin(x, string(f), arg)
	}
	return unknown(x, "applies a value purr does not follow as a function")
}

// relocated moves the causes found in purr's prelude to the model's call
// (see atCallSite).
func relocated(v value, x *ast.App) value {
	switch v := v.(type) {
	case *events:
		out := *v
		move := func(c *cause) *cause {
			if c == nil || c.pos.File != preludeFile {
				return c
			}
			return causeAt(x, "in purr's prelude, "+c.text+": "+c.why)
		}
		out.shrinks, out.grows = move(v.shrinks), move(v.grows)
		return &out
	case absTuple:
		out := make(absTuple, len(v))
		for i, e := range v {
			out[i] = relocated(e, x)
		}
		return out
	}
	return v
}

func (a *retries) builtin(x *ast.App, name string, arg value) value {
	switch name {
	case "domain", "range":
		e, ok := arg.(*events)
		if !ok {
			return unknown(x, "an argument purr does not follow")
		}
		// domain(X') against domain(X)|K: an event loses its place when
		// all its pairs lead into D; none do when the other end is kept
		// or X is closed.
		out := &events{shrinks: e.shrinks, grows: e.grows, closed: true, empty: e.empty}
		end, other := e.domKept, e.rngKept
		if name == "range" {
			// A kept member's pair starts at a kept event when X is back.
			end, other = e.rngKept, e.domKept || e.back
		}
		if !(other || e.closed) {
			out.shrinks = first(out.shrinks, causeAt(x, whyDomain))
		}
		out.domKept, out.rngKept = end, end
		out.covering = e.domCovering
		if name == "range" {
			out.covering = e.rngCovering
		}
		return out.normalise()
	case "different-values":
		// The pairs of X whose events' values differ: kept events keep
		// their values.
		if e, ok := arg.(*events); ok {
			return e
		}
		return unknown(x, "an argument purr does not follow")
	case "fail":
		a.failed = true
		return unknown(x, "fail")
	case "oa-changes", "at-least-one-writable", "same-oa":
		return nothing() // no page tables
	case "classes", "classes-loc", "linearisations":
		return &absSet{open: causeAt(x, "its members depend on the execution")}
	}
	return unknown(x, "a builtin purr does not follow")
}
