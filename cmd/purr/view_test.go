package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/internal/browser"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/view"
)

var (
	viewScreenshot      = flag.String("view-screenshot", "", "save the browser test's screenshot of purr view to `FILE` (docs/view.png is made so)")
	forbiddenScreenshot = flag.String("forbidden-screenshot", "", "save the screenshot of purr view's forbidden executions to `FILE` (docs/view-forbidden.png is made so)")
)

// viewFiles copies a test and the sc model into a folder of the test's,
// where they can be edited.
func viewFiles(t *testing.T, test string) (testPath, modelPath string) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	testPath = filepath.Join(dir, filepath.Base(test))
	modelPath = filepath.Join(dir, "sc.cat")
	sc, err := models.FS.ReadFile("sc.cat")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(modelPath, sc, 0o644); err != nil {
		t.Fatal(err)
	}
	return testPath, modelPath
}

// save rewrites a watched file, its time moved on so that the change
// shows on a file system with a coarse clock.
func save(t *testing.T, path, content string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

type viewState struct {
	Error     string `json:"error"`
	Summary   string `json:"summary"`
	Cut       string `json:"cut"`
	Relations []struct{ Name string }
	Sets      []struct{ Name string }
	Checks    []struct{ Name, Colour string }
	Lists     map[string]struct {
		Count int
		Done  bool
		Error string
	}
}

// serve answers one request of the page.
func serve(h http.Handler, target string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", target, nil)
	req.Host = "localhost"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// fetchState reads the page's state once the lists named (default: the
// allowed executions) are enumerated.
func fetchState(t *testing.T, h http.Handler, lists ...string) viewState {
	t.Helper()
	if len(lists) == 0 {
		lists = []string{view.ListAllowed}
	}
	for _, l := range lists {
		if l == view.ListForbidden {
			serve(h, "/groups?list=forbidden") // looked for once asked
		}
	}
	deadline := time.Now().Add(time.Minute)
	for {
		rec := serve(h, "/state")
		var st viewState
		if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
			t.Fatalf("/state: %v: %s", err, rec.Body)
		}
		done := true
		for _, l := range lists {
			done = done && st.Lists[l].Done
		}
		if done {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("/state: %v not enumerated in time: %+v", lists, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// viewGroup is a group of the page's list with its executions.
type viewGroup struct {
	Key, Label string
	Count      int
	Checks     []string
	Items      []struct {
		Index int
		State string
		Holds bool
		Fails []string
	}
}

// fetchGroups reads a list's groups and their executions (the first
// thousand of each).
func fetchGroups(t *testing.T, h http.Handler, query string) []viewGroup {
	t.Helper()
	var gs struct{ Groups []viewGroup }
	rec := serve(h, "/groups?"+query)
	if err := json.Unmarshal(rec.Body.Bytes(), &gs); err != nil {
		t.Fatalf("/groups?%s: %v: %s", query, err, rec.Body)
	}
	for i, g := range gs.Groups {
		rec := serve(h, "/items?"+query+"&n=1000&key="+url.QueryEscape(g.Key))
		if err := json.Unmarshal(rec.Body.Bytes(), &gs.Groups[i]); err != nil {
			t.Fatalf("/items?%s: %v: %s", query, err, rec.Body)
		}
	}
	return gs.Groups
}

// viewConfig is the configuration of purr view -m model.
func viewConfig(model string) herd.Config {
	cfg := herd.Default()
	cfg.Model, cfg.Show = model, outcome.ShowAll
	return cfg
}

// TestViewChecksAgain follows edits of the test and of the model on the
// page's state: errors with their positions, and the executions again.
func TestViewChecksAgain(t *testing.T) {
	for _, test := range []string{"../../testdata/MP.litmus", "testdata/SB.c.litmus"} {
		t.Run(filepath.Base(test), func(t *testing.T) {
			testPath, modelPath := viewFiles(t, test)
			s := newViewServer(viewConfig(modelPath), testPath, nil)
			if w := s.Watch(); len(w) != 2 || w[1] != modelPath {
				t.Fatalf("watching %v, want the test and the model", w)
			}
			st := fetchState(t, s)
			if st.Error != "" || !strings.Contains(st.Summary, "States 3") || !strings.Contains(st.Summary, "Never 0 3") {
				t.Fatalf("state under sc: %+v", st)
			}
			model, _ := os.ReadFile(modelPath)
			save(t, modelPath, string(model)+"\nacyclic po | nosuch as broken\n")
			broken := fmt.Sprintf("%s:%d:", modelPath, strings.Count(string(model), "\n")+2) // the line added
			if st := fetchState(t, s); !strings.Contains(st.Error, broken) || !strings.Contains(st.Error, "nosuch") {
				t.Errorf("a model error: %q, want its file:line:col", st.Error)
			}
			save(t, modelPath, `"no axiom"`+"\n")
			if st := fetchState(t, s); st.Error != "" || !strings.Contains(st.Summary, "States 4") {
				t.Errorf("without axioms: %+v", st)
			}
			src, _ := os.ReadFile(testPath)
			save(t, testPath, strings.Replace(string(src), "exists", "exists (", 1))
			if st := fetchState(t, s); !strings.Contains(st.Error, testPath+":") {
				t.Errorf("a test error: %q, want its file:line:col", st.Error)
			}
			save(t, testPath, string(src))
			st = fetchState(t, s)
			if n := st.Lists[view.ListAllowed].Count; n != 4 {
				t.Errorf("%d executions without axioms, want 4", n)
			}
		})
	}
}

func TestViewUsage(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"view"}, 2, "name one test"},
		{[]string{"view", "a.litmus", "b.litmus"}, 2, "name one test"},
		{[]string{"view", "--hexa", "a.litmus"}, 2, "--hexa does not apply"},
		{[]string{"view", "--addr", "256.1.1.1:1", "../../testdata/MP.litmus"}, 1, "purr view:"},
		// Accepted, as by purr executions: the view fails only at listening.
		{[]string{"view", "--distinct", "rf", "-skipchecks", "blocking", "--addr", "256.1.1.1:1", "../../testdata/MP.litmus"}, 1, "purr view: listen"},
		{[]string{"view", "-conf", "nope.cfg", "../../testdata/MP.litmus"}, 2, "nope.cfg"},
		// A test or model that cannot be read fails at once, before serving.
		{[]string{"view", "nope.litmus"}, 1, "purr view: open nope.litmus: no such file"},
		{[]string{"view", "-m", "udpp", "../../testdata/MP.litmus"}, 1, "model udpp: no such file"},
		{[]string{"view", "-m", "sc", "testdata/view-broken.litmus"}, 1, "testdata/view-broken.litmus:5:"},
		{[]string{"view", "--json", "../../testdata/MP.litmus"}, 2, "--json does not apply"},
	} {
		_, stderr, status := runPurr(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("purr %v: status %d, stderr %q; want %d, %q", tc.args, status, stderr, tc.status, tc.stderr)
		}
	}
	// --help lists the flags view takes, and only those.
	out, errs, status := runPurr("view", "--help")
	if status != 0 || out != "" || !strings.Contains(errs, "--distinct") || !strings.Contains(errs, "--addr") ||
		strings.Contains(errs, "--json") || strings.Contains(errs, "--jobs") || strings.Contains(errs, "--svg") {
		t.Errorf("purr view --help: status %d, stdout %q, stderr:\n%s", status, out, errs)
	}
	host, _, err := net.SplitHostPort(defaultViewAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		t.Errorf("purr view listens on %s by default, not on loopback", defaultViewAddr)
	}
}

// TestViewInBrowser drives purr view's page on MP under a copy of sc in
// a headless Chromium: three executions, a relation ticked draws its
// arrows, and saving the model without its axiom shows four.
func TestViewInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	testPath, modelPath := viewFiles(t, "../../testdata/MP.litmus")
	s := newViewServer(viewConfig(modelPath), testPath, nil)
	s.Poll = 50 * time.Millisecond
	s.Test, s.Model = "testdata/MP.litmus", "sc.cat" // the heading of the screenshot, not temporary paths
	p := openView(t, s)
	p.Wait("MP under sc lists three executions", browser.Count("#executions li[data-index]")+" === 3")
	p.Wait("a drawing with rf only", browser.Count("#drawing path.edge")+" > 0 && "+browser.Count("#drawing path.edge:not([data-rel=rf])")+" === 0")
	p.Click(`input[value="po"]`)
	p.Wait("po drawn once ticked", browser.Count(`#drawing path.edge[data-rel="po"]`)+" === 2")
	p.Click(`input[value="co"]`)
	p.Click(`input[value="fr"]`)
	p.Click(`#executions li[data-index="3"]`)
	p.Wait("the last execution drawn", `document.querySelector("#drawing g.execution").dataset.index === "3"`)
	p.Click(`#executions li[data-index="1"]`)
	p.Wait("the first execution drawn, with its two fr", `document.querySelector("#drawing g.execution").dataset.index === "1" && `+
		browser.Count(`#drawing path.edge[data-rel="fr"]`)+" === 2")

	p.Screenshot(*viewScreenshot, "view.png")

	save(t, modelPath, `"no axiom"`+"\n")
	p.Wait("the model saved without its axiom: four executions", browser.Count("#executions li[data-index]")+" === 4")
	save(t, modelPath, "let x = \n")
	p.Wait("the model's error on the page", `/sc\.cat:\d+:\d+/.test(document.getElementById("error").textContent)`)
}

// TestSVGFlag runs -o DIR --svg: beside NAME.dot, NAME.svg is a
// well-formed SVG document of the selected executions.
func TestSVGFlag(t *testing.T) {
	dir := t.TempDir()
	_, errs, status := runPurr("-m", "sc", "-show", "all", "-o", dir, "--svg", "../../testdata/MP.litmus")
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "MP.svg"))
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("MP.svg is not well-formed XML: %v", err)
		}
	}
	if !bytes.Contains(data, []byte("<svg")) {
		t.Errorf("MP.svg holds no svg element: %.80s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "MP.dot")); err != nil {
		t.Errorf("-o wrote no MP.dot: %v", err)
	}
}

// TestViewDistinct checks that the page counts and lists executions as
// --distinct and -skipchecks say: the UDP scenario has 6 executions up to
// rf under udp (docs/protocols.md), and without its blocking check 12: i
// also gets nothing (3 choices), j also nothing (4).
func TestViewDistinct(t *testing.T) {
	cfg := viewConfig("udp")
	cfg.Distinct = []string{"rf"}
	st := fetchState(t, newViewServer(cfg, "../../testdata/protocols/udp.litmus", nil), view.ListAllowed, view.ListForbidden)
	if st.Error != "" || st.Lists[view.ListAllowed].Count != 6 || !strings.Contains(st.Summary, "Positive: 2 Negative: 4") {
		t.Errorf("--distinct rf: %+v", st)
	}
	if f := st.Lists[view.ListForbidden]; f.Error != "" || f.Count != 6 {
		t.Errorf("--distinct rf: %d forbidden executions, %v; want the 6 that blocking forbids (i or j gets nothing)", f.Count, f.Error)
	}
	cfg.SkipChecks = []string{"blocking"}
	st = fetchState(t, newViewServer(cfg, "../../testdata/protocols/udp.litmus", nil))
	if st.Error != "" || st.Lists[view.ListAllowed].Count != 12 {
		t.Errorf("--distinct rf -skipchecks blocking: %+v", st)
	}
}

// TestViewForbidden checks the page's list of forbidden executions on
// SB+dmb.sys under aarch64: the one execution external forbids, in a
// group of its own, drawn with its cycle highlighted; under -through all
// the run's own list has it too.
func TestViewForbidden(t *testing.T) {
	const test = "../../testdata/classic/SB+dmb.sys.litmus"
	for _, through := range []string{"none", "all"} {
		t.Run(through, func(t *testing.T) {
			cfg := viewConfig("aarch64")
			cfg.Through = through
			s := newViewServer(cfg, test, nil)
			st := fetchState(t, s, view.ListAllowed, view.ListForbidden)
			wantKept := 3
			if through == "all" {
				wantKept = 4
			}
			if n := st.Lists[view.ListAllowed].Count; n != wantKept {
				t.Errorf("%d executions kept, want %d", n, wantKept)
			}
			groups := fetchGroups(t, s, "list=forbidden&by=checks")
			if len(groups) != 1 || fmt.Sprint(groups[0].Checks) != "[external]" || len(groups[0].Items) != 1 {
				t.Fatalf("forbidden: %+v, want one group: external, one execution", groups)
			}
			x := groups[0].Items[0]
			if !x.Holds || fmt.Sprint(x.Fails) != "[external]" || len(st.Checks) != 1 || st.Checks[0].Colour == "" {
				t.Errorf("the forbidden execution %+v, checks %+v", x, st.Checks)
			}
			rec := serve(s, fmt.Sprintf("/svg?list=forbidden&x=%d&rel=rf", x.Index))
			svg := rec.Body.String()
			if rec.Code != 200 || !strings.Contains(svg, `<g class="witness" data-check="external" data-kind="acyclic">`) ||
				strings.Count(svg, `class="halo"`) != 4 || !strings.Contains(svg, `class="failure" data-check="external"`) {
				t.Errorf("/svg of the forbidden execution: %d, no cycle of 4 edges highlighted and named external:\n%s", rec.Code, svg)
			}
		})
	}
}

// TestViewForbiddenInBrowser drives purr view's page on herd's catalogue
// test MP+dmb.sys under aarch64 in a headless Chromium: switched to the
// executions the model forbids, it shows the one that fails external,
// its cycle highlighted and the check named.
func TestViewForbiddenInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	test := shared.Path(t, "corpus/herd-catalogue-aarch64/MP+dmb.sys.litmus")
	s := newViewServer(viewConfig("aarch64"), test, nil)
	s.Test = "herd-catalogue-aarch64/MP+dmb.sys.litmus" // the heading of the screenshot, not a path of this machine
	p := openView(t, s)
	p.Wait("the three executions aarch64 allows", browser.Count("#executions li[data-index]")+" === 3 && "+browser.Count("#drawing g.execution")+" === 1 && "+
		browser.Count("#drawing g.witness")+" === 0")
	p.Click("#show-forbidden")
	p.Wait("one forbidden execution, under the group of external", browser.Count("#executions li[data-index]")+" === 1 && "+
		browser.Count(`#executions li.group [data-check="external"]`)+" === 1")
	p.Wait("its cycle highlighted: four edges", browser.Count(`#drawing g.witness[data-check="external"][data-kind="acyclic"] path.halo`)+" === 4")
	p.Wait("the check named under the drawing", `[...document.querySelectorAll("#drawing g.failure")].some(g => g.textContent.startsWith("fails external (acyclic): "))`)
	p.Wait("the execution drawn holds the condition", `document.querySelector("#drawing g.execution > text").textContent.includes("the condition holds")`)

	p.Screenshot(*forbiddenScreenshot, "view-forbidden.png")

	p.Click("#show-allowed")
	p.Wait("back to the allowed executions", browser.Count("#executions li[data-index]")+" === 3 && "+browser.Count("#drawing g.witness")+" === 0")
}

// openView serves the page of s and opens it in a headless browser.
func openView(t *testing.T, s http.Handler) browser.Page {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close) // after the browser's cleanup, which closes its connections
	return browser.Open(t, srv.URL, 2*time.Minute, 30*time.Second)
}

// TestViewLoopProofInBrowser: under --unroll none, the page of a loop the
// values end says how the proof closed (its rounds and the reads whose
// values it tracked) and lists the executions, the counterexample among
// them, without a cut.
func TestViewLoopProofInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	cfg := viewConfig("aarch64")
	cfg.Unroll = mcm.Unbounded
	s := newViewServer(cfg, "../../testdata/loops/aarch64-rounds.litmus", nil)
	p := openView(t, s)
	p.Wait("the proof in the summary", `/the values the reads may take keep every execution within 3 iterations, so the answer holds for any number \(2 rounds, abstraction tracking no location: P0 reads y at [^)]*aarch64-rounds\.litmus:32:2: 0, 1, 2\)/.test(document.getElementById("summary").textContent)`)
	p.Wait("the verdict without Loop", `/^Ok$/m.test(document.getElementById("summary").textContent) && !/^Loop /m.test(document.getElementById("summary").textContent)`)
	p.Wait("its executions listed, the counterexample among them", browser.Count("#executions li[data-index]")+" === 6 && "+browser.Count("#executions li[data-index] .holds")+" === 1")
}

// TestViewWatchesIncludes follows a file the model includes: saving it
// broken shows its error at its position, fixed the executions again.
func TestViewWatchesIncludes(t *testing.T) {
	testPath, modelPath := viewFiles(t, "../../testdata/MP.litmus")
	pattern := filepath.Join(filepath.Dir(modelPath), "pattern.cat")
	if err := os.WriteFile(pattern, []byte("let order = po | rf | co | fr\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	save(t, modelPath, "\"with a pattern file\"\ninclude \"pattern.cat\"\nacyclic order as sc\n")
	s := newViewServer(viewConfig(modelPath), testPath, nil)
	if st := fetchState(t, s); st.Error != "" || !strings.Contains(st.Summary, "States 3") {
		t.Fatalf("under the pattern file: %+v", st)
	}
	if w := s.Watch(); !slices.Contains(w, pattern) {
		t.Fatalf("watching %v, not the included %s", w, pattern)
	}
	save(t, pattern, "let order = po | nosuch\n")
	if st := fetchState(t, s); !strings.Contains(st.Error, pattern+":1:") || !strings.Contains(st.Error, "nosuch") {
		t.Errorf("the included file broken: %q, want its file:line:col", st.Error)
	}
	save(t, pattern, "let order = po\n")
	if st := fetchState(t, s); st.Error != "" || !strings.Contains(st.Summary, "States 4") {
		t.Errorf("the included file fixed, without rf: %+v", st)
	}
}
