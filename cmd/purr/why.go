package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
)

// defaultMaxSets is how many minimal sets of checks purr why lists by
// default.
const defaultMaxSets = 10

// cmdWhy tells, for each test, why its model forbids the outcome its
// condition names: the minimal sets of checks whose removal allows it.
func cmdWhy(args []string, stdout, stderr io.Writer) int {
	o := options{listing: true}
	flags := newFlagSet("purr why", stderr, &o)
	maxSets := flags.Int("max-sets", defaultMaxSets, "list at most `N` minimal sets of checks (0: all)")
	positive := func() error {
		if *maxSets < 0 {
			return fmt.Errorf("--max-sets must be 0 or more, not %d", *maxSets)
		}
		return nil
	}
	files, r, status := setUp(flags, &o, args, stderr, "purr why [-m MODEL] TEST.litmus...", positive,
		"model", "include", "variant", "macros", "unroll", "conf", "bell", "skipchecks", "doshow",
		"unshow", "json", "timeout", "max-sat-vars", "max-sat-clauses", "max-sets")
	if r == nil {
		return status
	}
	for _, f := range files {
		var t *litmus.Test
		var why *outcome.Why
		var err error
		if !protect(f, stderr, func() { t, why, err = r.checker.Why(context.Background(), f, *maxSets) }) {
			status = exitInternal
			continue
		}
		if err == nil {
			err = o.writeWhy(stdout, f, t, why)
		}
		if err != nil {
			printErr(stderr, err)
			status = max(status, 1)
		}
	}
	return status
}

// writeWhy prints one test's answer, as text or as a line of JSON.
func (o *options) writeWhy(w io.Writer, path string, t *litmus.Test, why *outcome.Why) error {
	model := o.cfg.ModelName(t.Arch)
	if !o.json {
		return show.Why(w, t.Name, model, why, show.Relations(why.Shown, o.doshow, o.unshow))
	}
	j := jsonWhy{Test: t.Name, Path: path, Model: model, Condition: t.Quant.String() + " (" + litmus.FormatProp(t.Cond) + ")",
		Target: why.Target, Verdict: "forbidden", Sets: []jsonWhySet{}, Complete: why.Complete}
	switch {
	case why.Allowed != nil:
		j.Verdict = "allowed"
		x := o.jsonExecution(*why.Allowed)
		j.Allowed = &x
	case why.Never:
		j.Verdict = "never"
	}
	for _, set := range why.Sets {
		j.Sets = append(j.Sets, jsonWhySet{Checks: set.Checks, Execution: o.jsonExecution(set.Execution)})
	}
	line, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// jsonWhy is one test's line of purr why --json; docs/json.md describes
// it.
type jsonWhy struct {
	Test      string         `json:"test"`
	Path      string         `json:"path"`
	Model     string         `json:"model"`
	Condition string         `json:"condition"`
	Target    string         `json:"target"`
	Verdict   string         `json:"verdict"` // forbidden, allowed or never
	Sets      []jsonWhySet   `json:"sets"`
	Complete  bool           `json:"complete"`
	Allowed   *jsonExecution `json:"allowed,omitempty"`
}

type jsonWhySet struct {
	Checks    []string      `json:"checks"`
	Execution jsonExecution `json:"execution"`
}
