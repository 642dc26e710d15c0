package asm

import (
	"slices"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/source"
)

// Symbolic describes the symbolic registers (%name, herd7's Symbolic_reg)
// of a program: the threads that use each, and the registers each thread
// names in its code.
type Symbolic struct {
	// Users lists, for each symbolic register (with its %), the threads
	// whose code uses it, each once, in order.
	Users map[string][]int
	// CodeRegs are, per thread, the architectural registers its code
	// names, as the XCFA names them.
	CodeRegs []map[string]bool
}

// Use records that thread uses the register named name: symbolic when it
// starts with %.
func (s *Symbolic) Use(thread int, name string) {
	for len(s.CodeRegs) <= thread {
		s.CodeRegs = append(s.CodeRegs, map[string]bool{})
	}
	if !strings.HasPrefix(name, "%") {
		s.CodeRegs[thread][name] = true
		return
	}
	if s.Users == nil {
		s.Users = map[string][]int{}
	}
	if !slices.Contains(s.Users[name], thread) {
		s.Users[name] = append(s.Users[name], thread)
	}
}

// Place gives the symbolic registers of t's initial state their thread.
// herd7 allocates each symbolic register of a thread to a free register of
// that thread (one of allowed that neither its code nor the state or the
// condition names for it) and hashes the test before; a dialect that keeps
// a symbolic register as the XCFA register of its name ("%x0") computes
// the same executions, and the initial state's %x0=x becomes the register
// %x0 of the thread that uses it. Place refuses what herd7 refuses (a
// symbolic register of the state that no code uses, or that two threads
// use; more symbolic registers in a thread than it has free registers)
// and a symbolic register in the condition, the locations or the filter,
// which herd7 prints as the register it allocates. Call it after the
// dialect has renamed the registers.
func (s *Symbolic) Place(t *litmus.Test, allowed []string) error {
	var errs source.ErrorList
	refuse := func(l litmus.Loc) {
		if l.Kind == litmus.SymRegLoc {
			errs = append(errs, source.Errorf(l.Pos, "unsupported symbolic register %%%s in the condition: herd7 prints it as the register it allocates", l.Name))
		}
	}
	litmus.EachLoc(t.Cond, refuse)
	if t.Filter != nil {
		litmus.EachLoc(t.Filter, refuse)
	}
	for _, l := range t.Locations {
		refuse(l.Loc)
	}
	constrained := map[int]map[string]bool{}
	note := func(l litmus.Loc) {
		if l.Kind == litmus.RegLoc {
			if constrained[l.Proc] == nil {
				constrained[l.Proc] = map[string]bool{}
			}
			constrained[l.Proc][l.Name] = true
		}
	}
	for _, in := range t.Init {
		note(in.Loc)
	}
	litmus.EachLoc(t.Cond, note)
	for i := range t.Init {
		l := &t.Init[i].Loc
		if l.Kind != litmus.SymRegLoc {
			continue
		}
		name := "%" + l.Name
		switch users := s.Users[name]; len(users) {
		case 0:
			errs = append(errs, source.Errorf(l.Pos, "symbolic register %s does not appear in code", name))
		case 1:
			*l = litmus.Loc{Kind: litmus.RegLoc, Proc: users[0], Name: name, Pos: l.Pos}
		default:
			errs = append(errs, source.Errorf(l.Pos, "ambiguous symbolic register %s: threads P%d and P%d use it (herd7 refuses it)", name, users[0], users[1]))
		}
	}
	symbols := make([]int, len(s.CodeRegs))
	for _, users := range s.Users {
		for _, th := range users {
			symbols[th]++
		}
	}
	for th, n := range symbols {
		free := 0
		for _, r := range allowed {
			if !s.CodeRegs[th][r] && !constrained[th][r] {
				free++
			}
		}
		if n > free {
			errs = append(errs, source.Errorf(t.CondPos, "not enough registers for the %d symbolic registers of P%d (herd7 refuses it)", n, th))
		}
	}
	return errs.Err()
}
