package mcm

import (
	"testing"

	"github.com/purr-mcm/purr/internal/family"
	"github.com/purr-mcm/purr/litmus"
)

// TestShortcutEncodingsAgree checks the encodings that take a shortcut
// against the algebra's general ones, in every execution of tests with
// read-modify-writes: the SAT engine's fr (a variable per pair, defined
// by clauses) against rf^-1; co composed, and an intersection with a
// composition, composed over the intersected pairs only, against the
// same composition bound to a name first (composed in full).
func TestShortcutEncodingsAgree(t *testing.T) {
	m := inlineModel(t, `"shortcuts"
let composed = (rf^-1; co) \ id
flag ~empty (fr \ composed) | (composed \ fr) as fr-differs
let c = fr; co
let left = rmw & (fr; co)
let right = (fr; co) & rmw
flag ~empty (left \ (rmw & c)) | ((rmw & c) \ left) as left-mask-differs
flag ~empty (right \ (rmw & c)) | ((rmw & c) \ right) as right-mask-differs
flag ~empty (po; po) & 0 as empty-mask-not-empty
`)
	tests := map[string]*litmus.Test{
		"SB+swps": parseTestFile(t, repoPath("testdata/classic/SB+swps.litmus")),
	}
	swaps, _ := family.Lookup("Swaps")
	lt, err := litmus.Parse("Swaps-3.litmus", []byte(swaps.Test(3)))
	if err != nil {
		t.Fatal(err)
	}
	tests["Swaps-3"] = lt
	for name, lt := range tests {
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(m, lt, Options{Unroll: 1, Engine: engine})
			if err != nil {
				t.Fatalf("%s, %s: %v", name, engine, err)
			}
			if len(out.Flags) != 0 || out.Positive+out.Negative == 0 {
				t.Errorf("%s, %s: flags %v, %d executions", name, engine, out.Flags, out.Positive+out.Negative)
			}
		}
	}
}
