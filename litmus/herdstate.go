package litmus

import (
	"regexp"
	"strings"
	"sync"

	"github.com/purr-mcm/purr/source"
)

// herd7's extensions write system state into a test's initial state and
// condition: page-table entries and physical addresses (virtual memory),
// interrupt-controller state (GIC), memory tags and code addresses as
// values (instruction fetch).
// purr models none of them, and its grammar does not read them; when a
// section fails to parse, its first such form is reported with what it
// belongs to, rather than the parser's token-level complaints. The
// expressions are compiled when a section fails, not at every start.
var herdSystemState = sync.OnceValue(func() []systemStateForm {
	return []systemStateForm{
		{regexp.MustCompile(`\b(PTE|PA|TLB)\s*\(|\bpteval_t\b|\(\s*(oa|valid|af|db|dbm|attrs)\s*:|\b(pte|phy)_\w`),
			"page-table entries and physical addresses (herd7's virtual memory, variant vmsa)"},
		{regexp.MustCompile(`\bINTID\s*\(|\b(gicval_t|intval_t)\b`),
			"interrupt-controller state (herd7's GIC extension)"},
		{regexp.MustCompile(`\blabel\s*:\s*"`),
			`label:"P:L" values (herd7's instruction-fetch spelling of code addresses; purr reads P:L, in an initial state only)`},
		{regexp.MustCompile(`\b(?i:tag)\s*\(|:\s*(red|green|blue)\b`),
			"memory tags (herd7's Memory Tagging Extension, variant memtag)"},
	}
})

type systemStateForm struct {
	re   *regexp.Regexp
	what string
}

// herdSystemStateError returns an error at the first of herd7's
// system-state forms in the section, or nil if it has none.
func herdSystemStateError(sec Section) error {
	text := sec.Src[sec.Start:sec.End]
	first, what := -1, ""
	for _, f := range herdSystemState() {
		if loc := f.re.FindIndex(text); loc != nil && (first < 0 || loc[0] < first) {
			first, what = loc[0], f.what
		}
	}
	if first < 0 {
		return nil
	}
	return source.Errorf(sec.Pos(sec.Start+first), "unsupported %s: purr does not model them", what)
}

// herdSystemSymbol describes a symbol herd7 reads as system state whatever
// the test's variants (its Constant.mk_sym): pte_x is the page-table entry
// of x, PTE(x), and phy_x its physical address, PA(x), both prefixes
// followed by at least one character. purr would take them for ordinary
// locations. It returns "" for any other name.
func herdSystemSymbol(name string) string {
	for _, f := range []struct{ prefix, spelled string }{{"pte_", "PTE"}, {"phy_", "PA"}} {
		if x, ok := strings.CutPrefix(name, f.prefix); ok && x != "" {
			return "unsupported " + name + ", herd7's old spelling of " + f.spelled + "(" + x +
				"): page-table entries and physical addresses (herd7's virtual memory, variant vmsa): purr does not model them"
		}
	}
	return ""
}
