package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
)

// maskTimes replaces the value of every Time line, the one part of a
// result block that differs from run to run.
func maskTimes(s string) string {
	return timeLine.ReplaceAllString(s, "Time $1 *")
}

// repoTests lists the litmus tests of the repository's testdata that run
// under the default models, with a missing file, a test that does not
// parse and one that is refused for its size among them, so that stderr
// and the exit status are compared too.
func repoTests(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, glob := range []string{"../../testdata/*.litmus", "../../testdata/classic/*.litmus",
		"../../testdata/mixed/*.litmus", "testdata/*.litmus"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d tests in testdata", len(files))
	}
	files = append(files, "nosuch.litmus", writers(t, 40, 40), writers(t, 4, 1))
	sort.Strings(files) // interleave the failures with the answers
	return files
}

// TestJobsSameOutput checks that -j N prints what -j 1 prints: the same
// stdout but for the values of Time lines, the same stderr byte for byte,
// the same exit status, with and without --timeout.
func TestJobsSameOutput(t *testing.T) {
	files := repoTests(t)
	for _, extra := range [][]string{nil, {"--timeout", "30s"}} {
		args := append(extra, files...)
		out1, err1, status1 := runPurr(append([]string{"-j", "1"}, args...)...)
		if !strings.Contains(out1, "Test MP Allowed") || !strings.Contains(err1, "nosuch.litmus") || status1 != 1 {
			t.Fatalf("-j 1 %q: exit status %d, stderr:\n%s", extra, status1, err1)
		}
		for _, jobs := range []string{"2", "3"} {
			out, errs, status := runPurr(append([]string{"-j", jobs}, args...)...)
			if maskTimes(out) != maskTimes(out1) {
				t.Errorf("-j %s %q: stdout differs from -j 1's:\n%s\nwant\n%s", jobs, extra, out, out1)
			}
			if errs != err1 || status != status1 {
				t.Errorf("-j %s %q: exit status %d, stderr:\n%s\nwant %d,\n%s", jobs, extra, status, errs, status1, err1)
			}
		}
	}
}

// TestJobsSameOutputCorpus compares -j 1 and -j 2 on a tenth of Dat3M's
// AArch64 suite, a hundredth under -short (all of it is left to the
// benchmark script: it takes minutes on a loaded machine).
func TestJobsSameOutputCorpus(t *testing.T) {
	root := shared.Path(t, "corpus/dat3m-aarch64")
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".litmus") {
			files = append(files, p)
		}
		return nil
	})
	var sample []string
	for i := 0; i < len(files); i += shared.Every(false, 10, 100) {
		sample = append(sample, files[i])
	}
	out1, err1, status1 := runPurr(append([]string{"-j", "1"}, sample...)...)
	out2, err2, status2 := runPurr(append([]string{"-j", "2"}, sample...)...)
	if n := strings.Count(out1, "\nTest "); n < len(sample)*9/10 {
		t.Fatalf("-j 1 answered %d of %d tests", n, len(sample))
	}
	if maskTimes(out1) != maskTimes(out2) || err1 != err2 || status1 != status2 {
		t.Errorf("-j 2 differs from -j 1 on %d tests of %s (exit status %d and %d)", len(sample), root, status2, status1)
	}
}

// TestShards checks that the outputs of the shards of a batch, concatenated
// in the order of their numbers, are the output of the whole batch, and
// that each test is in one shard.
func TestShards(t *testing.T) {
	files := repoTests(t)
	whole, wholeErr, _ := runPurr(append([]string{"-j", "1"}, files...)...)
	for _, n := range []int{1, 2, 3, len(files) + 2} {
		var out, errs strings.Builder
		for i := range n {
			o, e, status := runPurr(append([]string{"--shard", fmt.Sprintf("%d/%d", i, n)}, files...)...)
			if status > 1 {
				t.Fatalf("--shard %d/%d: exit status %d: %s", i, n, status, e)
			}
			out.WriteString(o)
			errs.WriteString(e)
		}
		if maskTimes(out.String()) != maskTimes(whole) || errs.String() != wholeErr {
			t.Errorf("%d shards: the concatenation differs from the whole:\n%s\n%s\nwant\n%s\n%s", n, out.String(), errs.String(), whole, wholeErr)
		}
	}
}

func TestShardRefused(t *testing.T) {
	for _, v := range []string{"2/2", "-1/2", "1", "a/b", "0/0", "1/-3", ""} {
		_, errs, status := runPurr("--shard", v, mp)
		if status != 2 || !strings.Contains(errs, "0 <= I < N") {
			t.Errorf("--shard %q: exit status %d, stderr %q; want 2 and the form I/N", v, status, errs)
		}
	}
	if _, errs, status := runPurr("-j", "-1", mp); status != 2 || !strings.Contains(errs, "--jobs must be at least 0") {
		t.Errorf("-j -1: exit status %d, stderr %q", status, errs)
	}
}

// TestWorkerPathWithLineBreak checks that a worker is given any path: they
// travel quoted.
func TestWorkerPathWithLineBreak(t *testing.T) {
	src, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "M\nP.litmus")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, status := runPurr("--timeout", "30s", path, mp)
	if status != 0 || strings.Count(out, "Test MP Allowed") != 2 {
		t.Errorf("exit status %d, stdout:\n%s\nstderr:\n%s", status, out, errs)
	}
}

// TestProgress draws the bar into a buffer that stands for a terminal: it
// counts the tests, and the batch's messages are all there, in order. On a
// writer that is not a terminal, runPurr's other tests see no bar.
func TestProgress(t *testing.T) {
	isTerminal = func(w io.Writer) bool { return true }
	renderEachTick = true
	defer func() { isTerminal, renderEachTick = isTerminalFile, false }()
	files := []string{mp, "nosuch1.litmus", writers(t, 5, 1), mp, "nosuch2.litmus"}
	for _, jobs := range []string{"1", "2"} {
		out, errs, status := runPurr(append([]string{"-j", jobs, "-m", "sc"}, files...)...)
		if status != 1 || len(regexp.MustCompile(`(?m)^Test `).FindAllString(out, -1)) != 3 {
			t.Errorf("-j %s: exit status %d, stdout:\n%s", jobs, status, out)
		}
		i1, i2 := strings.Index(errs, "nosuch1.litmus"), strings.Index(errs, "nosuch2.litmus")
		if i1 < 0 || i2 < i1 {
			t.Errorf("-j %s: the messages are missing or out of order:\n%q", jobs, errs)
		}
		if !strings.Contains(errs, "/5 tests") || !strings.Contains(errs, "tests/s") || !strings.Contains(errs, " left ") {
			t.Errorf("-j %s: no bar:\n%q", jobs, errs)
		}
	}
}

func TestNoProgressOffTerminal(t *testing.T) {
	out, errs, status := runPurr("-m", "sc", mp, mp, mp)
	if status != 0 || errs != "" || strings.Count(out, "Test MP") != 3 {
		t.Errorf("exit status %d, stderr %q", status, errs)
	}
}
