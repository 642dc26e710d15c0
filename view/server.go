package view

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
	"github.com/purr-mcm/purr/picture"
	"github.com/purr-mcm/purr/source"
)

//go:embed assets/index.html assets/app.js assets/style.css
var assets embed.FS

// Snapshot is one check of the test under the model: what the page shows.
type Snapshot struct {
	Executions []outcome.Execution // those the run keeps: the page's first list
	// Forbidden are the candidate executions that fail the model's checks,
	// each with its Fails (as -through all lets them through): the page's
	// other list.
	Forbidden []outcome.Execution
	// ForbiddenErr says why Forbidden could not be found, when the
	// executions the run keeps could.
	ForbiddenErr error
	Summary      string // the result block, as purr prints it
	Err          error  // the test or the model could not be checked
}

// The lists of executions the page switches between: those the run keeps
// (the model allows) and those the model's checks forbid.
const (
	listAllowed   = "allowed"
	listForbidden = "forbidden"
)

// list is one of the snapshot's lists of executions, by its name.
func (snap *Snapshot) list(name string) []outcome.Execution {
	if name == listForbidden {
		return snap.Forbidden
	}
	return snap.Executions
}

// Server serves the page about one test and one model. It answers from
// its embedded assets and from Load only: no request reaches the file
// system.
type Server struct {
	Test, Model string          // shown in the page's heading
	Load        func() Snapshot // checks the test under the model (again)
	Watch       []string        // the files whose changes call Load again
	// Poll is how often the files are looked at while a page listens
	// (default 300ms).
	Poll time.Duration
	// AnyHost accepts requests naming any host. Without it, only
	// localhost and loopback addresses are accepted, so that a web page
	// elsewhere cannot reach the server through a name it rebinds to
	// 127.0.0.1.
	AnyHost bool

	mu      sync.Mutex
	loaded  bool
	stamp   string
	version int
	snap    Snapshot
}

// DefaultRelations and DefaultSets are ticked when the page opens.
var (
	DefaultRelations = []string{"rf"}
	DefaultSets      = []string{"W", "R", "F"}
)

// current returns the snapshot of the files as they are now, checking
// again if any changed since the last check.
func (s *Server) current() (Snapshot, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stamp := s.stampFiles()
	if !s.loaded || stamp != s.stamp {
		s.snap = s.load()
		for i := range s.snap.Executions {
			s.snap.Executions[i] = withKindSets(s.snap.Executions[i])
		}
		for i := range s.snap.Forbidden {
			s.snap.Forbidden[i] = withKindSets(s.snap.Forbidden[i])
		}
		s.stamp, s.loaded = stamp, true
		s.version++
	}
	return s.snap, s.version
}

// load calls Load, making a panic an error shown on the page rather
// than the end of the server.
func (s *Server) load() (snap Snapshot) {
	defer func() {
		if r := recover(); r != nil {
			snap = Snapshot{Err: fmt.Errorf("internal error: %v (please report)", r)}
		}
	}()
	return s.Load()
}

// kindSets are the sets of events of one kind, which every execution has
// whether or not its model names them.
var kindSets = []string{"W", "R", "F"}

// withKindSets gives an execution the sets W, R and F, from its events'
// kinds, where it lacks them.
func withKindSets(x outcome.Execution) outcome.Execution {
	sets := make(map[string][]int, len(x.Sets)+len(kindSets))
	for n, ids := range x.Sets {
		sets[n] = ids
	}
	for _, kind := range kindSets {
		if _, ok := sets[kind]; ok {
			continue
		}
		ids := []int{}
		for _, e := range x.Events {
			if e.Kind == kind {
				ids = append(ids, e.ID)
			}
		}
		sets[kind] = ids
	}
	x.Sets = sets
	return x
}

// stampFiles identifies the watched files' versions by size and time.
func (s *Server) stampFiles() string {
	var b strings.Builder
	for _, f := range s.Watch {
		fi, err := os.Stat(f)
		if err != nil {
			fmt.Fprintf(&b, "%s:missing;", f)
			continue
		}
		fmt.Fprintf(&b, "%s:%d:%d;", f, fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.AnyHost && !loopbackHost(r.Host) {
		http.Error(w, "this server answers requests to localhost only", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	if r.URL.RawQuery != "" && r.URL.Path != "/svg" {
		http.Error(w, r.URL.Path+" takes no parameters", http.StatusBadRequest)
		return
	}
	switch r.URL.Path {
	case "/":
		s.asset(w, "index.html", "text/html; charset=utf-8")
	case "/app.js":
		s.asset(w, "app.js", "text/javascript; charset=utf-8")
	case "/style.css":
		s.asset(w, "style.css", "text/css; charset=utf-8")
	case "/state":
		s.serveState(w)
	case "/svg":
		s.serveSVG(w, r)
	case "/events":
		s.serveEvents(w, r)
	default:
		http.NotFound(w, r)
	}
}

// loopbackHost tells whether a Host header names this machine.
func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) asset(w http.ResponseWriter, name, ctype string) {
	data, err := assets.ReadFile("assets/" + name)
	if err != nil {
		http.Error(w, "missing asset", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// state is the page's JSON: everything but the drawings.
type state struct {
	Version    int             `json:"version"`
	Test       string          `json:"test"`
	Model      string          `json:"model"`
	Error      string          `json:"error,omitempty"`
	Summary    string          `json:"summary"`
	Relations  []choice        `json:"relations"`
	Sets       []choice        `json:"sets"`
	Executions []executionItem `json:"executions"`
	// Forbidden groups the executions the model's checks forbid by the
	// checks they fail: fewest checks first, then as met.
	Forbidden      []group  `json:"forbidden"`
	ForbiddenError string   `json:"forbiddenError,omitempty"`
	Checks         []choice `json:"checks"` // the checks failed, with their colours in the drawings
}

// group is the forbidden executions that fail the same checks.
type group struct {
	Checks     []string        `json:"checks"`
	Executions []executionItem `json:"executions"`
}

type choice struct {
	Name    string `json:"name"`
	Colour  string `json:"colour,omitempty"`
	Default bool   `json:"default"`
}

type executionItem struct {
	Index int      `json:"index"`
	State string   `json:"state"`
	Holds bool     `json:"holds"`
	Flags []string `json:"flags,omitempty"`
	Fails []string `json:"fails,omitempty"` // the checks it fails
}

// item is an execution as the page lists it.
func item(x outcome.Execution) executionItem {
	var parts []string
	for _, b := range x.State {
		parts = append(parts, b.LocString()+"="+b.ValueString(false))
	}
	return executionItem{x.Index, strings.Join(parts, "; "), x.Holds, x.Flags, failedChecks(x)}
}

// failedChecks names the checks an execution fails, in its order.
func failedChecks(x outcome.Execution) []string {
	var out []string
	for _, f := range x.Fails {
		out = append(out, f.Check)
	}
	return out
}

// groups gathers executions by the checks they fail: fewest checks
// first, then in the order met; executions in their order.
func groups(xs []outcome.Execution) []group {
	out := []group{}
	at := map[string]int{}
	for _, x := range xs {
		checks := failedChecks(x)
		key := strings.Join(checks, "\x00")
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, group{Checks: checks})
		}
		out[i].Executions = append(out[i].Executions, item(x))
	}
	slices.SortStableFunc(out, func(a, b group) int { return len(a.Checks) - len(b.Checks) })
	return out
}

// checkColours are the colours of the checks the snapshot's executions
// fail, the same in every drawing and in the page's lists.
func checkColours(snap *Snapshot) ([]string, map[string]string) {
	checks := show.FailedChecks(append(slices.Clip(snap.Forbidden), snap.Executions...))
	return checks, show.CheckColours(checks)
}

func (s *Server) serveState(w http.ResponseWriter) {
	snap, version := s.current()
	st := state{Version: version, Test: s.Test, Model: s.Model, Summary: snap.Summary,
		Relations: []choice{}, Sets: []choice{}, Executions: []executionItem{}, Forbidden: groups(snap.Forbidden), Checks: []choice{}}
	if snap.Err != nil {
		st.Error = errorText(snap.Err)
	}
	if snap.ForbiddenErr != nil {
		st.ForbiddenError = errorText(snap.ForbiddenErr)
	}
	checks, colours := checkColours(&snap)
	for _, c := range checks {
		st.Checks = append(st.Checks, choice{Name: c, Colour: colours[c]})
	}
	rels, sets := names(&snap)
	colours = picture.Colours(rels)
	for _, r := range rels {
		st.Relations = append(st.Relations, choice{r, colours[r], slices.Contains(DefaultRelations, r)})
	}
	for _, n := range sets {
		st.Sets = append(st.Sets, choice{Name: n, Default: slices.Contains(DefaultSets, n)})
	}
	for _, x := range snap.Executions {
		st.Executions = append(st.Executions, item(x))
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(st); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// errorText prints an error one problem a line, each with its position.
func errorText(err error) string {
	var list source.ErrorList
	if errors.As(err, &list) {
		lines := make([]string, len(list))
		for i, e := range list {
			lines[i] = e.Error()
		}
		return strings.Join(lines, "\n")
	}
	return err.Error()
}

// names lists the relations and sets of the snapshot's executions, of
// both lists: herd's four relations first, then the model's in
// alphabetical order.
func names(snap *Snapshot) (rels, sets []string) {
	seenR, seenS := map[string]bool{}, map[string]bool{}
	for _, x := range append(slices.Clip(snap.Executions), snap.Forbidden...) {
		for r := range x.Relations {
			seenR[r] = true
		}
		for n := range x.Sets {
			seenS[n] = true
		}
	}
	for _, r := range picture.DefaultRelations {
		if seenR[r] {
			rels = append(rels, r)
			delete(seenR, r)
		}
	}
	var rest []string
	for r := range seenR {
		rest = append(rest, r)
	}
	slices.Sort(rest)
	rels = append(rels, rest...)
	for n := range seenS {
		sets = append(sets, n)
	}
	slices.Sort(sets)
	return rels, sets
}

// serveSVG draws one execution:
// /svg?x=INDEX&rel=NAME...&set=NAME...&list=allowed|forbidden (the list
// the index is of: allowed when absent). Unknown parameters, malformed or
// unknown indexes, names and lists are refused.
func (s *Server) serveSVG(w http.ResponseWriter, r *http.Request) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		http.Error(w, "malformed query: "+err.Error(), http.StatusBadRequest)
		return
	}
	for k := range q {
		if k != "x" && k != "rel" && k != "set" && k != "list" {
			http.Error(w, fmt.Sprintf("unknown parameter %q (x, rel, set and list are known)", k), http.StatusBadRequest)
			return
		}
	}
	list := listAllowed
	if l, ok := q["list"]; ok {
		if len(l) != 1 || l[0] != listAllowed && l[0] != listForbidden {
			http.Error(w, fmt.Sprintf("list: give one of %s and %s", listAllowed, listForbidden), http.StatusBadRequest)
			return
		}
		list = l[0]
	}
	if len(q["x"]) != 1 {
		http.Error(w, "x: give one execution index", http.StatusBadRequest)
		return
	}
	index, err := strconv.Atoi(q["x"][0])
	if err != nil || index < 1 {
		http.Error(w, fmt.Sprintf("x: %q is not an execution index", q["x"][0]), http.StatusBadRequest)
		return
	}
	snap, _ := s.current()
	xs := snap.list(list)
	i := slices.IndexFunc(xs, func(x outcome.Execution) bool { return x.Index == index })
	if i < 0 {
		http.Error(w, fmt.Sprintf("no execution %d among those %s", index, list), http.StatusNotFound)
		return
	}
	rels, sets := names(&snap)
	for _, r := range q["rel"] {
		if !slices.Contains(rels, r) {
			http.Error(w, fmt.Sprintf("rel: no relation %q", r), http.StatusBadRequest)
			return
		}
	}
	for _, n := range q["set"] {
		if !slices.Contains(sets, n) {
			http.Error(w, fmt.Sprintf("set: no set %q", n), http.StatusBadRequest)
			return
		}
	}
	chosen := q["rel"]
	if chosen == nil {
		chosen = []string{} // nil would draw picture's defaults
	}
	var buf bytes.Buffer
	_, checks := checkColours(&snap)
	opt := picture.Options{Relations: chosen, Sets: q["set"], Colours: picture.Colours(rels), CheckColours: checks}
	if err := picture.SVG(&buf, xs[i], opt); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// serveEvents streams the version of the check as Server-Sent Events:
// once at once, then whenever a watched file changes.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	poll := s.Poll
	if poll <= 0 {
		poll = 300 * time.Millisecond
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	sent := -1
	for {
		if _, v := s.current(); v != sent {
			if _, err := fmt.Fprintf(w, "data: %d\n\n", v); err != nil {
				return
			}
			flusher.Flush()
			sent = v
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}
