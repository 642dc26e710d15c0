package view

import (
	"bytes"
	"context"
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

// The lists of executions the page switches between: those the run keeps
// (the model allows) and those the model's checks forbid.
const (
	ListAllowed   = "allowed"
	ListForbidden = "forbidden"
)

// Checked is what a check says besides its executions.
type Checked struct {
	Summary string // the result block, as purr prints it
	// Cut says why the counts are incomplete (--max-executions), "" when
	// they are not: the page says it.
	Cut string
}

// Server serves the page about one test and one model. It answers from
// its embedded assets and from Check only: no request reaches the file
// system. It holds a few bytes per execution and the executions of a few
// pages in full: an execution it does not hold is built again by checking
// again up to it.
type Server struct {
	Test, Model string // shown in the page's heading
	// Check checks the test under the model as the files are now and
	// gives visit the executions of a list (ListAllowed or ListForbidden:
	// the candidate executions with the checks they fail, of which the
	// page lists those that fail one), in order, until visit returns
	// false. It must give the same executions in the same order while the
	// files do not change.
	Check func(ctx context.Context, list string, visit func(outcome.Visited) bool) (Checked, error)
	// Watch lists the files whose change checks again; it is asked again
	// after each check, as a model may include other files once edited.
	Watch func() []string
	// Report, when not nil, hears of each check of the executions the
	// model allows as it ends, with its error if it failed.
	Report func(c Checked, err error)
	// Poll is how often the files are looked at while a page listens
	// (default 300ms).
	Poll time.Duration
	// AnyHost accepts requests naming any host. Without it, only
	// localhost and loopback addresses are accepted, so that a web page
	// elsewhere cannot reach the server through a name it rebinds to
	// 127.0.0.1.
	AnyHost bool

	mu      sync.Mutex
	stamps  map[string]string // the watched files' stamps, by path
	version int
	lists   map[string]*listing // of the version
}

// DefaultRelations and DefaultSets are ticked when the page opens.
var (
	DefaultRelations = []string{"rf"}
	DefaultSets      = []string{"W", "R", "F"}
)

// current returns the lists of the files as they are now, checking again
// if any changed since the last check.
func (s *Server) current() (int, map[string]*listing) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var files []string
	if s.Watch != nil {
		files = s.Watch()
	}
	stamps := stampFiles(files)
	// A file newly watched (one the model now includes) is no change: the
	// check that named it read it.
	changed := s.lists == nil
	for f, st := range s.stamps {
		if now, ok := stamps[f]; ok && now != st {
			changed = true
		}
	}
	s.stamps = stamps
	if changed {
		for _, l := range s.lists {
			l.cancel()
		}
		s.version++
		s.lists = map[string]*listing{ListAllowed: s.newListing(ListAllowed), ListForbidden: s.newListing(ListForbidden)}
		// The forbidden executions are looked for once asked: there are
		// many more candidates than executions.
		s.lists[ListAllowed].start()
	}
	return s.version, s.lists
}

// Close stops the checks going on in the background; the server must not
// serve after.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.lists {
		l.cancel()
	}
}

// stampFiles identifies the files' versions by size and time.
func stampFiles(files []string) map[string]string {
	out := make(map[string]string, len(files))
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			out[f] = "missing"
			continue
		}
		out[f] = fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
	}
	return out
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
	switch r.URL.Path {
	case "/svg", "/groups", "/items":
	default:
		if r.URL.RawQuery != "" {
			http.Error(w, r.URL.Path+" takes no parameters", http.StatusBadRequest)
			return
		}
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
	case "/groups":
		s.serveGroups(w, r)
	case "/items":
		s.serveItems(w, r)
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

func writeJSON(w http.ResponseWriter, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// state is the page's JSON about the check: everything but the lists and
// the drawings.
type state struct {
	Version   int                  `json:"version"`
	Test      string               `json:"test"`
	Model     string               `json:"model"`
	Error     string               `json:"error,omitempty"` // the check of the allowed executions failed
	Summary   string               `json:"summary"`
	Cut       string               `json:"cut,omitempty"`
	Relations []choice             `json:"relations"`
	Sets      []choice             `json:"sets"`
	Checks    []choice             `json:"checks"` // the checks failed, with their colours in the drawings
	Lists     map[string]listState `json:"lists"`
}

// listState is how far the enumeration of a list is.
type listState struct {
	Count   int    `json:"count"`   // executions listed so far
	Started bool   `json:"started"` // the forbidden list is looked for once asked
	Done    bool   `json:"done"`
	Error   string `json:"error,omitempty"`
	Cut     string `json:"cut,omitempty"` // why the list stops short
}

type choice struct {
	Name    string `json:"name"`
	Colour  string `json:"colour,omitempty"`
	Default bool   `json:"default"`
}

func (s *Server) serveState(w http.ResponseWriter) {
	version, lists := s.current()
	st := state{Version: version, Test: s.Test, Model: s.Model, Relations: []choice{}, Sets: []choice{}, Checks: []choice{},
		Lists: map[string]listState{}}
	allowed := lists[ListAllowed]
	for name, l := range lists {
		l.mu.Lock()
		ls := listState{Count: len(l.items), Started: l.started, Done: l.done, Cut: l.cut}
		if l.err != nil {
			ls.Error = errorText(l.err)
		}
		l.mu.Unlock()
		st.Lists[name] = ls
	}
	allowed.mu.Lock()
	st.Summary, st.Cut = allowed.checked.Summary, allowed.checked.Cut
	allowed.mu.Unlock()
	st.Error = st.Lists[ListAllowed].Error
	checks, colours := checkColours(lists)
	for _, c := range checks {
		st.Checks = append(st.Checks, choice{Name: c, Colour: colours[c]})
	}
	rels, sets := names(lists)
	colours = picture.Colours(rels)
	for _, r := range rels {
		st.Relations = append(st.Relations, choice{r, colours[r], slices.Contains(DefaultRelations, r)})
	}
	for _, n := range sets {
		st.Sets = append(st.Sets, choice{Name: n, Default: slices.Contains(DefaultSets, n)})
	}
	writeJSON(w, st)
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

// checkColours are the colours of the checks the listed executions fail,
// the same in every drawing and in the page's lists: allowed ones (under
// -through) first, then forbidden ones, each in the order met.
func checkColours(lists map[string]*listing) ([]string, map[string]string) {
	var checks []string
	for _, name := range []string{ListAllowed, ListForbidden} {
		l := lists[name]
		l.mu.Lock()
		for _, c := range l.checks {
			if !slices.Contains(checks, c) {
				checks = append(checks, c)
			}
		}
		l.mu.Unlock()
	}
	return checks, show.CheckColours(checks)
}

// names lists the relations and sets that are not empty in some
// execution built in full, of both lists: herd's four relations first,
// then the model's in alphabetical order.
func names(lists map[string]*listing) (rels, sets []string) {
	seenR, seenS := map[string]bool{}, map[string]bool{}
	for _, l := range lists {
		l.mu.Lock()
		for r := range l.rels {
			seenR[r] = true
		}
		for n := range l.sets {
			seenS[n] = true
		}
		l.mu.Unlock()
	}
	for _, r := range picture.DefaultRelations {
		if seenR[r] {
			rels = append(rels, r)
			delete(seenR, r)
		}
	}
	rest := make([]string, 0, len(seenR))
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

// listOf reads a request's list parameter: allowed when absent.
func listOf(q url.Values) (string, error) {
	l, ok := q["list"]
	if !ok {
		return ListAllowed, nil
	}
	if len(l) != 1 || l[0] != ListAllowed && l[0] != ListForbidden {
		return "", fmt.Errorf("list: give one of %s and %s", ListAllowed, ListForbidden)
	}
	return l[0], nil
}

// query reads a request's parameters, refusing those not named.
func query(r *http.Request, known ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("malformed query: %v", err)
	}
	for k := range q {
		if !slices.Contains(known, k) {
			return nil, fmt.Errorf("unknown parameter %q (%s are known)", k, strings.Join(known, ", "))
		}
	}
	return q, nil
}

// one reads a parameter given at most once, def when absent.
func one(q url.Values, name, def string) (string, error) {
	switch v := q[name]; len(v) {
	case 0:
		return def, nil
	case 1:
		return v[0], nil
	}
	return "", fmt.Errorf("%s: give it once", name)
}

// serveGroups answers /groups?list=L&by=B&q=FILTER: the groups of the
// list's executions that the filter keeps, each with its count.
func (s *Server) serveGroups(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "list", "by", "q")
	var list, by, filter string
	if err == nil {
		list, err = listOf(q)
	}
	if err == nil {
		by, err = one(q, "by", byState)
	}
	if err == nil && !slices.Contains(groupings, by) {
		err = fmt.Errorf("by: give one of %s", strings.Join(groupings, ", "))
	}
	if err == nil {
		filter, err = one(q, "q", "")
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	version, lists := s.current()
	l := lists[list]
	if list == ListForbidden {
		l.start()
	}
	gs, total, more := l.groups(by, filter)
	writeJSON(w, struct {
		Version int     `json:"version"`
		Total   int     `json:"total"` // the executions the filter keeps
		Groups  []group `json:"groups"`
		More    int     `json:"more"` // groups left off
	}{version, total, gs, more})
}

// serveItems answers /items?list=L&by=B&key=K&q=FILTER&from=N&n=M: the
// executions of one group that the filter keeps, from the N-th on (from
// 0), at most M.
func (s *Server) serveItems(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "list", "by", "key", "q", "from", "n")
	var list, by, key, filter, fromS, nS string
	if err == nil {
		list, err = listOf(q)
	}
	if err == nil {
		by, err = one(q, "by", byState)
	}
	if err == nil && !slices.Contains(groupings, by) {
		err = fmt.Errorf("by: give one of %s", strings.Join(groupings, ", "))
	}
	if err == nil {
		key, err = one(q, "key", "")
	}
	if err == nil {
		filter, err = one(q, "q", "")
	}
	if err == nil {
		fromS, err = one(q, "from", "0")
	}
	if err == nil {
		nS, err = one(q, "n", "100")
	}
	from, errFrom := strconv.Atoi(fromS)
	n, errN := strconv.Atoi(nS)
	if err == nil && (errFrom != nil || from < 0) {
		err = fmt.Errorf("from: %q is not a position", fromS)
	}
	if err == nil && (errN != nil || n < 1 || n > maxItems) {
		err = fmt.Errorf("n: give a number from 1 to %d", maxItems)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	version, lists := s.current()
	items, total := lists[list].itemsOf(by, key, filter, from, n)
	writeJSON(w, struct {
		Version int        `json:"version"`
		Total   int        `json:"total"` // the group's executions the filter keeps
		Items   []itemJSON `json:"items"`
	}{version, total, items})
}

// serveSVG draws one execution:
// /svg?x=INDEX&rel=NAME...&set=NAME...&list=allowed|forbidden (the list
// the index is of: allowed when absent). Unknown parameters, malformed or
// unknown indexes, names and lists are refused.
func (s *Server) serveSVG(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "x", "rel", "set", "list")
	var list string
	if err == nil {
		list, err = listOf(q)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
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
	_, lists := s.current()
	x, err := lists[list].execution(s, index)
	if errors.Is(err, errNoSuch) {
		http.Error(w, fmt.Sprintf("no execution %d among those %s", index, list), http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, errorText(err), http.StatusConflict)
		return
	}
	rels, sets := names(lists)
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
	_, checks := checkColours(lists)
	opt := picture.Options{Relations: chosen, Sets: q["set"], Colours: picture.Colours(rels), CheckColours: checks}
	if err := picture.SVG(&buf, x, opt); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// serveEvents streams the check's progress as Server-Sent Events: at
// once, then whenever a watched file changes (a new version) or the lists
// grow: "VERSION COUNT-ALLOWED COUNT-FORBIDDEN".
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
	sent := ""
	for {
		v, lists := s.current()
		msg := fmt.Sprintf("%d %s %s", v, lists[ListAllowed].progress(), lists[ListForbidden].progress())
		if msg != sent {
			if _, err := fmt.Fprintf(w, "data: %s\n\n", msg); err != nil {
				return
			}
			flusher.Flush()
			sent = msg
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}
