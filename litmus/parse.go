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
	s, err := SplitTest(filename, src, func(arch string) bool { return arch != "C" && arch != "CPP" })
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
	c, err := ParseConstraints(s.Cond)
	if err != nil {
		return nil, err
	}
	t.Locations, t.Filter, t.Quant, t.Cond, t.CondPos = c.Locations, c.Filter, c.Quant, c.Cond, c.Pos
	// Before the dialect renames registers and labels: herd hashes them
	// as written.
	t.hashInit, t.hashObserved = hashInitText(t.Init), hashObservedText(t.Locations, t.Cond)
	if t.Program, err = dialect(t, s.Prog, opts); err != nil {
		return nil, err
	}
	if t.Program != nil {
		t.Program.Name, t.Program.Arch = t.Name, t.Arch
		if err := checkThreadRefs(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}
