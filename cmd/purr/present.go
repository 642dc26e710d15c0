package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
)

// relations are the relations pictures and listings present (see
// show.Relations). Executions of messages leave out co and fr when co told no executions
// apart (the model gives it no meaning, or --distinct leaves it out),
// unless -doshow asks for them.
func (o *options) relations(out *outcome.Outcome) []string {
	rels := show.Relations(out.Shown, o.doshow, o.unshow)
	if out.CoArbitrary && show.Messages(out.Executions) {
		rels = slices.DeleteFunc(rels, func(r string) bool { return (r == "co" || r == "fr") && !slices.Contains(o.doshow, r) })
	}
	return rels
}

// dotPath is where -o puts a test's pictures: DIR/NAME.dot, as herd7 does.
func dotPath(dir, name string) string {
	return filepath.Join(dir, strings.NewReplacer("/", "_", string(filepath.Separator), "_").Replace(name)+".dot")
}

// writeDOT writes the test's selected executions into -o's folder.
func (o *options) writeDOT(t *litmus.Test, out *outcome.Outcome) error {
	f, err := os.Create(dotPath(o.output, t.Name))
	if err != nil {
		return err
	}
	legend := fmt.Sprintf("Test %s, %s", t.Name, o.cfg.ModelName(t.Arch))
	if err := show.DOT(f, legend, out.Executions, o.relations(out), o.cfg.Picture); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeListing prints the test's selected executions as text.
func (o *options) writeListing(w io.Writer, t *litmus.Test, out *outcome.Outcome) error {
	fmt.Fprintf(w, "Test %s under %s: %d of %d executions (-show %s)\n", t.Name, o.cfg.ModelName(t.Arch),
		len(out.Executions), out.Positive+out.Negative, o.cfg.Show)
	if b := out.Bound; b != nil {
		fmt.Fprintln(w, boundNote(b))
	}
	fmt.Fprintln(w)
	return show.Listing(w, t.Name, out.Executions, o.relations(out))
}

// jsonResult is one test's line of --json; docs/purr-result.schema.json
// describes it, and a test holds the two together.
type jsonResult struct {
	Test       string              `json:"test"`
	Path       string              `json:"path"`
	Model      string              `json:"model"`
	Kind       string              `json:"kind"`
	Condition  string              `json:"condition"`
	Verdict    string              `json:"verdict"`
	Loop       bool                `json:"loop"`
	Bound      *jsonBound          `json:"bound,omitempty"`
	States     []map[string]string `json:"states"`
	Positive   int                 `json:"positive"`
	Negative   int                 `json:"negative"`
	Flags      []string            `json:"flags"`
	Complete   bool                `json:"complete"`
	Hash       string              `json:"hash"`
	Time       float64             `json:"time"`
	Show       string              `json:"show"`
	Shown      []string            `json:"shown"`
	Executions []jsonExecution     `json:"executions"`
}

// jsonBound is outcome.Bound: how loops were bounded, whether the answer
// holds for every bound.
type jsonBound struct {
	Unroll     string   `json:"unroll"`
	Iterations int      `json:"iterations,omitempty"`
	Exact      bool     `json:"exact"`
	Enough     bool     `json:"enough,omitempty"`
	Witnessed  bool     `json:"witnessed,omitempty"`
	Retries    []string `json:"retries"`
	Why        string   `json:"why,omitempty"`
	// Rounds and Precision: how --unroll none got to its answer (see
	// outcome.Bound).
	Rounds    int      `json:"rounds,omitempty"`
	Precision []string `json:"precision,omitempty"`
	// Abstraction, Tracked and Refinements: the refinement loop's, when
	// its abstraction gave the values.
	Abstraction bool     `json:"abstraction,omitempty"`
	Tracked     []string `json:"tracked,omitempty"`
	Refinements int      `json:"refinements,omitempty"`
}

func newJSONBound(b *outcome.Bound) *jsonBound {
	if b == nil {
		return nil
	}
	j := &jsonBound{Unroll: strconv.Itoa(b.Unroll), Exact: b.Exact, Enough: b.Enough, Witnessed: b.Witnessed, Retries: nonNil(b.Retries), Why: b.Why,
		Rounds: b.Rounds, Precision: b.Precision, Abstraction: b.Abstracted, Tracked: b.Tracked, Refinements: b.Refinements}
	if b.Unroll == outcome.Unbounded {
		j.Unroll, j.Iterations = "none", b.Iterations
	}
	return j
}

type jsonExecution struct {
	Index     int                 `json:"index"`
	Events    []jsonEvent         `json:"events"`
	Relations map[string][][2]int `json:"relations"`
	Sets      map[string][]int    `json:"sets"`
	State     map[string]string   `json:"state"`
	Holds     bool                `json:"holds"`
	Flags     []string            `json:"flags"`
	Fails     []jsonFailure       `json:"fails,omitempty"` // purr why's: the checks it fails
}

type jsonFailure struct {
	Check   string   `json:"check"`
	Kind    string   `json:"kind"`
	Witness [][2]int `json:"witness"`
}

type jsonEvent struct {
	ID     int      `json:"id"`
	Label  string   `json:"label"`
	Thread int      `json:"thread"`
	Kind   string   `json:"kind"`
	Loc    string   `json:"loc"`
	Value  string   `json:"value"`
	Tags   []string `json:"tags"`
	Instr  string   `json:"instr"`
	Pos    string   `json:"pos"`
}

// stateMap is a final state as JSON has it: location → value, as herd7
// prints them.
func stateMap(st outcome.State, hex bool) map[string]string {
	m := map[string]string{}
	for _, b := range st {
		m[b.LocString()] = b.ValueString(hex)
	}
	return m
}

// nonNil keeps JSON arrays arrays when empty.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// jsonExecution is an execution as JSON has it.
func (o *options) jsonExecution(x outcome.Execution) jsonExecution {
	jx := jsonExecution{Index: x.Index, Relations: map[string][][2]int{}, Sets: map[string][]int{},
		State: stateMap(x.State, o.cfg.Hexa), Holds: x.Holds, Flags: nonNil(x.Flags)}
	for _, e := range x.Events {
		jx.Events = append(jx.Events, jsonEvent{ID: e.ID, Label: e.Label, Thread: e.Thread, Kind: e.Kind,
			Loc: e.Loc, Value: e.Value, Tags: nonNil(e.Tags), Instr: e.Instr, Pos: e.Pos})
	}
	jx.Events = nonNil(jx.Events)
	for name, edges := range x.Relations {
		jx.Relations[name] = pairsOf(edges)
	}
	for name, ids := range x.Sets {
		jx.Sets[name] = nonNil(ids)
	}
	for _, f := range x.Fails {
		jx.Fails = append(jx.Fails, jsonFailure{Check: f.Check, Kind: f.Kind, Witness: pairsOf(f.Witness)})
	}
	return jx
}

// pairsOf is edges as JSON has them: [from, to] by event ID.
func pairsOf(edges []outcome.Edge) [][2]int {
	pairs := [][2]int{}
	for _, e := range edges {
		pairs = append(pairs, [2]int{e.From, e.To})
	}
	return pairs
}

// writeJSON prints one test's line of --json.
func (o *options) writeJSON(w io.Writer, path string, t *litmus.Test, out *outcome.Outcome, res herdout.Result) error {
	j := o.jsonHead(path, t, out, res)
	for _, x := range out.Executions {
		j.Executions = append(j.Executions, o.jsonExecution(x))
	}
	line, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// jsonStream is a test's line of --json whose executions are encoded one
// by one as the engine finds them (herd.Checker.CheckVisiting) into a spool,
// so that a test of any number of executions costs the memory of one.
type jsonStream struct {
	o     *options
	xs    spool              // the executions' JSON, comma-separated
	first *outcome.Execution // the first, which -doshow's warning reads
	err   error
}

// add encodes an execution.
func (s *jsonStream) add(x outcome.Execution) {
	if s.first == nil {
		s.first = &x
	}
	line, err := json.Marshal(s.o.jsonExecution(x))
	if err != nil {
		s.err = cmp.Or(s.err, err)
		return
	}
	if s.xs.Len() > 0 {
		s.xs.Write([]byte{','})
	}
	if _, err := s.xs.Write(line); err != nil {
		s.err = cmp.Or(s.err, err)
	}
}

// write prints the test's line: what writeJSON prints, byte for byte, the
// executions copied from the spool.
func (s *jsonStream) write(w io.Writer, path string, t *litmus.Test, out *outcome.Outcome, res herdout.Result) error {
	if s.err != nil {
		return s.err
	}
	head, err := json.Marshal(s.o.jsonHead(path, t, out, res))
	if err != nil {
		return err
	}
	// The executions are the object's last member: its line ends with
	// "executions":[]}.
	head, ok := bytes.CutSuffix(head, []byte("[]}"))
	if !ok {
		return fmt.Errorf("--json: a line does not end with its executions: %s", head)
	}
	if _, err := w.Write(append(head, '[')); err != nil {
		return err
	}
	if _, err := s.xs.WriteTo(w); err != nil {
		return err
	}
	_, err = io.WriteString(w, "]}\n")
	return err
}

// jsonHead is a test's line of --json without its executions.
func (o *options) jsonHead(path string, t *litmus.Test, out *outcome.Outcome, res herdout.Result) jsonResult {
	j := jsonResult{Test: t.Name, Path: path, Model: o.cfg.ModelName(t.Arch), Kind: res.Quantifier.Kind().String(),
		Condition: res.Quantifier.String() + " " + res.Condition, Verdict: res.Verdict.String(), Loop: res.Loop, Bound: newJSONBound(out.Bound),
		States: []map[string]string{}, Positive: out.Positive, Negative: out.Negative,
		Flags: nonNil(res.Flags), Complete: out.Complete, Hash: res.Hash, Time: res.Time,
		Show: string(o.cfg.Show), Shown: nonNil(out.Shown), Executions: []jsonExecution{}}
	for _, st := range res.States {
		m := map[string]string{}
		for _, b := range st.Bindings {
			m[b.Loc] = b.Value
		}
		j.States = append(j.States, m)
	}
	return j
}

// iterations is "1 iteration", "2 iterations", ...
func iterations(n int) string {
	if n == 1 {
		return "1 iteration"
	}
	return fmt.Sprintf("%d iterations", n)
}

// rounds says how many bounds --unroll none tried: "1 round", "2 rounds".
func rounds(n int) string {
	if n == 1 {
		return "1 round"
	}
	return fmt.Sprintf("%d rounds", n)
}

// abstraction says, when the values of a proof by values came from the
// refinement loop's abstraction, how often it was refined and what it
// tracked: ", abstraction refined once, tracking y".
func abstraction(b *outcome.Bound) string {
	if !b.Abstracted {
		return ""
	}
	s := ", abstraction"
	switch b.Refinements {
	case 0:
	case 1:
		s += " refined once,"
	default:
		s += fmt.Sprintf(" refined %d times,", b.Refinements)
	}
	if len(b.Tracked) == 0 {
		return s + " tracking no location"
	}
	return s + " tracking " + strings.Join(b.Tracked, ", ")
}

// boundNote says in a line how a test's loops were bounded and whether the
// answer holds for every bound.
func boundNote(b *outcome.Bound) string {
	var s string
	switch {
	case b.Unroll == outcome.Unbounded && b.Witnessed:
		s = fmt.Sprintf("Loops without a bound (--unroll none): an execution within %s settles the verdict for any number of iterations; the states and counts are those of %s, as %s", iterations(b.Iterations), iterations(b.Iterations), b.Why)
	case b.Unroll == outcome.Unbounded && b.Enough && len(b.Precision) > 0:
		s = fmt.Sprintf("Loops without a bound (--unroll none): the values the reads may take keep every execution within %s, so the answer holds for any number (%s%s: %s)", iterations(b.Iterations), rounds(b.Rounds), abstraction(b), strings.Join(b.Precision, "; "))
	case b.Unroll == outcome.Unbounded && b.Enough:
		s = fmt.Sprintf("Loops without a bound (--unroll none): no consistent execution goes past %s, so the answer holds for any number (%s: the SAT engine's bound check)", iterations(b.Iterations), rounds(b.Rounds))
	case b.Unroll == outcome.Unbounded && b.Rounds > 1:
		s = fmt.Sprintf("Loops without a bound (--unroll none): the answer holds for any number of iterations (%s: the test's own values end its loops within %s)", rounds(b.Rounds), iterations(b.Iterations))
	case b.Unroll == outcome.Unbounded:
		s = "Loops without a bound (--unroll none): the answer holds for any number of iterations"
	case b.Enough && len(b.Precision) > 0:
		detail := strings.Join(b.Precision, "; ")
		if a := abstraction(b); a != "" {
			detail = strings.TrimPrefix(a, ", ") + ": " + detail
		}
		s = fmt.Sprintf("Loops cut at --unroll %d, but the values the reads may take keep every execution within the bound: the answer holds for any number of iterations (%s)", b.Unroll, detail)
	case b.Enough:
		s = fmt.Sprintf("Loops cut at --unroll %d, but no consistent execution goes past the bound: the answer holds for any number of iterations", b.Unroll)
	case b.Exact:
		s = fmt.Sprintf("Loops cut at --unroll %d, but the answer holds for any number of iterations", b.Unroll)
	case b.Witnessed:
		s = fmt.Sprintf("Loops cut at --unroll %d: an execution settles the verdict for any larger bound, but the states and counts may change with the bound, as %s", b.Unroll, b.Why)
	default:
		s = fmt.Sprintf("Loops cut at --unroll %d: the answer may change with the bound, as %s; --unroll none decides every bound where it can", b.Unroll, b.Why)
	}
	if len(b.Retries) > 0 && b.Exact {
		s += "; retries cut off: " + strings.Join(b.Retries, ", ")
	}
	return s
}
