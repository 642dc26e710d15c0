package show

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// failing is a two-thread execution that fails a check of each kind.
func failing() outcome.Execution {
	return outcome.Execution{
		Index: 3,
		Events: []outcome.Event{
			{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"},
			{ID: 1, Label: "b", Thread: 0, Kind: "W", Loc: "x", Value: "1"},
			{ID: 2, Label: "c", Thread: 1, Kind: "R", Loc: "x", Value: "0"},
		},
		Relations: map[string][]outcome.Edge{"rf": {{From: 0, To: 2}}, "co": {{From: 0, To: 1}}, "fr": {{From: 2, To: 1}}, "hb": {{From: 1, To: 2}}},
		Sets:      map[string][]int{"W": {0, 1}, "R": {2}},
		Fails: []outcome.Failure{
			{Check: "causality", Kind: "acyclic", Witness: []outcome.Edge{{From: 1, To: 2}, {From: 2, To: 1}}},
			{Check: "loop", Kind: "irreflexive", Witness: []outcome.Edge{{From: 2, To: 2}}},
			{Check: "stale", Kind: "empty", Witness: []outcome.Edge{{From: 2, To: 2}}},
			{Check: "gone", Kind: "~acyclic"},
		},
	}
}

// TestDOTFailures checks that a picture draws each failed check's
// witness in the check's colour, named, and that one without failures
// draws none.
func TestDOTFailures(t *testing.T) {
	var b bytes.Buffer
	plain := failing()
	plain.Fails = nil
	if err := DOT(&b, "Test T", []outcome.Execution{failing(), plain}, []string{"po", "rf", "co", "fr"}, Picture{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	colours := CheckColours([]string{"causality", "loop", "stale", "gone"})
	for _, want := range []string{
		`fails causality (acyclic): b -hb-> c -fr-> b\nfails loop (irreflexive): c -> c\nfails stale (empty): c\nfails gone (~acyclic)";`,
		`eiid1 -> eiid2 [label="causality: hb", color="` + colours["causality"] + `", fontcolor="` + colours["causality"] + `", penwidth=3];`,
		`eiid2 -> eiid1 [label="causality: fr", color="` + colours["causality"] + `"`,
		`eiid2 -> eiid2 [label="loop", color="` + colours["loop"] + `"`,
		`eiid2 [shape="box", color="` + colours["stale"] + `", penwidth=3, xlabel="stale"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the picture lacks %s:\n%s", want, got)
		}
	}
	second := got[strings.LastIndex(got, "digraph G {"):]
	if strings.Contains(second, "fails") || strings.Contains(second, "penwidth") {
		t.Errorf("the execution that fails nothing is drawn with failures:\n%s", second)
	}
	if dot, err := exec.LookPath("dot"); err == nil {
		var stderr bytes.Buffer
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin, cmd.Stderr = strings.NewReader(got), &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("dot -Tsvg: %v\n%s", err, stderr.String())
		}
	}
}
