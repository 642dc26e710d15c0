package main

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/docs"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// validate checks a JSON value (as encoding/json decodes into any)
// against a schema of the subset of JSON Schema that
// docs/purr-result.schema.json uses; it refuses any other keyword rather
// than ignore it.
func validate(root, schema map[string]any, v any, at string) []string {
	known := []string{"$schema", "$id", "title", "description", "$defs", "$ref", "type", "enum", "required",
		"properties", "additionalProperties", "items", "minItems", "maxItems", "minimum"}
	for k := range schema {
		if !slices.Contains(known, k) {
			return []string{fmt.Sprintf("%s: the validator does not know the keyword %s", at, k)}
		}
	}
	if ref, ok := schema["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		def, found := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok || !found {
			return []string{fmt.Sprintf("%s: unresolved $ref %s", at, ref)}
		}
		return validate(root, def, v, at)
	}
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if typ, ok := schema["type"].(string); ok && !hasType(v, typ) {
		fail("%v is not of type %s", v, typ)
		return errs
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
		fail("%v is not one of %v", v, enum)
	}
	if min, ok := schema["minimum"].(float64); ok {
		if n, isNum := v.(float64); isNum && n < min {
			fail("%v is below %v", n, min)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, r := range asList(schema["required"]) {
			if _, present := obj[r.(string)]; !present {
				fail("lacks %s", r)
			}
		}
		props, _ := schema["properties"].(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(root, p, obj[k], at+"."+k)...)
				continue
			}
			switch extra := schema["additionalProperties"].(type) {
			case bool:
				if !extra {
					fail("unexpected property %s", k)
				}
			case map[string]any:
				errs = append(errs, validate(root, extra, obj[k], at+"."+k)...)
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if n, ok := schema["minItems"].(float64); ok && float64(len(arr)) < n {
			fail("%d items, fewer than %v", len(arr), n)
		}
		if n, ok := schema["maxItems"].(float64); ok && float64(len(arr)) > n {
			fail("%d items, more than %v", len(arr), n)
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range arr {
				errs = append(errs, validate(root, items, x, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return errs
}

func asList(v any) []any { l, _ := v.([]any); return l }

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		n, ok := v.(float64)
		return ok && n == math.Trunc(n)
	}
	return false
}

func resultSchema(t *testing.T) map[string]any {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal(docs.ResultSchema, &schema); err != nil {
		t.Fatalf("docs/purr-result.schema.json: %v", err)
	}
	return schema
}

// TestWhyJSONMatchesSchema validates real lines of purr why --json, of a
// forbidden and an allowed outcome, against the schema's $defs/why.
func TestWhyJSONMatchesSchema(t *testing.T) {
	schema := resultSchema(t)
	why := map[string]any{"$ref": "#/$defs/why"}
	for _, args := range [][]string{
		{"why", "--json", "-m", "tcp", "../../testdata/protocols/udp.litmus"},
		{"why", "--json", "-m", "tso", "../../testdata/classic/SB.litmus"},
	} {
		out, errs, status := runPurr(args...)
		if status != 0 {
			t.Fatalf("%q: exit status %d: %s", args, status, errs)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if problems := validate(schema, why, v, "$"); len(problems) > 0 {
			t.Errorf("%q:\n%s", args, strings.Join(problems, "\n"))
		}
	}
}

// TestJSONMatchesSchema validates real --json lines, with and without
// executions, of AArch64 and C tests, against the shipped schema.
func TestJSONMatchesSchema(t *testing.T) {
	schema := resultSchema(t)
	for _, args := range [][]string{
		{"--json", "../../testdata/MP.litmus", "testdata/SB.c.litmus"},
		{"--json", "-show", "all", "-m", "aarch64", "../../testdata/classic/SB+swps.litmus", "../../testdata/classic/MP+dmb.st+po.litmus"},
		{"--json", "-show", "wit", "testdata/SB.c.litmus", "testdata/MP-filtered.litmus"},
		{"executions", "--json", "-m", "testdata/shows.cat", "--doshow", "rmw", "../../testdata/classic/IRIW.litmus"},
		{"executions", "--json", "-through", "all", "-m", "tcp", "../../testdata/protocols/tcp.litmus"},
		{"executions", "--json", "--unroll", "none", "-m", "aarch64", "../../testdata/loops/aarch64-dekker-no-fence.litmus", "../../testdata/loops/aarch64-mp-spin.litmus"},
		{"executions", "--json", "-m", "rc11", "../../testdata/loops/counters.litmus"},
		{"--json", "--unroll", "none", "../../testdata/loops/aarch64-rounds.litmus"},
	} {
		out, errs, status := runPurr(args...)
		if status != 0 {
			t.Fatalf("%q: exit status %d: %s", args, status, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if want := len(args) - slices.IndexFunc(args, func(a string) bool { return strings.HasSuffix(a, ".litmus") }); len(lines) != want {
			t.Errorf("%q: %d lines, want one per test (%d)", args, len(lines), want)
		}
		for _, line := range lines {
			var v any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("%q: %v in %s", args, err, line)
			}
			for _, e := range validate(schema, schema, v, "$") {
				t.Errorf("%q: %s", args, e)
			}
		}
	}
}

// TestSchemaValidatorFails checks that the validator finds what breaks
// the schema, so that TestJSONMatchesSchema can fail.
func TestSchemaValidatorFails(t *testing.T) {
	schema := resultSchema(t)
	out, _, _ := runPurr("--json", "-show", "all", "-m", "sc", "../../testdata/MP.litmus")
	for _, c := range []struct {
		name   string
		change func(map[string]any)
		want   string
	}{
		{"missing field", func(m map[string]any) { delete(m, "hash") }, "lacks hash"},
		{"extra field", func(m map[string]any) { m["extra"] = 1 }, "unexpected property extra"},
		{"wrong type", func(m map[string]any) { m["positive"] = "1" }, "is not of type integer"},
		{"bad enum", func(m map[string]any) { m["verdict"] = "Maybe" }, "is not one of"},
		{"bad edge", func(m map[string]any) {
			m["executions"].([]any)[0].(map[string]any)["relations"].(map[string]any)["rf"] = []any{[]any{1.0}}
		}, "fewer than 2"},
		{"bad event", func(m map[string]any) {
			m["executions"].([]any)[0].(map[string]any)["events"].([]any)[0].(map[string]any)["kind"] = "X"
		}, "is not one of"},
	} {
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		if errs := validate(schema, schema, v, "$"); len(errs) > 0 {
			t.Fatalf("the unchanged line fails: %v", errs)
		}
		c.change(v)
		errs := validate(schema, schema, v, "$")
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, c.want) }) {
			t.Errorf("%s: got %q, want an error with %q", c.name, errs, c.want)
		}
	}
}

// TestJSONBoundPrecision checks what --json says of a loop that the
// values its reads may take end: no Loop, exact, the rounds it took and
// the reads the proof tracked; and that purr executions says the same in
// words.
func TestJSONBoundPrecision(t *testing.T) {
	const path = "../../testdata/loops/aarch64-relay.litmus"
	out, errs, status := runPurr("--json", "--unroll", "none", path)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	var got struct {
		Loop  bool      `json:"loop"`
		Bound jsonBound `json:"bound"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := []string{"P0 reads y at " + path + ":32:2: 0, 1, 2"}
	if b := got.Bound; got.Loop || !b.Exact || !b.Enough || b.Rounds != 2 || !slices.Equal(b.Precision, want) {
		t.Errorf("loop %v, bound %+v: want no loop, exact and enough in 2 rounds, precision %q", got.Loop, b, want)
	}
	if b := got.Bound; !b.Abstraction || b.Refinements != 1 || !slices.Equal(b.Tracked, []string{"x", "y"}) {
		t.Errorf("bound %+v: want the abstraction, refined once, tracking x and y", b)
	}
	out, _, _ = runPurr("executions", "--unroll", "none", path)
	if note := "the values the reads may take keep every execution within 3 iterations, so the answer holds for any number (2 rounds, abstraction refined once, tracking x, y: " + want[0] + ")"; !strings.Contains(out, note) {
		t.Errorf("purr executions says\n%s\nwant it to say %q", out, note)
	}
}

// TestBoundNote checks the line that says how loops were bounded, for
// each way --unroll none closes its proof and for a bounded check.
func TestBoundNote(t *testing.T) {
	tests := []struct {
		bound outcome.Bound
		want  string
	}{
		{outcome.Bound{Unroll: outcome.Unbounded, Iterations: 2, Exact: true, Rounds: 1},
			"Loops without a bound (--unroll none): the answer holds for any number of iterations"},
		{outcome.Bound{Unroll: outcome.Unbounded, Iterations: 32, Exact: true, Rounds: 3},
			"Loops without a bound (--unroll none): the answer holds for any number of iterations (3 rounds: the test's own values end its loops within 32 iterations)"},
		{outcome.Bound{Unroll: outcome.Unbounded, Iterations: 2, Exact: true, Enough: true, Rounds: 1},
			"Loops without a bound (--unroll none): no consistent execution goes past 2 iterations, so the answer holds for any number (1 round: the SAT engine's bound check)"},
		{outcome.Bound{Unroll: outcome.Unbounded, Iterations: 3, Exact: true, Enough: true, Rounds: 2, Precision: []string{"P0 reads y at T.litmus:8:2: 0, 1"}},
			"Loops without a bound (--unroll none): the values the reads may take keep every execution within 3 iterations, so the answer holds for any number (2 rounds: P0 reads y at T.litmus:8:2: 0, 1)"},
		{outcome.Bound{Unroll: 4, Exact: true, Enough: true, Precision: []string{"P0 reads y at T.litmus:8:2: 0, 1"}},
			"Loops cut at --unroll 4, but the values the reads may take keep every execution within the bound: the answer holds for any number of iterations (P0 reads y at T.litmus:8:2: 0, 1)"},
		{outcome.Bound{Unroll: outcome.Unbounded, Iterations: 3, Exact: true, Enough: true, Rounds: 2, Precision: []string{"P0 reads y at T.litmus:8:2: 0, 1"},
			Abstracted: true, Tracked: []string{"x", "y"}, Refinements: 2},
			"Loops without a bound (--unroll none): the values the reads may take keep every execution within 3 iterations, so the answer holds for any number (2 rounds, abstraction refined 2 times, tracking x, y: P0 reads y at T.litmus:8:2: 0, 1)"},
		{outcome.Bound{Unroll: 4, Exact: true, Enough: true, Precision: []string{"P0 reads y at T.litmus:8:2: 0, 1"}, Abstracted: true},
			"Loops cut at --unroll 4, but the values the reads may take keep every execution within the bound: the answer holds for any number of iterations (abstraction tracking no location: P0 reads y at T.litmus:8:2: 0, 1)"},
	}
	for _, tt := range tests {
		if got := boundNote(&tt.bound); got != tt.want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.bound, got, tt.want)
		}
	}
}
