package litmus

import (
	"slices"
	"strings"
)

// Parse reads a litmus test: it splits the file, parses the initial state
// and the final part with the shared grammar, and hands the program part
// to the dialect registered for the test's architecture.
func Parse(filename string, src []byte) (*Test, error) {
	return ParseWith(filename, src, Options{})
}

// ParseWith is Parse with options for the dialect (C: herd's macro file).
func ParseWith(filename string, src []byte, opts Options) (*Test, error) {
	// An architecture no dialect reads is split as columns, then refused.
	s, err := SplitTest(filename, src, func(arch string) bool { return dialects[arch].Layout == Columns })
	if err != nil {
		return nil, err
	}
	dialect, ok := dialects[s.Arch]
	if !ok {
		known := Dialects()
		slices.Sort(known)
		return nil, Errorf(s.ArchPos, "unsupported architecture %q (purr reads %s)", s.Arch, strings.Join(known, ", "))
	}
	t := &Test{File: filename, Arch: s.Arch, Name: s.Name, Doc: s.Doc, Info: s.Info,
		Quant: Forall, Cond: Bool{Value: true}, CondPos: s.Cond.StartPos()}
	if t.Init, err = ParseInit(s.Init); err != nil {
		return nil, err
	}
	if err := checkInitOnce(t.Init, false); err != nil {
		return nil, err
	}
	c, err := ParseConstraints(s.Cond)
	if err != nil {
		return nil, err
	}
	t.Locations, t.Filter, t.Quant, t.Cond, t.CondPos = c.Locations, c.Filter, c.Quant, c.Cond, c.Pos
	// Before the dialect renames registers and labels: herd hashes them
	// as written.
	t.hashInit, t.hashObserved = hashInitText(t.Init), hashObservedText(t.Locations, t.Cond)
	if t.Program, err = dialect.Translate(t, s.Prog, opts); err != nil {
		return nil, err
	}
	if t.Program != nil {
		t.Program.Name, t.Program.Arch = t.Name, t.Arch
		if err := checkInitOnce(t.Init, true); err != nil {
			return nil, err
		}
		if err := checkThreadRefs(t); err != nil {
			return nil, err
		}
		if err := checkConditionAtoms(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkConditionAtoms refuses, with its position, an atom of the filter or
// the condition the engines cannot evaluate (fault(...): purr builds no
// fault events; values it has no semantics for), so that no test fails
// later, while it runs.
func checkConditionAtoms(t *Test) error {
	var walk func(p Prop) error
	walk = func(p Prop) error {
		switch p := p.(type) {
		case Not:
			return walk(p.X)
		case And:
			return firstErr(walk(p.X), walk(p.Y))
		case Or:
			return firstErr(walk(p.X), walk(p.Y))
		case Implies:
			return firstErr(walk(p.X), walk(p.Y))
		case Bool, LocEq, nil:
			return nil
		case Eq:
			return checkConditionValue(p)
		case *Fault:
			return Errorf(p.Pos, "unsupported fault(...) in a condition: purr does not model faults")
		}
		return Errorf(t.CondPos, "unsupported condition %s", FormatProp(p))
	}
	return firstErr(walk(t.Filter), walk(t.Cond))
}

// checkConditionValue refuses the values of loc=v the engines do not
// compare: instructions, tags and tagged addresses (x:green, of herd7's
// memory tagging), and a list of values for anything but an array.
func checkConditionValue(p Eq) error {
	v := p.Value
	switch {
	case v.Kind == InstrValue || v.Kind == TagValue || v.Kind == AddrValue && v.Tag != "":
		return Errorf(v.Pos, "unsupported value %s in a condition", v)
	case v.Kind == ArrayValue && p.Loc.Kind != GlobalLoc:
		return Errorf(v.Pos, "unsupported list of values for %s, which is not an array", p.Loc)
	}
	for _, e := range v.Elems {
		if err := checkConditionValue(Eq{Loc: Loc{Kind: GlobalLoc}, Value: e}); err != nil {
			return err
		}
	}
	return nil
}
