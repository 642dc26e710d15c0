package asm

import (
	"fmt"
	"slices"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// Table is a parsed program section: the threads' names and the rows of
// cells, one cell a thread.
type Table[I any] struct {
	Procs    []Proc
	Rows     [][]Cell[I]
	RowPos   []source.Pos
	FinalPos source.Pos // the end of the section, where the code ends
}

// Proc is a thread's head: P0, P1, ...
type Proc struct {
	Name string
	Pos  source.Pos
}

// Cell is one thread's part of a row.
type Cell[I any] struct {
	Labels []Label
	Instr  *I // nil: no instruction
}

// Label is a code label a cell defines.
type Label struct {
	Name string
	Pos  source.Pos
}

// HashCode prints every thread of t as herd7 does for the test's hash: a
// line "L:" a label, a line an instruction as print gives it. herd7
// renames the labels L00, L01, ... in the sorted order of every label the
// program defines or names; target gives the label an instruction names,
// if any.
func HashCode[I any](t *Table[I], target func(*I) (string, bool), print func(in *I, rename map[string]string) string) [][]string {
	rename := hashLabels(t, target)
	code := make([][]string, len(t.Procs))
	for i := range code {
		code[i] = []string{}
	}
	for _, row := range t.Rows {
		for col, c := range row {
			if col >= len(code) {
				continue
			}
			for _, l := range c.Labels {
				code[col] = append(code[col], rename[l.Name]+":")
			}
			if c.Instr != nil {
				code[col] = append(code[col], print(c.Instr, rename))
			}
		}
	}
	return code
}

func hashLabels[I any](t *Table[I], target func(*I) (string, bool)) map[string]string {
	set := map[string]bool{}
	for _, row := range t.Rows {
		for _, c := range row {
			for _, l := range c.Labels {
				set[l.Name] = true
			}
			if c.Instr != nil {
				if name, ok := target(c.Instr); ok {
					set[name] = true
				}
			}
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	rename := make(map[string]string, len(names))
	for i, n := range names {
		rename[n] = fmt.Sprintf("L%02d", i)
	}
	return rename
}

// threads checks the table's thread heads (P0, P1, ... in order, as
// herd7 wants them) and its rows (one cell a thread), and gives each
// thread its XCFA process, in the table's order.
func (t *Table[I]) threads() ([]*xcfa.Process, error) {
	procs := make([]*xcfa.Process, len(t.Procs))
	for i, ph := range t.Procs {
		id, ok := ProcNumber(ph.Name)
		if !ok {
			return nil, source.Errorf(ph.Pos, "expected a thread name P0, P1, ..., found %q", ph.Name)
		}
		if err := litmus.CheckThreadOrder(ph.Pos, i, id); err != nil {
			return nil, err
		}
		procs[i] = xcfa.NewProcess(id)
	}
	for r, row := range t.Rows {
		if len(row) != len(t.Procs) {
			return nil, litmus.RowMismatch(t.RowPos[r], len(row), len(t.Procs))
		}
	}
	return procs, nil
}

// Translate builds prog's threads from the table (its heads and rows
// checked first): a Flow on each thread's process, handed to start (the
// dialect's builder wraps it); then, cell by cell, each thread's labels
// defined where they stand and its instruction given to instr; then every
// flow finished.
func (t *Table[I]) Translate(prog *xcfa.Program, start func(*Flow), instr func(thread int, in *I) error) error {
	procs, err := t.threads()
	if err != nil {
		return err
	}
	flows := make([]*Flow, len(procs))
	for i, p := range procs {
		prog.Procs = append(prog.Procs, p)
		flows[i] = NewFlow(p)
		start(flows[i])
	}
	for _, row := range t.Rows {
		for i, c := range row {
			for _, l := range c.Labels {
				if err := flows[i].Define(l.Name, l.Pos); err != nil {
					return err
				}
			}
			if c.Instr != nil {
				if err := instr(i, c.Instr); err != nil {
					return err
				}
			}
		}
	}
	for _, f := range flows {
		if err := f.Finish(); err != nil {
			return err
		}
	}
	return nil
}
