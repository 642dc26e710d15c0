package mcm

import (
	"flag"
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/internal/family"
	"github.com/purr-mcm/purr/litmus"
)

// familyMax bounds the sizes BenchmarkFamilies runs: the largest members
// take seconds; -family.max 8 runs them.
var familyMax = flag.Int("family.max", 5, "largest size of each family in BenchmarkFamilies")

// BenchmarkFamilies checks growing families of tests under sc and aarch64
// with the SAT engine; each sub-benchmark reports the consistent
// executions it enumerates and their rate (execs/s), so that the growth
// of the cost with the number of executions is visible.
func BenchmarkFamilies(b *testing.B) {
	for _, model := range []string{"sc", "aarch64"} {
		m := embeddedModel(b, model)
		for _, f := range family.All {
			for n := f.Min; n <= *familyMax; n++ {
				lt, err := litmus.Parse(fmt.Sprintf("%s-%d.litmus", f.Name, n), []byte(f.Test(n)))
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("%s/%s/%d", model, f.Name, n), func(b *testing.B) {
					execs := 0
					for b.Loop() {
						out, err := Check(m, lt, Options{Unroll: 2})
						if err != nil {
							b.Fatal(err)
						}
						execs = out.Positive + out.Negative
					}
					b.ReportMetric(float64(execs), "execs")
					b.ReportMetric(float64(execs)*float64(b.N)/b.Elapsed().Seconds(), "execs/s")
				})
			}
		}
	}
}
