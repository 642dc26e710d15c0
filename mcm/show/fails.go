package show

import "github.com/purr-mcm/purr/mcm/outcome"

// checkPalette colours the checks an execution fails, in turn: bright
// colours that a wide, pale halo keeps apart from the relations' arrows.
var checkPalette = []string{"#e6007e", "#00a86b", "#7a3cff", "#ff8c00", "#0096c7", "#b8860b",
	"#8b0000", "#5f9ea0", "#9acd32", "#ff69b4"}

// CheckColours gives each check named a colour of its own, the palette's
// in turn, so that pictures and the legends built from the same names
// match.
func CheckColours(checks []string) map[string]string {
	cs := map[string]string{}
	for _, c := range checks {
		if _, done := cs[c]; !done {
			cs[c] = checkPalette[len(cs)%len(checkPalette)]
		}
	}
	return cs
}

// FailedChecks lists the checks the executions fail, each once, in the
// order met.
func FailedChecks(xs []outcome.Execution) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		for _, f := range x.Fails {
			if !seen[f.Check] {
				seen[f.Check] = true
				out = append(out, f.Check)
			}
		}
	}
	return out
}

// Member returns the event a failure's witness names by itself, a
// member of an empty check's set, and whether it names one; other
// witnesses are edges (a cycle, a reflexive pair, a pair of a relation).
func Member(x *outcome.Execution, f outcome.Failure) (int, bool) {
	if len(f.Witness) != 1 || f.Kind != "empty" {
		return 0, false
	}
	e := f.Witness[0]
	return e.From, e.From == e.To && EdgeNames(x, e) == ""
}
