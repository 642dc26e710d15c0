package c

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
)

// TestLinuxCorpus translates the Linux kernel's litmus tests and the Dat3M
// LKMM sample with the kernel's linux-kernel.def, as herd7 runs them. A
// test herd7 rejects (ERROR in its log) must be refused; every other
// refusal must be positioned, and only the pointer arithmetic purr does
// not model may be refused of what herd7 answers.
func TestLinuxCorpus(t *testing.T) {
	def := shared.Path(t, "lkmm/model/linux-kernel.def")
	macros := readMacros(t, def)
	for _, corpus := range []struct {
		dir       string
		wantShare int // the percentage that must translate
	}{{"lkmm/kernel-tests", 100}, {"lkmm/dat3m", 99}} {
		t.Run(filepath.Base(corpus.dir), func(t *testing.T) {
			dir := shared.Path(t, corpus.dir)
			rejected := herdErrors(t, filepath.Join(dir, "herd-7.57.txt"))
			var files []string
			err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(path, ".litmus") {
					files = append(files, path)
				}
				return err
			})
			if err != nil || len(files) == 0 {
				t.Fatalf("no tests in %s: %v", dir, err)
			}
			reasons := map[string]int{}
			translated := 0
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel(dir, f)
				_, err = litmus.ParseWith(f, src, litmus.Options{Macros: macros})
				if err == nil {
					if rejected[rel] {
						t.Errorf("%s: herd7 rejects it, purr translates it", rel)
					}
					translated++
					continue
				}
				var le *litmus.Error
				if !errors.As(err, &le) || !errorLine.MatchString(err.Error()) {
					t.Errorf("%s: not a positioned error: %v", rel, err)
					continue
				}
				reason := refusalKind(le.Msg)
				reasons[reason]++
				if !rejected[rel] && reason != "pointer arithmetic" {
					t.Errorf("%s: herd7 answers it, purr refuses it: %v", rel, err)
				}
			}
			t.Logf("%s: %d/%d translate; refused: %v", corpus.dir, translated, len(files), reasons)
			if translated*100 < len(files)*corpus.wantShare {
				t.Errorf("%d/%d translate, want at least %d%%", translated, len(files), corpus.wantShare)
			}
		})
	}
}

// refusalKind groups refusals by reason.
func refusalKind(msg string) string {
	for _, k := range []struct{ prefix, kind string }{
		{"unsupported pointer arithmetic", "pointer arithmetic"},
		{"bad __", "bad argument of an internal form"},
	} {
		if strings.HasPrefix(msg, k.prefix) {
			return k.kind
		}
	}
	return msg
}

// herdErrors lists the tests of a herd7 log ("# path" before each block)
// that herd7 refused (an ERROR line).
func herdErrors(t *testing.T, log string) map[string]bool {
	out := map[string]bool{}
	src, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var current string
	for _, line := range strings.Split(string(src), "\n") {
		if name, ok := strings.CutPrefix(line, "# "); ok {
			current = name
		} else if strings.HasPrefix(line, "ERROR") && current != "" {
			out[current] = true
		}
	}
	return out
}
