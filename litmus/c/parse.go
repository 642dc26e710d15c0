package c

import (
	"fmt"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
	"github.com/purr-mcm/purr/xcfa"
)

const sample = `C sample
{ int x = 0; atomic_int y = 0; }
P0(int *x, atomic_int *y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_release);
}
P1(int *x, atomic_int *y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = -1;
  if (r0 == 1) { r1 = *x; }
}
exists (1:r0=1 /\ 1:r1=0)
`

func init() {
	litmus.RegisterDialect(litmus.Dialect{Arch: "C", Translate: Translate, Model: "rc11", Layout: litmus.Functions, Sample: sample,
		Tags: strings.Fields(
			// Memory orders.
			`NA RLX ACQ REL ACQ_REL SC CON` +
				// herd's lock events (LK, LS of C11's mutexes; the Linux
				// spinlock's LKR, LKW, UL, LF, RL, RU) and the RCU fences,
				// which herd7 defines for every C test. The other Linux
				// annotations (Once, Mb, Srcu-lock...) are a bell's: its
				// enums define them.
				` LK LS UL LKR LKW LF RL RU Rcu-lock Rcu-unlock Sync-rcu` +
				// Messages: send(x, v) and recv(x) (docs/protocols.md).
				` SEND RECV`)})
}

// Translate parses the program part of a C litmus test and builds its XCFA.
// It is the dialect registered with package litmus for "C".
func Translate(t *litmus.Test, prog litmus.Section, opts litmus.Options) (*xcfa.Program, error) {
	var macros *Macros
	if opts.Macros != nil {
		m, ok := opts.Macros.(*Macros)
		if !ok {
			return nil, fmt.Errorf("%s: not a C macro file", opts.Macros.Path())
		}
		macros = m
	}
	tree, err := parseProgram(prog.File, withoutRegions(prog.Padded()))
	if err != nil {
		return nil, err
	}
	t.HashCode = hashCode(tree)
	p, err := translateProgram(prog.File, tree, macros, slices.Contains(opts.Variants, "lkmmv2"))
	if err != nil {
		return nil, err
	}
	p.Name, p.Arch = t.Name, t.Arch
	return p, nil
}

// TranslateSource parses src as the program part alone (thread functions,
// no header, initial state or condition) and builds its XCFA. Positions are
// those of src.
func TranslateSource(file string, src []byte, macros *Macros) (*xcfa.Program, error) {
	tree, err := parseProgram(file, string(src))
	if err != nil {
		return nil, err
	}
	return translateProgram(file, tree, macros, false)
}

func parseProgram(file, text string) (*cast.Program, error) {
	return cparser.Parse(file, text)
}
