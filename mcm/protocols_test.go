package mcm

import (
	"context"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// protocolModel loads a model written here, which may include purr's
// library and models.
func protocolModel(t *testing.T, name, src string) *cat.Model {
	t.Helper()
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := l.LoadSource(name+".cat", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkBoth runs a test under a model in both engines, which must agree
// on everything they report, and returns the result.
func checkBoth(t *testing.T, m *cat.Model, test *litmus.Test, distinct []string) *outcome.Outcome {
	t.Helper()
	var outs [2]*outcome.Outcome
	for i, engine := range []string{EngineSAT, EngineExplicit} {
		out, err := Check(m, test, Options{Unroll: 2, Engine: engine, Distinct: distinct, CheckModels: engine == EngineSAT})
		if err != nil {
			t.Fatalf("%s (%s engine): %v", test.File, engine, err)
		}
		outs[i] = out
	}
	a, b := outs[0].Result(test, false), outs[1].Result(test, false)
	if a.String() != b.String() {
		t.Errorf("%s: the engines disagree:\nsat:\n%s\nexplicit:\n%s", test.File, a.String(), b.String())
	}
	return outs[0]
}

func states(t *litmus.Test, out *outcome.Outcome) []string {
	r := out.Result(t, false)
	var s []string
	for _, st := range r.States {
		s = append(s, st.String())
	}
	return s
}

// TestProtocolPatterns runs each pattern's scenario (testdata/protocols,
// whose comments derive the counts by hand) under msg.cat alone (plus
// base), then with the pattern, then with its negation: the scenario's
// condition is an execution the pattern forbids and its negation keeps,
// kept a final state the pattern keeps; the pattern and its negation
// split msg.cat's executions between them. Every count is of executions
// up to rf.
func TestProtocolPatterns(t *testing.T) {
	for _, tc := range []struct {
		scenario, base, pattern, negation string
		kept                              string
		counts                            [5]int // msg.cat (+ base), + the pattern, -m udp, -m tcp, -m tcp-buffered
	}{
		{"no-reordering", "", "no-reordering(po, rf, co)", "reordering(po, rf, co)", "1:i=1; 1:j=2;", [5]int{9, 8, 4, 1, 1}},
		{"causality", "", "causality(po, rf)", "acausality(po, rf)", "0:i=1; 1:j=-1;", [5]int{4, 3, 0, 0, 0}},
		{"no-duplication", "", "no-duplication(rf)", "duplication(rf)", "1:i=1; 2:j=-1;", [5]int{4, 3, 1, 0, 0}},
		{"no-duplication-per-participant", "", "no-duplication-per-participant(rf, int)", "duplication-per-participant(rf, int)", "1:i=1; 1:j=-1; 2:k=1;", [5]int{8, 6, 1, 0, 0}},
		{"no-loss", "", "no-loss(rf)", "loss(rf)", "1:i=1; 1:j=-1;", [5]int{4, 3, 1, 0, 0}},
		{"broadcast", "", "broadcast(rf)", "partial-broadcast(rf)", "1:i=1; 2:j=1; 2:k=2;", [5]int{8, 1, 1, 0, 0}},
		{"synchronous", `include "msg-no-reordering.cat" call no-reordering(po, rf, co)`, "synchronous(po, rf)", "asynchronous(po, rf)", "1:i=-1; 1:j=1;", [5]int{4, 1, 1, 0, 1}},
		{"blocking", "", "blocking(rf)", "non-blocking(rf)", "1:i=1;", [5]int{2, 1, 1, 1, 1}},
		{"no-ignored-send", "let legal = (((W \\ IW) * R) & loc) \\ po^-1", "no-ignored-send(rf, legal)", "ignored-send(rf, legal)", "0:i=-1; 1:j=1;", [5]int{4, 2, 0, 0, 0}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
			base := "include \"msg.cat\"\n" + tc.base + "\n"
			include := fmt.Sprintf("include \"msg-%s.cat\"\n", tc.scenario)
			with := base + include + "call " + tc.pattern + "\n"
			without := base + include + "call " + tc.negation + "\n"
			rf := []string{"rf"}
			var counts [5]int
			for i, m := range []*cat.Model{
				protocolModel(t, "base", base), protocolModel(t, "pattern", with),
				embeddedModel(t, "udp"), embeddedModel(t, "tcp"), embeddedModel(t, "tcp-buffered"),
			} {
				out := checkBoth(t, m, test, rf)
				counts[i] = out.Positive + out.Negative
				if counts[i] != tc.counts[i] {
					t.Errorf("model %d: %d executions up to rf, the derivation says %d", i, counts[i], tc.counts[i])
				}
				switch i {
				case 0:
					if out.Positive == 0 {
						t.Errorf("msg.cat alone forbids the condition: the scenario shows nothing")
					}
				case 1:
					if out.Positive != 0 {
						t.Errorf("the pattern keeps the condition it should forbid (%d executions)", out.Positive)
					}
					if got := states(test, out); !strings.Contains(strings.Join(got, "\n"), tc.kept) {
						t.Errorf("the pattern forbids %s; its states: %q", tc.kept, got)
					}
				}
			}
			neg := checkBoth(t, protocolModel(t, "negation", without), test, rf)
			if got, want := neg.Positive+neg.Negative, counts[0]-counts[1]; got != want {
				t.Errorf("%s: %d executions up to rf, want the %d the pattern forbids", tc.negation, got, want)
			}
			if neg.Positive == 0 {
				t.Errorf("%s forbids the condition, which shows the behaviour", tc.negation)
			}
		})
	}
}

// TestProtocolMixed runs scenarios that mix memory accesses and messages
// (their comments derive the counts by hand, up to rf): each pattern's
// short form constrains the messages alone, and the long form with the
// thesis's sets (W \ IW, R) constrains the memory accesses as well.
func TestProtocolMixed(t *testing.T) {
	legal := "let legal = ((SEND * RECV) & loc) \\ po^-1\n"
	for _, tc := range []struct {
		scenario, model string
		want            int
	}{
		{"mixed", "", 4},
		{"mixed", "no-loss(rf)", 2},
		{"mixed", "no-loss(rf & (SEND * RECV))", 2},
		{"mixed", "no-loss-of(SEND, RECV, rf)", 2},
		{"mixed", "no-loss-of(W \\ IW, R, rf)", 1},
		{"mixed", "loss(rf)", 2},
		{"mixed", "broadcast(rf)", 2},
		{"mixed", "blocking(rf)", 2},
		{"mixed", "blocking(rf & (SEND * RECV))", 2},
		{"mixed", "no-ignored-send(rf, legal)", 2},
		{"mixed", "causality(po, rf)", 4},
		{"mixed", "no-reordering(po, rf, co)", 4},
		{"mixed", "no-duplication(rf)", 4},
		{"mixed", "no-duplication-per-participant(rf, int)", 4},
		{"mixed", "synchronous(po, rf)", 4},
		{"mixed", "udp", 2},
		{"mixed", "tcp", 2},
		{"mixed", "tcp-buffered", 2},
		{"mixed-synchronous", "", 4},
		{"mixed-synchronous", "synchronous(po, rf)", 1},
		{"mixed-synchronous", "asynchronous(po, rf)", 3},
		{"mixed-synchronous", "udp", 2},
		{"mixed-synchronous", "tcp", 1},
		{"mixed-synchronous", "tcp-buffered", 2},
		{"mixed", "exactly-once", 2},
		{"mixed", "at-most-once", 2},
		{"mixed", "fifo", 2},
		{"mixed", "causal", 2},
		{"mixed", "atomic-broadcast", 2},
		{"mixed-synchronous", "exactly-once", 2},
		{"mixed-synchronous", "at-most-once", 2},
		{"mixed-synchronous", "fifo", 2},
		{"mixed-synchronous", "causal", 2},
		{"mixed-synchronous", "atomic-broadcast", 2},
	} {
		test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
		var m *cat.Model
		switch tc.model {
		case "udp", "tcp", "tcp-buffered", "exactly-once", "at-most-once", "fifo", "causal", "atomic-broadcast":
			m = embeddedModel(t, tc.model)
		case "":
			m = protocolModel(t, "msg", `include "msg.cat"`)
		default:
			m = protocolModel(t, "pattern", "include \"msg.cat\"\ninclude \""+patternFile(tc.model)+"\"\n"+legal+"call "+tc.model+"\n")
		}
		out := checkBoth(t, m, test, []string{"rf"})
		if got := out.Positive + out.Negative; got != tc.want {
			t.Errorf("%s under %q: %d executions up to rf, the derivation says %d", tc.scenario, tc.model, got, tc.want)
		}
	}
}

// patternFile names the library file that defines a pattern call's
// procedure: its short or long form, positive or negative.
func patternFile(call string) string {
	name := strings.TrimSuffix(call[:strings.Index(call, "(")], "-of")
	for file, procs := range map[string][]string{
		"msg-no-loss.cat":                        {"no-loss", "loss"},
		"msg-broadcast.cat":                      {"broadcast", "partial-broadcast"},
		"msg-blocking.cat":                       {"blocking", "non-blocking"},
		"msg-causality.cat":                      {"causality", "acausality"},
		"msg-no-reordering.cat":                  {"no-reordering", "reordering"},
		"msg-no-duplication.cat":                 {"no-duplication", "duplication"},
		"msg-no-duplication-per-participant.cat": {"no-duplication-per-participant", "duplication-per-participant"},
		"msg-synchronous.cat":                    {"synchronous", "asynchronous"},
		"msg-no-ignored-send.cat":                {"no-ignored-send", "ignored-send"},
	} {
		if slices.Contains(procs, name) {
			return file
		}
	}
	return "no file defines " + name
}

// TestProtocolScenarios checks the thesis's two scenarios: the tcp model
// finds exactly one execution of tcp.litmus (herd7's counting: the model
// orders co), none of udp.litmus, and the udp model 6 of udp.litmus up to
// rf (i gets 1 or 2, j gets 1, 2 or P1's send), which is also herd7's
// counting: the udp model never reads co, and x is not observed.
func TestProtocolScenarios(t *testing.T) {
	for _, tc := range []struct {
		scenario, model string
		distinct        []string
		want            int
	}{
		{"tcp", "tcp", nil, 1},
		{"udp", "tcp", nil, 0},
		{"udp", "udp", []string{"rf"}, 6},
		{"udp", "udp", nil, 6},
		{"tcp", "udp", []string{"rf"}, 2},
		{"tcp", "udp", nil, 2},
		// Plain loads read memory (the comment of the test derives 3 * 4).
		{"udp-aarch64", "udp", []string{"rf"}, 12},
		// The guide's model: blocking, i gets 1 or 2; no duplication:
		// j gets another message; no reordering: not 1 after 2. i=1: j
		// gets 2 or P1's send; i=2: j gets P1's send: 3.
		{"udp", "lossy-fifo", []string{"rf"}, 3},
		// A buffered connection: the thesis's echo as under tcp; two
		// pipelined requests deadlock under tcp, not under tcp-buffered
		// (tcp-pipelined.litmus derives the counts).
		{"tcp", "tcp-buffered", nil, 1},
		{"udp", "tcp-buffered", nil, 0},
		{"tcp-pipelined", "tcp", nil, 0},
		{"tcp-pipelined", "tcp-buffered", nil, 1},
		{"tcp-pipelined", "udp", []string{"rf"}, 16},
	} {
		test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
		var m *cat.Model
		if tc.model == "lossy-fifo" {
			src, err := readFile(repoPath("testdata/protocols/lossy-fifo.cat"))
			if err != nil {
				t.Fatal(err)
			}
			m = protocolModel(t, tc.model, string(src))
		} else {
			m = embeddedModel(t, tc.model)
		}
		out := checkBoth(t, m, test, tc.distinct)
		if got := out.Positive + out.Negative; got != tc.want {
			t.Errorf("%s -m %s --distinct %v: %d executions, want %d", tc.scenario, tc.model, tc.distinct, got, tc.want)
		}
	}
}

// TestProtocolNeedsMsgCat checks that a test with messages is refused,
// at its first send or receive, under a model that does not read them
// (no msg.cat), in both engines and by purr why, rather than having its
// receives read memory; and that with msg.cat a receive may get nothing.
func TestProtocolNeedsMsgCat(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/protocols/blocking.litmus"))
	plain := protocolModel(t, "plain", `"no axioms"`)
	want := `blocking.litmus:10:3: send is a message, but the model "no axioms" does not read messages`
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		if _, err := Check(plain, test, Options{Engine: engine}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s engine, without msg.cat: %v, want %q", engine, err, want)
		}
	}
	if _, err := Why(context.Background(), plain, test, Options{}, 1); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("why, without msg.cat: %v, want %q", err, want)
	}
	msg := checkBoth(t, protocolModel(t, "msg", `include "msg.cat"`), test, nil)
	if got, want := states(test, msg), []string{"1:i=-1;", "1:i=1;"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with msg.cat: states %q, want %q", got, want)
	}
}

// TestDistinctRefuses checks what --distinct refuses: names other than rf
// and co, a final state that executions counted as one may disagree on
// (memory values depend on co), and models with flags.
func TestDistinctRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"rf,co", ""},
		{"rf", ""},
		{"po", `--distinct: "po" is not a relation`},
		{"rf,rf", "--distinct: rf is named twice"},
		{"", `--distinct: "" is not a relation`},
	} {
		_, err := ParseDistinct(tc.in)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("ParseDistinct(%q): %v, want %q", tc.in, err, tc.want)
		}
	}
	memory := inlineTest(t, `C memory
{}
P0(int *x) {
  send(x, 1);
  send(x, 2);
}
exists (x=2)
`)
	msg := protocolModel(t, "msg", `include "msg.cat"`)
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		_, err := Check(msg, memory, Options{Engine: engine, Distinct: []string{"rf"}})
		if err == nil || !strings.Contains(err.Error(), "the final value of [x] depends on co") {
			t.Errorf("%s: --distinct rf with x in the condition: %v", engine, err)
		}
		out, err := Check(msg, memory, Options{Engine: engine, Distinct: []string{"rf", "co"}})
		if err != nil || out.Positive != 1 || out.Negative != 1 {
			t.Errorf("%s: --distinct rf,co: %+v, %v; want 1 and 1", engine, out, err)
		}
		flags := protocolModel(t, "flags", "include \"msg.cat\"\nflag ~empty rf as received")
		test := parseTestFile(t, repoPath("testdata/protocols/blocking.litmus"))
		if _, err := Check(flags, test, Options{Engine: engine, Distinct: []string{"rf"}}); err == nil || !strings.Contains(err.Error(), "the model has flags") {
			t.Errorf("%s: --distinct with a flag: %v", engine, err)
		}
	}
}

// TestProtocolWrongKind checks that a pattern called with the wrong kind of
// argument is refused at the call: when the model is loaded, as purr
// loads it (CheckNames), and otherwise when it runs, naming where its
// body fails.
func TestProtocolWrongKind(t *testing.T) {
	src := "include \"msg.cat\"\ninclude \"msg-no-loss.cat\"\ncall no-loss(SEND)\n"
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	if err := CheckNames(l); err != nil {
		t.Fatal(err)
	}
	_, err := l.LoadSource("wrong.cat", []byte(src))
	if want := "wrong.cat:3:14: procedure 'no-loss' takes a relation as its only argument, got an event set"; err == nil || err.Error() != want {
		t.Errorf("loading: %v, want %q", err, want)
	}
	test := parseTestFile(t, repoPath("testdata/protocols/blocking.litmus"))
	m := protocolModel(t, "wrong", src)
	want := "wrong.cat:3:1: call no-loss fails in its body: embed:msg-no-loss.cat:"
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		if _, err := Check(m, test, Options{Engine: engine}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s engine: %v, want %q", engine, err, want)
		}
	}
}

// TestProtocolScopes checks scopes per channel: scopes.litmus declares a
// reliable channel and a lossy one, and scopes.cat asks no loss of the
// reliable one alone (the scenario derives the counts by hand, up to rf);
// a message whose channel the test does not fix is refused when the test
// declares scopes.
func TestProtocolScopes(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/protocols/scopes.litmus"))
	src, err := readFile(repoPath("testdata/protocols/scopes.cat"))
	if err != nil {
		t.Fatal(err)
	}
	everywhere := strings.Replace(string(src), "call no-loss-of(SEND & Reliable, RECV & Reliable, rf)", "call no-loss(rf)", 1)
	if everywhere == string(src) {
		t.Fatal("scopes.cat no longer calls no-loss-of on the reliable scope")
	}
	for _, tc := range []struct {
		name string
		m    *cat.Model
		want int
	}{
		{"msg.cat", protocolModel(t, "msg", `include "msg.cat"`), 4},
		{"scopes.cat", protocolModel(t, "scopes", string(src)), 2},
		{"no loss everywhere", protocolModel(t, "everywhere", everywhere), 1},
		{"tcp-buffered", embeddedModel(t, "tcp-buffered"), 1},
	} {
		out := checkBoth(t, tc.m, test, []string{"rf"})
		if got := out.Positive + out.Negative; got != tc.want {
			t.Errorf("%s: %d executions up to rf, the derivation says %d", tc.name, got, tc.want)
		}
	}
	pointer := inlineTest(t, `C pointer
{ reliable x; lossy y; int *p = &x; }
P0(int **p, int *y) {
  *p = y;
}
P1(int **p) {
  int *c = *p;
  send(c, 1);
}
exists (1:c=x)
`)
	want := "the channel of this message may be &x or &y: a test that declares scopes must fix each message's channel"
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		if _, err := Check(embeddedModel(t, "tcp-buffered"), pointer, Options{Engine: engine}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s engine: %v, want %q", engine, err, want)
		}
	}
}

// TestProtocolModels runs the models of real networks on the scenarios
// that tell them apart; each scenario's comment derives the counts by
// hand (up to rf).
func TestProtocolModels(t *testing.T) {
	models := []string{"udp", "exactly-once", "at-most-once", "fifo", "tcp-buffered", "causal", "atomic-broadcast"}
	for _, tc := range []struct {
		scenario string
		want     []int // under each of models, in order
	}{
		{"delivery", []int{4, 2, 2, 1, 1, 1, 2}},
		{"delivery-loss", []int{2, 0, 2, 2, 0, 0, 0}},
		{"causal", []int{4, 2, 2, 2, 2, 1, 2}},
		{"atomic-broadcast", []int{16, 0, 0, 0, 0, 0, 2}},
	} {
		test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
		for i, name := range models {
			out := checkBoth(t, embeddedModel(t, name), test, []string{"rf"})
			if got := out.Positive + out.Negative; got != tc.want[i] {
				t.Errorf("%s -m %s: %d executions up to rf, the derivation says %d", tc.scenario, name, got, tc.want[i])
			}
		}
	}
}

// TestProtocolOrderPatterns checks the patterns the models causal and
// atomic-broadcast add, and their negations, on their scenarios: the
// pattern and its negation split msg.cat's executions (counts derived in
// the scenarios' comments, up to rf).
func TestProtocolOrderPatterns(t *testing.T) {
	for _, tc := range []struct {
		scenario, file, pattern, negation string
		all, with                         int
	}{
		{"causal", "msg-causal-delivery.cat", "causal-delivery(po, rf)", "causal-reordering(po, rf)", 18, 17},
		{"atomic-broadcast", "msg-total-order.cat", "total-order(po, rf)", "disordered(po, rf)", 81, 79},
	} {
		test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
		base := "include \"msg.cat\"\ninclude \"" + tc.file + "\"\n"
		rf := []string{"rf"}
		for _, run := range []struct {
			call           string
			want           int
			showsCondition bool
		}{{"", tc.all, true}, {"call " + tc.pattern, tc.with, false}, {"call " + tc.negation, tc.all - tc.with, true}} {
			out := checkBoth(t, protocolModel(t, "m", base+run.call), test, rf)
			if got := out.Positive + out.Negative; got != run.want {
				t.Errorf("%s with %q: %d executions up to rf, the derivation says %d", tc.scenario, run.call, got, run.want)
			}
			if (out.Positive > 0) != run.showsCondition {
				t.Errorf("%s with %q: the condition holds in %d executions", tc.scenario, run.call, out.Positive)
			}
		}
	}
}

// TestProtocolWorked checks the worked protocols of docs/protocols.md
// (counts derived in the scenarios' comments, up to rf): request and
// response with retransmission over a lossy network with timeouts, where
// duplicate suppression keeps the server from executing the request
// twice; the alternating-bit protocol's receiver, safe over a lossy
// FIFO channel and not over a reordering one; and two-phase commit with
// lossy votes, safe when a lost vote aborts, not when it counts as yes.
func TestProtocolWorked(t *testing.T) {
	src, err := readFile(repoPath("testdata/protocols/lossy.cat"))
	if err != nil {
		t.Fatal(err)
	}
	lossy := protocolModel(t, "lossy", string(src))
	src, err = readFile(repoPath("testdata/protocols/scopes.cat"))
	if err != nil {
		t.Fatal(err)
	}
	scopes := protocolModel(t, "scopes", string(src))
	for _, tc := range []struct {
		scenario           string
		m                  *cat.Model
		positive, negative int
	}{
		{"request-response", lossy, 0, 17},
		{"request-response-nodedup", lossy, 6, 11},
		{"alternating-bit", embeddedModel(t, "fifo"), 0, 4},
		{"alternating-bit", embeddedModel(t, "at-most-once"), 6, 18},
		{"two-phase-commit", scopes, 0, 16},
		{"two-phase-commit", embeddedModel(t, "exactly-once"), 0, 4},
		{"two-phase-commit-optimistic", scopes, 5, 11},
		{"two-phase-commit-optimistic", embeddedModel(t, "exactly-once"), 0, 4},
	} {
		test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
		out := checkBoth(t, tc.m, test, []string{"rf"})
		if out.Positive != tc.positive || out.Negative != tc.negative {
			t.Errorf("%s: %d and %d executions break the safety property and not, the derivation says %d and %d",
				tc.scenario, out.Positive, out.Negative, tc.positive, tc.negative)
		}
	}
}

// TestProtocolCrash checks the crash idiom of docs/protocols.md: a read of
// memory that no message pattern constrains lets P0 stop after its first
// send (counts derived in crash.litmus, up to rf: all executions, and
// those in which P0 crashes).
func TestProtocolCrash(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/protocols/crash.litmus"))
	src, err := readFile(repoPath("testdata/protocols/lossy.cat"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		m            *cat.Model
		all, crashed int
	}{
		{"exactly-once", embeddedModel(t, "exactly-once"), 2, 0},
		{"udp", embeddedModel(t, "udp"), 5, 1},
		{"lossy", protocolModel(t, "lossy", string(src)), 10, 3},
	} {
		out := checkBoth(t, tc.m, test, []string{"rf"})
		if out.Positive+out.Negative != tc.all || out.Positive != tc.crashed {
			t.Errorf("-m %s: %d executions, %d with the crash; the derivation says %d, %d", tc.name, out.Positive+out.Negative, out.Positive, tc.all, tc.crashed)
		}
	}
}
