package eval

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/purr-mcm/purr/cat"
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
}

// Run evaluates the model over the algebra, on top of the sets and
// relations herd7 predefines for the test (rels["co"] is the co that
// "with co from ..." binds), and returns the model's checks in order. It
// gives up, returning ctx.Err(), when ctx is done.
func Run[L comparable](ctx context.Context, m Model, al *Algebra[L], sets map[string]Set[L], rels map[string]Rel[L]) ([]Check[L], error) {
	prelude, wf, err := library()
	if err != nil {
		return nil, fmt.Errorf("purr's library: %v", err)
	}
	top := &env{vars: map[string]value{}}
	for name, fn := range builtins[L]() {
		top.vars[name] = &builtin[L]{name: name, fn: fn}
	}
	for _, tag := range knownTags {
		top.vars[tag] = al.EmptySet()
	}
	for name, s := range sets {
		top.vars[name] = s
	}
	for name, r := range rels {
		top.vars[name] = r
	}
	ev := &evaluator[L]{ctx: ctx, al: al, variants: map[string]bool{}, included: map[string]bool{}, co: rels["co"]}
	for _, v := range m.Variants {
		ev.variants[v] = true
	}
	sc, err := ev.run(prelude.Stmts, top)
	if err != nil {
		return nil, err
	}
	if _, err := ev.run(m.Cat.Stmts, sc); err != nil {
		return nil, err
	}
	if !m.SkipWellFormed {
		if _, err := ev.run(wf.Stmts, sc); err != nil {
			return nil, err
		}
	}
	return ev.checks, nil
}

// Library files, parsed once.
var (
	libOnce           sync.Once
	libPrelude, libWF *cat.File
	libErr            error
)

func library() (*cat.File, *cat.File, error) {
	libOnce.Do(func() {
		read := func(name string) *cat.File {
			src, err := stdlib.FS.ReadFile(name)
			if err != nil {
				libErr = err
				return nil
			}
			f, err := cat.Parse(name, src)
			if err != nil {
				libErr = err
			}
			return f
		}
		libPrelude = read("prelude.cat")
		libWF = read("wellformed.cat")
	})
	return libPrelude, libWF, libErr
}

// knownTags are the event tags of every architecture purr reads; a model
// may name any of them, and those no event carries are empty sets.
var knownTags = strings.Fields(`
	A Q L X NoRet NExp
	TLBI TLBIIS TLBInXS DC.CVAU IC.IVAU IC.IALLU IC.IALLUIS TagCheck EXC-RET EXC-ENTRY FAULT T SPURIOUS
	BCC DATA Rreg
	DMB.SY DMB.LD DMB.ST DMB.ISH DMB.ISHLD DMB.ISHST DMB.OSH DMB.OSHLD DMB.OSHST DMB.NSH DMB.NSHLD DMB.NSHST
	DSB.SY DSB.LD DSB.ST DSB.ISH DSB.ISHLD DSB.ISHST DSB.OSH DSB.OSHLD DSB.OSHST DSB.NSH DSB.NSHLD DSB.NSHST
	ISB
	NA RLX ACQ REL ACQ_REL SC CON
	Once Acquire Release Noreturn Mb Rmb Wmb Rb_dep Before-atomic After-atomic After-spinlock After-unlock-lock Rcu-lock Rcu-unlock Sync-rcu RMW`)
