package mcm

import (
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/internal/family"
	"github.com/purr-mcm/purr/litmus"
)

// TestFamilies checks the small members of the benchmark families: the SAT
// engine agrees with the explicit one, and the counts of executions follow
// their closed forms where they have one.
func TestFamilies(t *testing.T) {
	factorial := func(n int) int {
		f := 1
		for i := 2; i <= n; i++ {
			f *= i
		}
		return f
	}
	// Executions as a function of the size, per model and family.
	closed := map[string]func(n int) int{
		// Each read sees 0 or 1; sc forbids only all zeros.
		"sc/SB":      func(n int) int { return 1<<n - 1 },
		"aarch64/SB": func(n int) int { return 1 << n },
		// Any co order of the n writes; the reader's two reads see two
		// writes in co order (init included), possibly the same.
		"sc/Writers":      func(n int) int { return factorial(n) * (n + 1) * (n + 2) / 2 },
		"aarch64/Writers": func(n int) int { return factorial(n) * (n + 1) * (n + 2) / 2 },
		// aarch64's swaps are atomic: the tokens got are a permutation.
		// sc (as herd's sc.cat) has no atomicity axiom: any co order,
		// and each swap reads any write before its own in it.
		"sc/Swaps":      func(n int) int { return factorial(n) * factorial(n) },
		"aarch64/Swaps": factorial,
	}
	for _, model := range []string{"sc", "aarch64"} {
		m := embeddedModel(t, model)
		for _, f := range family.All {
			largest := f.Min + 2
			if testing.Short() {
				largest = f.Min + 1
			}
			for n := f.Min; n <= largest; n++ {
				name := fmt.Sprintf("%s/%s-%d", model, f.Name, n)
				lt, err := litmus.Parse(name+".litmus", []byte(f.Test(n)))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := Check(m, lt, Options{Unroll: 2})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := Check(m, lt, Options{Unroll: 2, Engine: EngineExplicit})
				if err != nil {
					t.Fatalf("%s (explicit): %v", name, err)
				}
				if got.Positive != want.Positive || got.Negative != want.Negative || len(got.States) != len(want.States) {
					t.Errorf("%s: sat %d/%d, %d states; explicit %d/%d, %d states", name,
						got.Positive, got.Negative, len(got.States), want.Positive, want.Negative, len(want.States))
				}
				if count, ok := closed[model+"/"+f.Name]; ok && got.Positive+got.Negative != count(n) {
					t.Errorf("%s: %d executions, want %d", name, got.Positive+got.Negative, count(n))
				}
			}
		}
	}
}
