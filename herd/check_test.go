package herd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

const mp = "../testdata/MP.litmus"

// TestCheck checks tests as every command does: under -model or the
// architecture's default model, leaving out the tests -names and its kin
// do not select, and telling the test's errors from its model's and from
// the check's.
func TestCheck(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"broken.cat":  "acyclic nosuch\n",
		"bad.litmus":  "AArch64 bad\n{}\nP0 ;\nNOPE ;\nexists (0:X0=1)\n",
		"vmsa.litmus": "AArch64 pte\nVariant=vmsa\n{}\nP0 ;\nNOPE ;\nexists (0:X0=1)\n",
	})
	for _, c := range []struct {
		name     string
		cfg      func(*Config)
		test     string
		verdict  string // the outcome's Positive/Negative, as "P N"
		skipped  bool
		modelErr string // a *ModelError's text
		err      string // another error's
	}{
		{name: "the default model", test: mp, verdict: "1 3"},
		{name: "-model", cfg: func(c *Config) { c.Model = "sc" }, test: mp, verdict: "0 3"},
		{name: "-nonames", cfg: func(c *Config) { c.NoNames = []string{"MP"} }, test: mp, skipped: true},
		{name: "-oknames", cfg: func(c *Config) { c.OKNames = []string{"SB"} }, test: mp, skipped: true},
		{name: "a broken model", cfg: func(c *Config) { c.Model = dir + "/broken.cat" }, test: mp, modelErr: dir + "/broken.cat:1:9:"},
		{name: "no such model", cfg: func(c *Config) { c.Model = "nosuch" }, test: mp, modelErr: "purr: model nosuch: no such file, on the include path or among the embedded models (aarch64, "},
		{name: "a test that does not parse", test: dir + "/bad.litmus", err: dir + "/bad.litmus:"},
		{name: "a test of herd's semantic variant", test: dir + "/vmsa.litmus", err: dir + "/vmsa.litmus:2:1: variant vmsa makes herd7 model virtual memory"},
		{name: "no such test", test: dir + "/none.litmus", err: "open " + dir + "/none.litmus: no such file or directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Default()
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			res, err := NewChecker(cfg).Check(context.Background(), c.test)
			var modelErr *ModelError
			switch {
			case c.modelErr != "":
				if !errors.As(err, &modelErr) || !strings.HasPrefix(err.Error(), c.modelErr) {
					t.Errorf("error %v, want a model's error %q", err, c.modelErr)
				}
			case c.err != "":
				if err == nil || errors.As(err, &modelErr) || !strings.HasPrefix(err.Error(), c.err) {
					t.Errorf("error %v, want the test's %q", err, c.err)
				}
			case err != nil:
				t.Fatal(err)
			case res.Skipped != c.skipped:
				t.Errorf("skipped %v, want %v", res.Skipped, c.skipped)
			case !c.skipped:
				out := res.Outcome
				if got := fmt.Sprintf("%d %d", out.Positive, out.Negative); got != c.verdict {
					t.Errorf("positive and negative %s, want %s", got, c.verdict)
				}
				if res.Test.Name != "MP" {
					t.Errorf("test %q", res.Test.Name)
				}
			}
		})
	}
}

// TestCheckTimeout: a check past Config.Timeout is a *CheckError of the
// context's deadline.
func TestCheckTimeout(t *testing.T) {
	cfg := Default()
	cfg.Model, cfg.Timeout = "sc", time.Nanosecond
	_, err := NewChecker(cfg).Check(context.Background(), mp)
	var checkErr *CheckError
	if !errors.As(err, &checkErr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want a check's past its deadline", err)
	}
}
