package view

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// The ways the page groups a list's executions.
const (
	byState  = "state"  // by final state
	byRF     = "rf"     // by rf
	byCond   = "cond"   // by whether the condition holds
	byChecks = "checks" // by the checks they fail
)

var groupings = []string{byState, byRF, byCond, byChecks}

const (
	// pageSize executions are built in full together, when one of them is
	// drawn: the page's neighbours are drawn at once after.
	pageSize = 16
	// keptPages pages of executions in full are kept per list.
	keptPages = 4
	// maxGroups groups are listed at most; the filter narrows the rest.
	maxGroups = 500
	// maxItems executions are listed at most per request.
	maxItems = 1000
	// maxListed executions are listed at most per list (32 MB or so).
	maxListed = 1_000_000
)

// errNoSuch says that a list has no execution of that index.
var errNoSuch = errors.New("no such execution")

// item is an execution as the list holds it: a few numbers. The strings
// it names are kept once each in the listing's strs.
type item struct {
	index               int
	state, rf, co, tags int32 // tags: its flags
	fails               int32 // the checks it fails, joined by ", "
	holds               bool
}

// listing is one list of executions of one version of the files: its
// items, found by the check in the background, and a few pages of
// executions in full.
type listing struct {
	name   string
	check  func(ctx context.Context, list string, visit func(outcome.Visited) bool) (Checked, error)
	report func(Checked, error)
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	started bool
	done    bool
	err     error
	checked Checked
	cut     string // why the list stops short of the check's executions
	items   []item // by index
	strs    []string
	ids     map[string]int32
	checks  []string        // the checks failed, in the order met
	rels    map[string]bool // relations not empty in an execution built in full
	sets    map[string]bool
	full    map[int]outcome.Execution // the executions of the pages kept, by index
	pages   []int                     // the pages kept, oldest first

	building sync.Mutex // one page built at a time
}

func (s *Server) newListing(name string) *listing {
	ctx, cancel := context.WithCancel(context.Background())
	l := &listing{name: name, check: s.Check, ctx: ctx, cancel: cancel, ids: map[string]int32{},
		rels: map[string]bool{}, sets: map[string]bool{}, full: map[int]outcome.Execution{}}
	if name == ListAllowed {
		l.report = s.Report
	}
	l.intern("")
	return l
}

// intern numbers a string, once; l.mu is held.
func (l *listing) intern(s string) int32 {
	if id, ok := l.ids[s]; ok {
		return id
	}
	id := int32(len(l.strs))
	l.strs = append(l.strs, s)
	l.ids[s] = id
	return id
}

// start enumerates the list in the background, once.
func (l *listing) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started {
		return
	}
	l.started = true
	go l.enumerate()
}

// progress is the list's count so far, and "done" once complete.
func (l *listing) progress() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case !l.started:
		return "-"
	case l.done:
		return strconv.Itoa(len(l.items)) + "/done"
	}
	return strconv.Itoa(len(l.items))
}

// run calls check, making a panic an error shown on the page rather than
// the end of the server.
func (l *listing) run(visit func(outcome.Visited) bool) (c Checked, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v (please report)", r)
		}
	}()
	return l.check(l.ctx, l.name, visit)
}

// enumerate lists the executions: each briefly (its state, rf, co, flags
// and the checks it fails), the first page in full.
func (l *listing) enumerate() {
	checked, err := l.run(func(v outcome.Visited) bool {
		if l.ctx.Err() != nil {
			return false
		}
		x := v.Build(true)
		if l.name == ListForbidden && len(x.Fails) == 0 {
			return true
		}
		l.mu.Lock()
		l.add(x)
		n := len(l.items)
		if n == maxListed {
			l.cut = fmt.Sprintf("the page lists the first %d executions found, and counts those", maxListed)
		}
		l.mu.Unlock()
		if n <= pageSize {
			l.keep(0, withKindSets(v.Build(false)))
		}
		return n < maxListed
	})
	if l.ctx.Err() != nil {
		return // a newer version of the files took over
	}
	l.mu.Lock()
	l.done, l.checked, l.err = true, checked, err
	if err != nil {
		l.items = nil
	}
	l.mu.Unlock()
	if l.report != nil {
		l.report(checked, err)
	}
}

// add lists an execution built briefly; l.mu is held.
func (l *listing) add(x outcome.Execution) {
	var fails []string
	for _, f := range x.Fails {
		fails = append(fails, f.Check)
		if !slices.Contains(l.checks, f.Check) {
			l.checks = append(l.checks, f.Check)
		}
	}
	it := item{index: x.Index, holds: x.Holds,
		state: l.intern(stateText(x.State)), rf: l.intern(edgesText(x, "rf")), co: l.intern(coText(x)),
		tags: l.intern(strings.Join(x.Flags, ", ")), fails: l.intern(strings.Join(fails, ", "))}
	l.items = append(l.items, it)
}

// stateText prints a final state as the page lists it.
func stateText(st outcome.State) string {
	parts := make([]string, len(st))
	for i, b := range st {
		parts[i] = b.LocString() + "=" + b.ValueString(false)
	}
	return strings.Join(parts, "; ")
}

// edgesText prints a relation of an execution by its events' labels, as
// purr executions does: "a->c b->d".
func edgesText(x outcome.Execution, rel string) string {
	var b strings.Builder
	for i, e := range x.Relations[rel] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.Events[e.From].Label + "->" + x.Events[e.To].Label)
	}
	return b.String()
}

// coText prints co as the order of the writes to each location: "a<c<b;
// d<e" (co is a total order per location).
func coText(x outcome.Execution) string {
	before := map[int]int{} // writes co-before each write
	for _, e := range x.Relations["co"] {
		before[e.To]++
		if _, ok := before[e.From]; !ok {
			before[e.From] = 0
		}
	}
	byLoc := map[string][]int{}
	var locs []string
	for id := range x.Events {
		if _, ok := before[id]; !ok {
			continue
		}
		loc := x.Events[id].Loc
		if _, ok := byLoc[loc]; !ok {
			locs = append(locs, loc)
		}
		byLoc[loc] = append(byLoc[loc], id)
	}
	parts := make([]string, len(locs))
	for i, loc := range locs {
		ids := byLoc[loc]
		slices.SortStableFunc(ids, func(a, b int) int { return before[a] - before[b] })
		labels := make([]string, len(ids))
		for j, id := range ids {
			labels[j] = x.Events[id].Label
		}
		parts[i] = strings.Join(labels, "<")
	}
	return strings.Join(parts, "; ")
}

// keep holds an execution built in full, of the page that starts at
// position page, forgetting the oldest page past keptPages; it records
// the relations and sets the execution does not leave empty.
func (l *listing) keep(page int, x outcome.Execution) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.pages, page) {
		l.pages = append(l.pages, page)
		if len(l.pages) > keptPages {
			old := l.pages[0]
			l.pages = l.pages[1:]
			for _, it := range l.items[min(old, len(l.items)):min(old+pageSize, len(l.items))] {
				delete(l.full, it.index)
			}
		}
	}
	l.full[x.Index] = x
	for r, edges := range x.Relations {
		if len(edges) > 0 {
			l.rels[r] = true
		}
	}
	for n, ids := range x.Sets {
		if len(ids) > 0 {
			l.sets[n] = true
		}
	}
}

// execution returns the execution of an index, built in full: held, or
// built again with its page by checking again up to it.
func (l *listing) execution(s *Server, index int) (outcome.Execution, error) {
	l.building.Lock()
	defer l.building.Unlock()
	l.mu.Lock()
	if x, ok := l.full[index]; ok {
		l.mu.Unlock()
		return x, nil
	}
	pos, found := sort.Find(len(l.items), func(i int) int { return index - l.items[i].index })
	if !found {
		l.mu.Unlock()
		return outcome.Execution{}, errNoSuch
	}
	start := pos / pageSize * pageSize
	want := slices.Clone(l.items[start:min(start+pageSize, len(l.items))])
	l.mu.Unlock()

	last := want[len(want)-1].index
	var got outcome.Execution
	var mismatch error
	_, err := l.run(func(v outcome.Visited) bool {
		if l.ctx.Err() != nil || v.Index > last {
			return false
		}
		i, ok := slices.BinarySearchFunc(want, v.Index, func(it item, index int) int { return it.index - index })
		if !ok {
			return true
		}
		x := withKindSets(v.Build(false))
		if !l.same(want[i], x) {
			mismatch = fmt.Errorf("execution %d is not as listed: the files changed; checking again", v.Index)
			return false
		}
		l.keep(start, x)
		if x.Index == index {
			got = x
		}
		return v.Index < last
	})
	switch {
	case mismatch != nil:
		return got, mismatch
	case err != nil:
		return got, err
	case got.Index != index:
		return got, fmt.Errorf("execution %d: the check did not meet it again: the files changed; checking again", index)
	}
	return got, nil
}

// same tells whether an execution built in full is the one listed.
func (l *listing) same(it item, x outcome.Execution) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.strs[it.state] == stateText(x.State) && l.strs[it.rf] == edgesText(x, "rf") && l.strs[it.co] == coText(x)
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
			if e.Kind == kind || kind == "R" && e.Reads() || kind == "W" && e.Writes() {
				ids = append(ids, e.ID)
			}
		}
		sets[kind] = ids
	}
	x.Sets = sets
	return x
}

// group is the executions of a list that share a key.
type group struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Count int    `json:"count"`
	// Holds is whether the condition holds, grouped by it.
	Holds bool `json:"holds,omitempty"`
	// Checks are the checks failed, grouped by them.
	Checks []string `json:"checks,omitempty"`
}

// key is the group of an item under a grouping, as a string id (or for
// the condition, 1 when it holds).
func (it *item) key(by string) int32 {
	switch by {
	case byRF:
		return it.rf
	case byCond:
		if it.holds {
			return 1
		}
		return 0
	case byChecks:
		return it.fails
	}
	return it.state
}

// filter is a compiled filter: words that must each be in one of an
// item's texts (its state, rf, co, flags, failed checks), or be its
// number (#12), or "cond" when the condition holds.
type filter struct {
	words   []string
	matches [][]bool // per word, per string id
	index   []int    // per word, the index it names, or -1
}

func (l *listing) compile(q string) *filter {
	f := &filter{words: strings.Fields(q)}
	for _, w := range f.words {
		m := make([]bool, len(l.strs))
		for id, s := range l.strs {
			m[id] = strings.Contains(s, w)
		}
		f.matches = append(f.matches, m)
		n := -1
		if d, ok := strings.CutPrefix(w, "#"); ok {
			if v, err := strconv.Atoi(d); err == nil {
				n = v
			}
		}
		f.index = append(f.index, n)
	}
	return f
}

func (f *filter) keeps(it *item) bool {
	for i, w := range f.words {
		m := f.matches[i]
		if !(m[it.state] || m[it.rf] || m[it.co] || m[it.tags] || m[it.fails] || f.index[i] == it.index || w == "cond" && it.holds) {
			return false
		}
	}
	return true
}

// group is the group of an item under a grouping, named.
func (l *listing) group(by string, it *item) group {
	g := group{Key: strconv.Itoa(int(it.key(by)))}
	switch by {
	case byRF:
		g.Label = "rf: " + l.strs[it.rf]
		if l.strs[it.rf] == "" {
			g.Label = "rf: none"
		}
	case byCond:
		g.Holds = it.holds
		g.Label = "the condition does not hold"
		if it.holds {
			g.Label = "the condition holds"
		}
	case byChecks:
		g.Label = "fails " + l.strs[it.fails]
		if l.strs[it.fails] == "" {
			g.Label = "fails no check"
		} else {
			g.Checks = strings.Split(l.strs[it.fails], ", ")
		}
	default:
		g.Label = l.strs[it.state]
		if g.Label == "" {
			g.Label = "(no state)"
		}
	}
	return g
}

// groups lists the groups of the executions the filter keeps, in the
// order met (fewest checks first, by checks; the condition holding
// first, by it), at most maxGroups, with the number kept and of groups
// left off.
func (l *listing) groups(by, q string) (gs []group, total, more int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.compile(q)
	at := map[int32]int{}
	gs = []group{}
	for i := range l.items {
		it := &l.items[i]
		if !f.keeps(it) {
			continue
		}
		total++
		k := it.key(by)
		j, ok := at[k]
		if !ok {
			j = len(gs)
			at[k] = j
			gs = append(gs, l.group(by, it))
		}
		gs[j].Count++
	}
	switch by {
	case byChecks:
		slices.SortStableFunc(gs, func(a, b group) int { return len(a.Checks) - len(b.Checks) })
	case byCond:
		slices.SortStableFunc(gs, func(a, b group) int {
			if a.Holds == b.Holds {
				return 0
			}
			if a.Holds {
				return -1
			}
			return 1
		})
	}
	if len(gs) > maxGroups {
		more = len(gs) - maxGroups
		gs = gs[:maxGroups]
	}
	return gs, total, more
}

// itemJSON is an execution as the page lists it.
type itemJSON struct {
	Index int      `json:"index"`
	State string   `json:"state"`
	RF    string   `json:"rf"`
	CO    string   `json:"co"`
	Holds bool     `json:"holds"`
	Flags string   `json:"flags,omitempty"`
	Fails []string `json:"fails,omitempty"`
}

// itemsOf lists the executions of a group the filter keeps, from
// position from, at most n, with their number.
func (l *listing) itemsOf(by, key, q string, from, n int) ([]itemJSON, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := []itemJSON{}
	k, err := strconv.Atoi(key)
	if err != nil {
		return out, 0
	}
	f := l.compile(q)
	total := 0
	for i := range l.items {
		it := &l.items[i]
		if int(it.key(by)) != k || !f.keeps(it) {
			continue
		}
		if total >= from && len(out) < n {
			x := itemJSON{Index: it.index, State: l.strs[it.state], RF: l.strs[it.rf], CO: l.strs[it.co], Holds: it.holds,
				Flags: l.strs[it.tags]}
			if s := l.strs[it.fails]; s != "" {
				x.Fails = strings.Split(s, ", ")
			}
			out = append(out, x)
		}
		total++
	}
	return out, total
}
