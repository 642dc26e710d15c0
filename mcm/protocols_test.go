package mcm

import (
	"fmt"
	"io/fs"
	"reflect"
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
// base), then with the pattern: the scenario's condition is an execution
// the pattern forbids, kept a final state it keeps. Every count is of
// executions up to rf.
func TestProtocolPatterns(t *testing.T) {
	for _, tc := range []struct {
		scenario, base, pattern string
		kept                    string
		counts                  [4]int // msg.cat (+ base), + the pattern, -m udp, -m tcp
	}{
		{"no-reordering", "", "call no-reordering(po, rf, co)", "1:i=1; 1:j=2;", [4]int{9, 8, 4, 1}},
		{"causality", "", "call causality(po, rf)", "0:i=1; 1:j=-1;", [4]int{4, 3, 0, 0}},
		{"no-duplication", "", "call no-duplication(rf)", "1:i=1; 2:j=-1;", [4]int{4, 3, 1, 0}},
		{"no-duplication-per-participant", "", "call no-duplication-per-participant(rf, int)", "1:i=1; 1:j=-1; 2:k=1;", [4]int{8, 6, 1, 0}},
		{"no-loss", "", "call no-loss(rf)", "1:i=1; 1:j=-1;", [4]int{4, 3, 1, 0}},
		{"broadcast", "", "call broadcast(rf)", "1:i=1; 2:j=1; 2:k=2;", [4]int{8, 1, 1, 0}},
		{"synchronous", `include "msg-no-reordering.cat" call no-reordering(po, rf, co)`, "call synchronous(po, rf)", "1:i=-1; 1:j=1;", [4]int{4, 1, 1, 0}},
		{"blocking", "", "call blocking(rf)", "1:i=1;", [4]int{2, 1, 1, 1}},
		{"no-ignored-send", "", "let legal = (((W \\ IW) * R) & loc) \\ po^-1\ncall no-ignored-send(rf, legal)", "0:i=-1; 1:j=1;", [4]int{4, 2, 0, 0}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			test := parseTestFile(t, repoPath("testdata/protocols/"+tc.scenario+".litmus"))
			base := "include \"msg.cat\"\n" + tc.base + "\n"
			with := base + fmt.Sprintf("include \"msg-%s.cat\"\n%s\n", tc.scenario, tc.pattern)
			rf := []string{"rf"}
			for i, m := range []*cat.Model{
				protocolModel(t, "base", base), protocolModel(t, "pattern", with),
				embeddedModel(t, "udp"), embeddedModel(t, "tcp"),
			} {
				out := checkBoth(t, m, test, rf)
				if got := out.Positive + out.Negative; got != tc.counts[i] {
					t.Errorf("model %d: %d executions up to rf, the derivation says %d", i, got, tc.counts[i])
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
		})
	}
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

// TestMessageRulesNeedMsgCat checks that without msg.cat a receive is a
// read of memory: it gets something, possibly the initial value.
func TestMessageRulesNeedMsgCat(t *testing.T) {
	test := parseTestFile(t, repoPath("testdata/protocols/blocking.litmus"))
	plain := checkBoth(t, protocolModel(t, "plain", `"no axioms"`), test, nil)
	if got, want := states(test, plain), []string{"1:i=0;", "1:i=1;"}; !reflect.DeepEqual(got, want) {
		t.Errorf("without msg.cat: states %q, want %q", got, want)
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
