package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWhy runs purr why as a user does: the sets of checks and the
// witness as text, the same as JSON, an allowed outcome, and the flags it
// refuses.
func TestWhy(t *testing.T) {
	const sb = "../../testdata/classic/SB.litmus"
	for _, c := range []struct {
		name   string
		args   []string
		status int
		stdout []string
		stderr string
	}{
		{"forbidden", []string{"why", "-m", "sc", sb}, 0, []string{
			"the outcome 0:X2=0 /\\ 1:X2=0 is forbidden", "  1. -skipchecks sc\n",
			"  fails sc (acyclic): c -po-> d -fr-> e -po-> f -fr-> c\n"}, ""},
		{"allowed", []string{"why", "-m", "tso", sb}, 0, []string{"the outcome 0:X2=0 /\\ 1:X2=0 is allowed", "Execution 1 of SB: the condition holds"}, ""},
		{"two sets", []string{"why", "-m", "tcp", "../../testdata/protocols/udp.litmus"}, 0, []string{
			"  1. -skipchecks no-loss,synchronous\n", "  2. -skipchecks no-duplication,no-loss,received-before-proceeding\n",
			"  fails no-loss (empty): c\n"}, ""},
		{"bounded", []string{"why", "-m", "tcp", "--max-sets", "1", "../../testdata/protocols/udp.litmus"}, 0, []string{
			"  1. -skipchecks no-loss,synchronous\n  (more sets exist: raise --max-sets)\n"}, ""},
		{"no test", []string{"why"}, 2, nil, "purr why: no test"},
		{"negative bound", []string{"why", "--max-sets", "-1", sb}, 2, nil, "--max-sets must be 0 or more"},
		{"pictures refused", []string{"why", "-o", "out", sb}, 2, nil, "--output does not apply to this command"},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, status := runPurr(c.args...)
			if status != c.status {
				t.Fatalf("exit status %d, want %d: %s", status, c.status, stderr)
			}
			for _, want := range c.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr lacks %q: %s", c.stderr, stderr)
			}
		})
	}
}

// TestWhyJSON reads purr why --json as a tool would: the verdict, the
// sets and the witness of each failed check, by event IDs.
func TestWhyJSON(t *testing.T) {
	stdout, stderr, status := runPurr("why", "-m", "sc", "--json", "../../testdata/classic/SB.litmus")
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, stderr)
	}
	var got struct {
		Verdict string `json:"verdict"`
		Sets    []struct {
			Checks    []string `json:"checks"`
			Execution struct {
				Events []struct {
					Label string `json:"label"`
				} `json:"events"`
				Fails []struct {
					Check   string   `json:"check"`
					Kind    string   `json:"kind"`
					Witness [][2]int `json:"witness"`
				} `json:"fails"`
			} `json:"execution"`
		} `json:"sets"`
		Complete bool `json:"complete"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if got.Verdict != "forbidden" || !got.Complete || len(got.Sets) != 1 || strings.Join(got.Sets[0].Checks, ",") != "sc" {
		t.Fatalf("got %+v", got)
	}
	x := got.Sets[0].Execution
	if len(x.Fails) != 1 || x.Fails[0].Check != "sc" || x.Fails[0].Kind != "acyclic" {
		t.Fatalf("fails: %+v", x.Fails)
	}
	var cycle []string
	for _, e := range x.Fails[0].Witness {
		cycle = append(cycle, x.Events[e[0]].Label)
	}
	if w := x.Fails[0].Witness; len(w) != 4 || w[3][1] != w[0][0] || strings.Join(cycle, "") != "cdef" {
		t.Fatalf("witness %v (%v), want the cycle c d e f", w, cycle)
	}
}
