package view

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
)

// fixture is two executions of a two-event test, made by hand.
func fixture() []outcome.Execution {
	evs := []outcome.Event{
		{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"},
		{ID: 1, Label: "b", Thread: 0, Kind: "W", Loc: "x", Value: "1"},
		{ID: 2, Label: "c", Thread: 1, Kind: "R", Loc: "x", Value: "1"},
	}
	return []outcome.Execution{
		{Index: 1, Events: evs, Relations: map[string][]outcome.Edge{"rf": {{From: 0, To: 2}}, "co": {{From: 0, To: 1}}, "fr": {{From: 2, To: 1}}}},
		{Index: 2, Events: evs, Relations: map[string][]outcome.Edge{"rf": {{From: 1, To: 2}}, "co": {{From: 0, To: 1}}, "hb": {{From: 1, To: 2}}},
			Holds: true},
	}
}

// forbiddenFixture is three executions the model's checks forbid: two
// fail ext, one ext and sc.
func forbiddenFixture() []outcome.Execution {
	var out []outcome.Execution
	ext := outcome.Failure{Check: "ext", Kind: "acyclic", Witness: []outcome.Edge{{From: 1, To: 2}, {From: 2, To: 1}}}
	sc := outcome.Failure{Check: "sc", Kind: "irreflexive", Witness: []outcome.Edge{{From: 2, To: 2}}}
	for i, fails := range [][]outcome.Failure{{ext, sc}, {ext}, {ext}} {
		x := fixture()[0]
		x.Index = 3 + i
		x.Relations = map[string][]outcome.Edge{"rf": {{From: 0, To: 2}}, "hb": {{From: 1, To: 2}}, "fr": {{From: 2, To: 1}}}
		x.Fails = fails
		out = append(out, x)
	}
	return out
}

// visited is an execution as an enumeration gives it.
func visited(x outcome.Execution) outcome.Visited {
	return outcome.Visited{Index: x.Index, Holds: x.Holds, State: x.State, Flags: x.Flags,
		Build: func(bool) outcome.Execution { return x }}
}

// newServer serves the fixtures; the watched file's content, when it
// says "broken", makes Check fail as a model error does.
func newServer(t *testing.T) (*Server, string) {
	t.Helper()
	watched := filepath.Join(t.TempDir(), "model.cat")
	if err := os.WriteFile(watched, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Server{Test: "T.litmus", Model: watched, Watch: func() []string { return []string{watched} }, Poll: 10 * time.Millisecond,
		Check: func(ctx context.Context, list string, visit func(outcome.Visited) bool) (Checked, error) {
			src, _ := os.ReadFile(watched)
			if strings.Contains(string(src), "broken") {
				return Checked{}, source.ErrorList{{Pos: source.Pos{File: watched, Line: 3, Col: 7}, Msg: "unknown name foo"}}
			}
			if strings.Contains(string(src), "panic") {
				panic("the loader broke")
			}
			xs := fixture()
			if list == ListForbidden {
				xs = append(forbiddenFixture(), fixture()...) // those that fail no check are not listed
			}
			for _, x := range xs {
				if !visit(visited(x)) {
					break
				}
			}
			return Checked{Summary: "Test T Allowed"}, nil
		}}
	return s, watched
}

func get(t *testing.T, h http.Handler, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.Host = "127.0.0.1:8080"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestRequests(t *testing.T) {
	s, _ := newServer(t)
	get(t, s, "GET", "/groups?list=forbidden")
	readState(t, s, ListAllowed, ListForbidden)
	for _, tc := range []struct {
		method, target string
		code           int
		contains       string
	}{
		{"GET", "/", 200, "<title>purr view</title>"},
		{"HEAD", "/", 200, ""},
		{"GET", "/app.js", 200, "EventSource"},
		{"GET", "/style.css", 200, "body"},
		{"GET", "/state", 200, `"lists"`},
		{"GET", "/groups?list=allowed&by=rf&q=a", 200, `"groups"`},
		{"GET", "/items?list=allowed&by=rf&key=1&from=0&n=10", 200, `"items"`},
		{"GET", "/groups?by=nosuch", 400, "by:"},
		{"GET", "/groups?x=1", 400, "unknown parameter"},
		{"GET", "/groups?q=a&q=b", 400, "q:"},
		{"GET", "/items?n=0", 400, "n:"},
		{"GET", "/items?n=100000", 400, "n:"},
		{"GET", "/items?from=-1", 400, "from:"},
		{"GET", "/items?from=x", 400, "from:"},
		{"GET", "/svg?x=1&rel=rf&set=W", 200, "<svg"},
		{"GET", "/svg?x=2&rel=hb", 200, `data-rel="hb"`},
		// unknown paths, path traversal: nothing reaches the file system
		{"GET", "/index.html", 404, ""},
		{"GET", "/assets/app.js", 404, ""},
		{"GET", "/../../etc/passwd", 404, ""},
		{"GET", "/%2e%2e/%2e%2e/etc/passwd", 404, ""},
		{"GET", "/..%2fserver.go", 404, ""},
		{"GET", "/svg/../../../etc/passwd", 404, ""},
		{"GET", "/state/x", 404, ""},
		{"GET", "/view.go", 404, ""},
		// bad query values
		{"GET", "/svg", 400, "x:"},
		{"GET", "/svg?x=", 400, "x:"},
		{"GET", "/svg?x=abc", 400, "x:"},
		{"GET", "/svg?x=-1", 400, "x:"},
		{"GET", "/svg?x=0", 400, "x:"},
		{"GET", "/svg?x=99999999999999999999999", 400, "x:"},
		{"GET", "/svg?x=1&x=2", 400, "x:"},
		{"GET", "/svg?x=3", 404, "no execution 3"},
		{"GET", "/svg?x=1&rel=nosuch", 400, "no relation"},
		{"GET", "/svg?x=1&rel=../../etc/passwd", 400, "no relation"},
		{"GET", "/svg?x=1&set=nosuch", 400, "no set"},
		{"GET", "/svg?x=1&file=/etc/passwd", 400, "unknown parameter"},
		{"GET", "/svg?x=%zz", 400, "malformed"},
		{"GET", "/svg?x=1;rel=rf", 400, "malformed"},
		{"GET", "/svg?x=4&list=forbidden&rel=hb", 200, `<g class="witness" data-check="ext"`},
		{"GET", "/svg?x=1&list=allowed", 200, `<svg`},
		{"GET", "/svg?x=1&list=forbidden", 404, "no execution 1 among those forbidden"},
		{"GET", "/svg?x=4&list=nosuch", 400, "list:"},
		{"GET", "/svg?x=4&list=forbidden&list=allowed", 400, "list:"},
		// wrong methods
		{"POST", "/state", 405, ""},
		{"PUT", "/", 405, ""},
		{"DELETE", "/svg?x=1", 405, ""},
		{"OPTIONS", "/", 405, ""},
	} {
		rec := get(t, s, tc.method, tc.target)
		if rec.Code != tc.code {
			t.Errorf("%s %s: status %d, want %d (%s)", tc.method, tc.target, rec.Code, tc.code, rec.Body)
			continue
		}
		if !strings.Contains(rec.Body.String(), tc.contains) {
			t.Errorf("%s %s: body lacks %q: %s", tc.method, tc.target, tc.contains, rec.Body)
		}
		if strings.Contains(rec.Body.String(), "root:") {
			t.Errorf("%s %s: served a system file", tc.method, tc.target)
		}
	}
}

func TestForeignHostRefused(t *testing.T) {
	s, _ := newServer(t)
	for host, code := range map[string]int{"127.0.0.1:8080": 200, "localhost:1": 200, "[::1]:80": 200, "localhost": 200,
		"evil.example:8080": 403, "10.0.0.1": 403} {
		req := httptest.NewRequest("GET", "/state", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != code {
			t.Errorf("Host %s: status %d, want %d", host, rec.Code, code)
		}
	}
	s.AnyHost = true
	req := httptest.NewRequest("GET", "/state", nil)
	req.Host = "evil.example"
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("AnyHost: status %d", rec.Code)
	}
}

// readState reads the state once the lists asked for are enumerated.
func readState(t *testing.T, s *Server, lists ...string) state {
	t.Helper()
	if len(lists) == 0 {
		lists = []string{ListAllowed}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		rec := get(t, s, "GET", "/state")
		var st state
		if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
			t.Fatalf("%v: %s", err, rec.Body)
		}
		done := true
		for _, l := range lists {
			done = done && st.Lists[l].Done
		}
		if done {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lists %v are not enumerated in time: %+v", lists, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readJSON gets a JSON answer.
func readJSON(t *testing.T, s *Server, target string, v any) {
	t.Helper()
	rec := get(t, s, "GET", target)
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		t.Fatalf("%s: %v: %s", target, err, rec.Body)
	}
}

type groupsAnswer struct {
	Total  int
	Groups []group
	More   int
}

type itemsAnswer struct {
	Total int
	Items []itemJSON
}

// listed is a list's groups, each "label:index,index...".
func listed(t *testing.T, s *Server, query string) string {
	t.Helper()
	var gs groupsAnswer
	readJSON(t, s, "/groups?"+query, &gs)
	var out []string
	for _, g := range gs.Groups {
		var items itemsAnswer
		readJSON(t, s, "/items?"+query+"&key="+g.Key, &items)
		var xs []string
		for _, x := range items.Items {
			xs = append(xs, fmt.Sprint(x.Index))
		}
		if items.Total != g.Count || len(xs) != g.Count {
			t.Errorf("%s: group %s counts %d, lists %d of %d", query, g.Label, g.Count, len(xs), items.Total)
		}
		out = append(out, g.Label+":"+strings.Join(xs, ","))
	}
	return strings.Join(out, " | ")
}

func TestState(t *testing.T) {
	s, _ := newServer(t)
	st := readState(t, s, ListAllowed)
	if st.Lists[ListAllowed].Count != 2 || st.Error != "" || st.Summary != "Test T Allowed" || st.Lists[ListForbidden].Started {
		t.Errorf("state %+v", st)
	}
	var rels []string
	for _, r := range st.Relations {
		rels = append(rels, r.Name)
		if r.Default != (r.Name == "rf") || r.Colour == "" {
			t.Errorf("relation %+v", r)
		}
	}
	if strings.Join(rels, ",") != "rf,co,fr,hb" {
		t.Errorf("relations %v, want herd's first, then the model's", rels)
	}
	var sets []string
	for _, n := range st.Sets {
		sets = append(sets, n.Name)
		if !n.Default {
			t.Errorf("set %s is not ticked at first", n.Name)
		}
	}
	if strings.Join(sets, ",") != "R,W" {
		t.Errorf("sets %v, want R and W (the test has no fence: no F)", sets)
	}
	for query, want := range map[string]string{
		"by=state":       "(no state):1,2",
		"by=rf":          "rf: a->c:1 | rf: b->c:2",
		"by=cond":        "the condition holds:2 | the condition does not hold:1",
		"by=rf&q=b->c":   "rf: b->c:2",
		"by=rf&q=%231":   "rf: a->c:1",
		"by=rf&q=cond":   "rf: b->c:2",
		"by=rf&q=nosuch": "",
	} {
		if got := listed(t, s, query); got != want {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	// The forbidden executions, by the checks they fail: fewest first.
	get(t, s, "GET", "/groups?list=forbidden")
	st = readState(t, s, ListForbidden)
	if got := listed(t, s, "list=forbidden&by=checks"); got != "fails ext:4,5 | fails ext, sc:3" {
		t.Errorf("forbidden groups %q, want ext:4,5 then ext+sc:3", got)
	}
	if len(st.Checks) != 2 || st.Checks[0].Name != "ext" || st.Checks[1].Name != "sc" || st.Checks[0].Colour == st.Checks[1].Colour {
		t.Errorf("checks %+v, want ext and sc in colours of their own", st.Checks)
	}
	// W, R and F come from the events' kinds where the model leaves them out.
	if rec := get(t, s, "GET", "/svg?x=1&set=R"); !strings.Contains(rec.Body.String(), `<rect class="set"`) {
		t.Errorf("no badge of R on the read: %s", rec.Body)
	}
}

// edit rewrites a watched file so that its stamp changes even where the
// file system's clock is coarse.
func edit(t *testing.T, path, content string) {
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

func TestReloadsOnChange(t *testing.T) {
	s, watched := newServer(t)
	v1 := readState(t, s).Version
	if v := readState(t, s).Version; v != v1 {
		t.Errorf("version changed from %d to %d with no edit", v1, v)
	}
	edit(t, watched, "broken")
	st := readState(t, s)
	if st.Version == v1 || !strings.Contains(st.Error, "model.cat:3:7: unknown name foo") || st.Lists[ListAllowed].Count != 0 {
		t.Errorf("after an error: %+v", st)
	}
	if rec := get(t, s, "GET", "/svg?x=1"); rec.Code != 404 {
		t.Errorf("drawing from a failed check: %d", rec.Code)
	}
	edit(t, watched, "panic")
	if st := readState(t, s); !strings.Contains(st.Error, "internal error: the loader broke") {
		t.Errorf("after a panic: %+v", st)
	}
	edit(t, watched, "ok again")
	if st := readState(t, s); st.Error != "" || st.Lists[ListAllowed].Count != 2 {
		t.Errorf("after the fix: %+v", st)
	}
	v := readState(t, s).Version
	os.Remove(watched)
	if st := readState(t, s); st.Version == v {
		t.Errorf("a removed file is no change: %+v", st)
	}
}

func TestEventsFollowEdits(t *testing.T) {
	s, watched := newServer(t)
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := bufio.NewScanner(res.Body)
	next := func() string {
		for lines.Scan() {
			if v, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				return v
			}
		}
		t.Fatalf("stream ended: %v", errors.Join(lines.Err(), ctx.Err()))
		return ""
	}
	first := next()
	edit(t, watched, "broken")
	if second := next(); second == first {
		t.Errorf("the same version after an edit: %s", second)
	}
}

// TestNoServerErrors sends malformed requests: each gets a 4xx, none a
// 5xx or a crash.
func TestNoServerErrors(t *testing.T) {
	s, _ := newServer(t)
	paths := []string{"/", "/svg", "/state", "/events/x", "//", "/\x00", "/svg\x00", "/%00", "/.", "/..", "/svg/", "/SVG", "/app.js/"}
	queries := []string{"", "x", "x=", "x=1&rel", "x=1&rel=", "x=1&set=", "x=1&rel=rf&rel=rf", "x=1%", "%", "&&&", "x=1&x",
		"x=\x00", "x=1&rel=\x00", "x=+1", "x=0x1", "x=1e3", "x=" + strings.Repeat("9", 400), strings.Repeat("a=b&", 2000)}
	for _, method := range []string{"GET", "HEAD", "POST", "PATCH", "TRACE", "CONNECT", "BREW"} {
		for _, p := range paths {
			for _, q := range queries {
				req := &http.Request{Method: method, URL: &url.URL{Path: p, RawQuery: q}, Host: "localhost", Header: http.Header{}}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req.WithContext(context.Background()))
				wellFormed := p == "/svg" && q == "x=1&rel=rf&rel=rf" || (p == "/" || p == "/state") && q == ""
				if wellFormed && (method == "GET" || method == "HEAD") {
					continue
				}
				if rec.Code < 400 || rec.Code >= 500 {
					t.Errorf("%s %q ?%.40q: status %d, want a 4xx", method, p, q, rec.Code)
				}
			}
		}
	}
}
