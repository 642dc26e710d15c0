package mcm

import (
	"os"
	"strings"
	"testing"
)

// TestClassicModels checks the README's table of classic tests under the
// shipped sc, tso and pso models: the table is the textbook verdicts, and
// this test keeps the README and the models honest.
func TestClassicModels(t *testing.T) {
	readme, err := os.ReadFile(repoPath("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "<!-- classic-table -->")
	table, _, ok2 := strings.Cut(table, "<!-- /classic-table -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no classic-table section")
	}
	var header []string
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if header == nil {
			header = cells
			continue
		}
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		rows++
		test := parseTestFile(t, repoPath("testdata/classic/"+cells[0]+".litmus"))
		for col := 2; col < len(header); col++ {
			model := header[col]
			out, err := Check(embeddedModel(t, model), test, Options{Unroll: 2})
			if err != nil {
				t.Fatalf("%s under %s: %v", cells[0], model, err)
			}
			r := out.Result(test, false)
			if got := r.Verdict.String(); got != cells[col] {
				t.Errorf("%s under %s: %s, the table says %s", cells[0], model, got, cells[col])
			}
		}
	}
	if rows < 12 {
		t.Errorf("the table has %d tests, want at least 12", rows)
	}
}
