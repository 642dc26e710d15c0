package explicit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/aarch64"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// TestCandidates counts the candidate executions the explicit engine
// enumerates: herd7's figures for these shapes.
func TestCandidates(t *testing.T) {
	for _, c := range []struct {
		path       string
		candidates int
	}{
		{"SB.litmus", 4},       // two reads of two values each
		{"CoWW.litmus", 2},     // one thread's two writes to x in both co orders
		{"IRIW.litmus", 16},    // four reads, two values each
		{"SB+swps.litmus", 16}, // two rf choices and two co orders per location
	} {
		path := filepath.Join("..", "..", "..", "testdata", "classic", c.path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		_, regs, mem, err := events.InitialState(lt)
		if err != nil {
			t.Fatal(err)
		}
		u, err := events.Unfold(lt.Program, 2, regs, mem)
		if err != nil {
			t.Fatal(err)
		}
		if err := u.AnalyseValues(); err != nil {
			t.Fatal(err)
		}
		if got := Candidates(u); got < float64(c.candidates) {
			t.Errorf("%s: estimated %.0f candidates, fewer than the %d enumerated", c.path, got, c.candidates)
		}
		n := 0
		candidates(u, func(*execution) bool { n++; return true })
		if n != c.candidates {
			t.Errorf("%s: %d candidates, want %d", c.path, n, c.candidates)
		}
	}
}
