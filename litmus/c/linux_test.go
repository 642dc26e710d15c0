package c

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/source"
)

// TestLinuxCorpus translates the Linux kernel's litmus tests and the Dat3M
// LKMM sample with the kernel's linux-kernel.def, as herd7 runs them. A
// test herd7 rejects (ERROR in its log) must be refused; every other
// refusal must be positioned, and nothing herd7 answers may be refused. A
// test herd7 rejects as mixed-size translates: the accesses' addresses are
// known only after the value analysis, where mcm's access-size check
// refuses it (events.CheckAccessSizes, tested there).
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
					if msg, ok := rejected[rel]; ok && !strings.Contains(msg, "mixed-size test rejected") {
						t.Errorf("%s: herd7 rejects it, purr translates it", rel)
					}
					translated++
					continue
				}
				var le *source.Error
				if !errors.As(err, &le) || !errorLine.MatchString(err.Error()) {
					t.Errorf("%s: not a positioned error: %v", rel, err)
					continue
				}
				reason := refusalKind(le.Msg)
				reasons[reason]++
				if _, ok := rejected[rel]; !ok {
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
// that herd7 refused, with the ERROR line.
func herdErrors(t *testing.T, log string) map[string]string {
	out := map[string]string{}
	src, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var current string
	for _, line := range strings.Split(string(src), "\n") {
		if name, ok := strings.CutPrefix(line, "# "); ok {
			current = name
		} else if strings.HasPrefix(line, "ERROR") && current != "" {
			out[current] = line
		}
	}
	return out
}
