package aarch64_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/aarch64"
)

// parseNoPanic parses one file, turning a panic into an error that names
// the file (the parser itself must never panic; this only reports it).
func parseNoPanic(path string, src []byte) (t *litmus.Test, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC in %s: %v", path, r)
		}
	}()
	return litmus.Parse(path, src)
}

// TestCorpora translates every AArch64 test of the shared corpora and
// checks the translated fraction over all the .litmus files, and that every
// failure is a positioned "file:line:col: unsupported ..." error. In herd's
// regression folder, tests without a .expected file are ones herd itself
// rejects (memory tagging, Morello, deliberate mistakes such as a branch to
// another thread's label): a failure there may be any positioned error.
func TestCorpora(t *testing.T) {
	for _, c := range []struct {
		dir string
		min float64
	}{
		{"corpus/dat3m-aarch64", 0.98},
		{"corpus/herd-catalogue-aarch64", 0.98},
		{"corpus/herd-regression/AArch64", 0.90},
	} {
		t.Run(filepath.Base(c.dir), func(t *testing.T) {
			root := shared.Path(t, c.dir)
			var total, ok, herdRejects, herdRejectsOK int
			reasons := map[string]int{}
			err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".litmus") {
					return err
				}
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				test, perr := parseNoPanic(path, src)
				herdRejected := false
				if strings.Contains(c.dir, "herd-regression") {
					if _, err := os.Stat(path + ".expected"); err != nil {
						herdRejected = true
						herdRejects++
					}
				}
				total++
				if perr == nil {
					if test.Program == nil || len(test.Program.Procs) == 0 {
						t.Errorf("%s: no program", path)
					}
					ok++
					if herdRejected {
						herdRejectsOK++
					}
					return nil
				}
				msg := perr.Error()
				m := positioned.FindStringSubmatch(msg)
				if m == nil || m[1] != path {
					t.Errorf("not a positioned error: %v", perr)
					return nil
				}
				reason := m[2]
				if !strings.HasPrefix(reason, "unsupported ") {
					if !herdRejected {
						t.Errorf("not an unsupported construct: %v", perr)
					}
					reason = "(herd rejects it) " + reason
				}
				reasons[reason]++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range reasons {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t.Logf("%4d × %s", reasons[k], k)
			}
			t.Logf("translated %d/%d (of which %d/%d tests herd rejects)", ok, total, herdRejectsOK, herdRejects)
			if total == 0 {
				t.Fatal("no tests found")
			}
			if frac := float64(ok) / float64(total); frac < c.min {
				t.Errorf("translated %d/%d = %.3f, want at least %.2f", ok, total, frac, c.min)
			}
		})
	}
}

// positioned matches "file:line:col: message".
var positioned = regexp.MustCompile(`^(.+):[0-9]+:[0-9]+: (.*)$`)
