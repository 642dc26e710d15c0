package mcm

import "testing"

// TestAtomicRMWVariant checks the variant atomic-rmw of sc, tso and pso:
// an AArch64 swap that reads a write co-after its own is allowed as herd's
// sc.cat allows it, and forbidden with the variant, as under aarch64.
func TestAtomicRMWVariant(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/classic/SWP+later-write.litmus"))
	for _, tt := range []struct {
		model    string
		variants []string
		want     string
	}{
		{"sc", nil, "Ok"},
		{"sc", []string{"atomic-rmw"}, "No"},
		{"tso", nil, "Ok"},
		{"tso", []string{"atomic-rmw"}, "No"},
		{"pso", nil, "Ok"},
		{"pso", []string{"atomic-rmw"}, "No"},
		{"aarch64", nil, "No"},
	} {
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(embeddedModel(t, tt.model), test, Options{Unroll: 2, Variants: tt.variants, Engine: engine})
			if err != nil {
				t.Fatalf("%s %v: %v", tt.model, tt.variants, err)
			}
			if got := out.Result(test, false).Verdict.String(); got != tt.want {
				t.Errorf("%s %v, %s engine: %s, want %s", tt.model, tt.variants, engine, got, tt.want)
			}
		}
	}
}
