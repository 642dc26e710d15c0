package herdtest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/mcm/herdout"
)

// corpusFiles returns every herd7 reference output of ../shared/corpus.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	root := shared.Path(t, "corpus")
	files, err := filepath.Glob(filepath.Join(root, "*", "herd-7.57*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	expected, err := filepath.Glob(filepath.Join(root, "herd-regression", "*", "*.litmus.expected"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, expected...)
	if len(files) == 0 {
		t.Skip("no reference outputs in ../shared/corpus")
	}
	return files
}

func cloneStates(states []herdout.State) []herdout.State {
	out := make([]herdout.State, len(states))
	for i, s := range states {
		out[i] = herdout.State{Bindings: slices.Clone(s.Bindings), Faults: slices.Clone(s.Faults)}
	}
	return out
}

// TestCorpusRoundTrip parses every block of every reference file, writes
// it back and compares with the original text; it also checks that herd7's
// verdict, witnesses, observation and state order follow from the counts
// and the states as NewResult derives them.
func TestCorpusRoundTrip(t *testing.T) {
	results, timeouts, errors, mismatches := 0, 0, 0, 0
	for _, file := range corpusFiles(t) {
		blocks, err := ParseFile(file)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, b := range blocks {
			switch {
			case b.Timeout:
				timeouts++
				continue
			case b.Error != "":
				errors++
				continue
			}
			results++
			r := b.Result
			where := file + ":" + b.Key()
			if got, want := r.String(), b.Text+"\n"; got != want {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("%s: written back differently:\n%s\nwant:\n%s", where, got, want)
				}
			}
			if d := Compare(b, b); d != nil {
				t.Errorf("%s: block differs from itself: %q", where, d)
			}
			holds, fails := r.Counts()
			derived := herdout.NewResult(r.Name, r.Quantifier, r.Condition, cloneStates(r.States), holds, fails, r.Flags, r.Loop)
			derived.Hash, derived.Time, derived.HasTime = r.Hash, r.Time, r.HasTime
			if got, want := derived.String(), r.String(); got != want {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("%s: NewResult derives a different block:\n%s\nwant:\n%s", where, got, want)
				}
			}
		}
	}
	t.Logf("%d result blocks, %d TIMEOUT, %d ERROR", results, timeouts, errors)
	if results < 7000 {
		t.Errorf("only %d result blocks parsed", results)
	}
}
