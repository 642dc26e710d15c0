package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
)

func TestWriteSVG(t *testing.T) {
	dir := t.TempDir()
	xs := []outcome.Execution{{Index: 1,
		Events: []outcome.Event{{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"},
			{ID: 1, Label: "b", Thread: 0, Kind: "R", Loc: "x", Value: "0"}},
		Relations: map[string][]outcome.Edge{"rf": {{From: 0, To: 1}}, "co": {{From: 0, To: 0}}},
		Sets:      map[string][]int{"Marked": {1}}}}
	if err := writeSVG(dir, "T", xs, []string{"rf", "Marked"}, show.Picture{}); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "T.svg"))
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("T.svg is not well-formed: %v", err)
		}
	}
	if !strings.Contains(string(doc), `data-rel="rf"`) || strings.Contains(string(doc), `data-rel="co"`) ||
		!strings.Contains(string(doc), `>Marked</text>`) {
		t.Errorf("T.svg should draw rf and the set Marked only:\n%s", doc)
	}
	if err := writeSVG(dir, "a/b", xs, nil, show.Picture{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a_b.svg")); err != nil {
		t.Errorf("a test named a/b: %v", err)
	}
	if err := writeSVG(filepath.Join(dir, "missing"), "T", xs, nil, show.Picture{}); err == nil {
		t.Error("no error writing into a missing folder")
	}
}

func TestSVGNeedsOutput(t *testing.T) {
	_, stderr, status := runPurr("--svg", "-m", "sc", "../../testdata/MP.litmus")
	if status != 2 || !strings.Contains(stderr, "give -o too") {
		t.Errorf("--svg without -o: status %d, stderr %q", status, stderr)
	}
}
