package herd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/litmus"
)

// herd7's -variant names two things at once: variants of the Cat model
// (`if "x"`), which purr honours, and switches of herd7's own semantics of
// instructions, which change the events a test has before any model runs.
// purr models none of the latter: a run that sets one is refused (with the
// .cfg line that sets it) rather than answered with purr's semantics, which
// is not what herd7 answers (under `variant deps`, herd's catalogue test
// LB6b is allowed, and forbidden without it).

// semanticVariants maps each of herd7's semantic variant names (as
// herd7 spells them, lower case: herd7 ignores the case) to what it
// switches on.
var semanticVariants = map[string]string{}

func init() {
	for reason, names := range map[string][]string{
		"the speculative execution of both sides of branches, with dependencies computed in Cat": {"deps", "instances", "instance"},
		"mixed-size accesses":                   {"mixed", "unaligned"},
		"the Memory Tagging Extension":          {"memtag", "tagmem", "mte"},
		"exception entry and return (FEAT_ExS)": {"exs", "eis", "eos"},
		"virtual memory (translation table walks and TLBs)": {"vmsa", "kvm", "ets", "ets2",
			"noptebranch", "nobranch", "pte2", "pte-squared", "phantomonload", "nv2", "toofar"},
		"instruction fetch (self-modifying code)":                  {"ifetch", "self", "dic", "idc"},
		"Morello capabilities":                                     {"morello"},
		"vector registers":                                         {"neon"},
		"constrained unpredictable exclusives":                     {"constrainedunpredictable", "cu"},
		"predicated instructions that perform no unselected event": {"notweakpredicated", "notweakpred"},
		"other dependencies of store-exclusives":                   {"switchdepscwrite", "switchdepscresult", "fullscdepend", "scdepend"},
		"its alternative read-modify-write and store-conditional events": {"normw", "splittedrmw", "specialx0",
			"amox0", "x0", "success", "lrscdiffok", "acqrelasfence"},
		"its internal switches (backward compatibility, experiments, tests)": {"backcompat", "back", "instr",
			"exp", "telechat", "test"},
	} {
		for _, n := range names {
			semanticVariants[n] = reason
		}
	}
}

// checkVariant refuses a variant that switches one of herd7's
// semantics purr does not model. The variants that do not change herd7's
// answers on what purr runs pass, as every other name (a Cat variant):
// herd's ASL interpretation of instructions (asl, strict, warn, ...: the
// same answers, by design), its optimisations (cos-opt, OptRfRMW) and the
// handling of faults and tag mismatches (fatal, skip, handled, sync, async,
// asym: there are none without tags or virtual memory, which are refused).
func checkVariant(name string) error {
	lower := strings.ToLower(name)
	reason, ok := semanticVariants[lower]
	if !ok && len(lower) == 3 && lower[0] == 't' && isDigit(lower[1]) && isDigit(lower[2]) {
		reason, ok = semanticVariants["test"], true // herd7's T00 to T99
	}
	if !ok {
		return nil
	}
	return fmt.Errorf("variant %s makes herd7 model %s, which purr does not: its answers could differ from herd7's", name, reason)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// testVariants returns the variants a test runs with: the run's, and those
// its own Variant= lines add, as herd7 adds them for that test. A semantic
// variant there is refused at its line.
func testVariants(t *litmus.Test, run []string) ([]string, error) {
	variants := run
	for _, kv := range t.Info {
		if !strings.EqualFold(kv.Key, "Variant") { // herd's catalogue writes variant= too
			continue
		}
		for _, v := range strings.FieldsFunc(kv.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			if err := checkVariant(v); err != nil {
				return nil, litmus.Errorf(kv.Pos, "%v", err)
			}
			if !slices.Contains(variants, v) {
				variants = append(slices.Clip(variants), v)
			}
		}
	}
	return variants, nil
}
