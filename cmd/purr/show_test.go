package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// showCases are the tests and models whose pictures and listings are
// pinned by goldens under testdata/show.
var showCases = []struct {
	name, test, model string
	args              []string
}{
	{"MP-sc", "../../testdata/classic/MP.litmus", "sc", nil},
	{"MP-aarch64", "../../testdata/classic/MP.litmus", "aarch64", nil},
	{"SB-sc", "../../testdata/classic/SB.litmus", "sc", nil},
	{"SB-aarch64", "../../testdata/classic/SB.litmus", "aarch64", nil},
	{"IRIW-sc", "../../testdata/classic/IRIW.litmus", "sc", nil},
	{"IRIW-aarch64", "../../testdata/classic/IRIW.litmus", "aarch64", nil},
	{"SB-C-rc11", "testdata/SB.c.litmus", "rc11", nil},
	// po inside a C statement: parallel operands, a loop's passes.
	{"parallel-C-rc11", "testdata/parallel.c.litmus", "rc11", nil},
	// A model's show statements (show r, show X as r, a set, unshow),
	// and herd7's -doshow and -unshow.
	{"MP-shows", "../../testdata/classic/MP.litmus", "testdata/shows.cat", []string{"--doshow", "fre,rmw", "-unshow", "co"}},
	// -through: the execution external forbids, its cycle drawn bold in
	// the check's colour and named.
	{"SB+dmb.sys-through", "../../testdata/classic/SB+dmb.sys.litmus", "aarch64", []string{"-through", "all"}},
}

// TestShowDOT pins the pictures of -show all -o, and checks that each
// holds one digraph per execution the selection keeps (all of them:
// Positive + Negative).
func TestShowDOT(t *testing.T) {
	for _, c := range showCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"-m", c.model, "-show", "all", "-o", dir, "--json"}, c.args...)
			out, errs, status := runPurr(append(args, c.test)...)
			if status != 0 {
				t.Fatalf("exit status %d: %s", status, errs)
			}
			var res jsonResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			dot, err := os.ReadFile(dotPath(dir, res.Test))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(dot), "digraph G {"); n != res.Positive+res.Negative || n != len(res.Executions) || n == 0 {
				t.Errorf("%d digraphs, want Positive + Negative = %d (%d executions in the JSON)", n, res.Positive+res.Negative, len(res.Executions))
			}
			golden(t, "show/"+c.name+".dot", string(dot))
		})
	}
}

// TestShowSelectionCounts checks that -o draws as many executions as each
// -show selection keeps: herd7's meanings on SB under tso (exists, 1
// positive, 3 negative).
func TestShowSelectionCounts(t *testing.T) {
	for show, want := range map[string]int{"all": 4, "prop": 1, "neg": 3, "cond": 1, "wit": 1} {
		dir := t.TempDir()
		_, errs, status := runPurr("-m", "tso", "-show", show, "-o", dir, "../../testdata/classic/SB.litmus")
		if status != 0 {
			t.Fatalf("-show %s: exit status %d: %s", show, status, errs)
		}
		dot, err := os.ReadFile(filepath.Join(dir, "SB.dot"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(dot), "digraph G {"); n != want {
			t.Errorf("-show %s: %d digraphs, want %d", show, n, want)
		}
	}
}

// TestShowListing pins purr executions' text.
func TestShowListing(t *testing.T) {
	for _, c := range showCases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"executions", "-m", c.model}, c.args...)
			out, errs, status := runPurr(append(args, c.test)...)
			if status != 0 {
				t.Fatalf("exit status %d: %s", status, errs)
			}
			golden(t, "show/"+c.name+".txt", out)
		})
	}
}

// TestDotAcceptsGoldens runs Graphviz's dot over every picture golden.
func TestDotAcceptsGoldens(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("dot (Graphviz) is not on PATH, so the DOT goldens are not checked: apt-get install graphviz")
	}
	files, err := filepath.Glob("testdata/show/*.dot.golden")
	if err != nil || len(files) < len(showCases) {
		t.Fatalf("%d DOT goldens, want %d: %v", len(files), len(showCases), err)
	}
	for _, f := range files {
		var stderr bytes.Buffer
		cmd := exec.Command(dot, "-Tsvg", f)
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("dot -Tsvg %s: %v\n%s", f, err, stderr.String())
		}
	}
}

// TestSVGThrough runs -through all -o DIR --svg: the execution the model
// forbids is drawn with its witness highlighted and the check named.
func TestSVGThrough(t *testing.T) {
	dir := t.TempDir()
	_, errs, status := runPurr("-m", "aarch64", "-through", "all", "-show", "prop", "-o", dir, "--svg", "../../testdata/classic/SB+dmb.sys.litmus")
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "SB+dmb.sys.svg"))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(data)
	if !strings.Contains(svg, `<g class="witness" data-check="external" data-kind="acyclic">`) || strings.Count(svg, `class="halo"`) != 4 ||
		!strings.Contains(svg, "(acyclic): c -po-&gt; e -fr-&gt; f -po-&gt; h -fr-&gt; c</text>") {
		t.Errorf("SB+dmb.sys.svg does not highlight external's cycle of four edges and name it:\n%s", svg)
	}
}
