package herd

import (
	"reflect"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

func TestCheckVariants(t *testing.T) {
	for _, c := range []struct {
		variants []string
		err      string
	}{
		{nil, ""},
		{[]string{"sc", "ASL", "cos-opt", "fatal"}, ""}, // Cat variants, and herd's that answer as purr does
		{[]string{"sc", "MemTag"}, "-variant MemTag makes herd7 model the Memory Tagging Extension, which purr does not"},
		{[]string{"deps"}, "-variant deps makes herd7 model the speculative execution of both sides of branches"},
		{[]string{"T07"}, "-variant T07 makes herd7 model its internal switches"},
		{[]string{"T7"}, ""},
	} {
		cfg := Config{Variants: c.variants}
		err := cfg.CheckVariants()
		if (err == nil) != (c.err == "") || err != nil && !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%v: error %v, want %q", c.variants, err, c.err)
		}
	}
}

// TestTestVariants adds a test's Variant= lines to the run's, as herd7
// does for that test, and refuses a semantic one at its line.
func TestTestVariants(t *testing.T) {
	// at puts a line at t.litmus:3:1.
	at := func(kv litmus.KeyValue) litmus.KeyValue {
		kv.Pos.File, kv.Pos.Line, kv.Pos.Col = "t.litmus", 3, 1
		return kv
	}
	for _, c := range []struct {
		name string
		info []litmus.KeyValue
		run  []string
		want []string
		err  string
	}{
		{name: "none", run: []string{"a"}, want: []string{"a"}},
		{name: "added", info: []litmus.KeyValue{{Key: "Variant", Value: "sc, b\tc"}}, run: []string{"a", "b"}, want: []string{"a", "b", "sc", "c"}},
		{name: "any case of the key", info: []litmus.KeyValue{{Key: "variant", Value: "x"}}, want: []string{"x"}},
		{name: "other keys", info: []litmus.KeyValue{{Key: "Hash", Value: "x"}}, want: nil},
		{name: "semantic", info: []litmus.KeyValue{at(litmus.KeyValue{Key: "Variant", Value: "vmsa"})}, err: "t.litmus:3:1: variant vmsa makes herd7 model virtual memory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := testVariants(&litmus.Test{Info: c.info}, c.run)
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
