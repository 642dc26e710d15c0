package litmus

import "regexp"

// herd7's extensions write system state into a test's initial state and
// condition: page-table entries and physical addresses (virtual memory),
// interrupt-controller state (GIC) and memory tags.
// purr models none of them, and its grammar does not read them; when a
// section fails to parse, its first such form is reported with what it
// belongs to, rather than the parser's token-level complaints.
var herdSystemState = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\b(PTE|PA|TLB)\s*\(|\bpteval_t\b|\(\s*oa\s*:`),
		"page-table entries and physical addresses (herd7's virtual memory, variant vmsa)"},
	{regexp.MustCompile(`\bINTID\s*\(|\b(gicval_t|intval_t)\b`),
		"interrupt-controller state (herd7's GIC extension)"},
	{regexp.MustCompile(`\b(?i:tag)\s*\(|:\s*(red|green|blue)\b`),
		"memory tags (herd7's Memory Tagging Extension, variant memtag)"},
}

// herdSystemStateError returns an error at the first of herd7's
// system-state forms in the section, or nil if it has none.
func herdSystemStateError(sec Section) error {
	text := sec.Src[sec.Start:sec.End]
	first, what := -1, ""
	for _, f := range herdSystemState {
		if loc := f.re.FindIndex(text); loc != nil && (first < 0 || loc[0] < first) {
			first, what = loc[0], f.what
		}
	}
	if first < 0 {
		return nil
	}
	return Errorf(sec.Pos(sec.Start+first), "unsupported %s: purr does not model them", what)
}
