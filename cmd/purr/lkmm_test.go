package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
)

var (
	lkmmAll    = flag.Bool("lkmm-all", false, "TestLKMMAgreement: run every Dat3M test, not one in lkmmSampleEvery")
	updateLKMM = flag.Bool("update-lkmm", false, "rewrite testdata/lkmm-agreement.golden with the agreement found")
)

const (
	lkmmGolden = "testdata/lkmm-agreement.golden"
	// lkmmSampleEvery: by default the test runs the Dat3M tests whose
	// index in herd's reference is a multiple of it (a fixed sample).
	lkmmSampleEvery = 8
)

// TestLKMMAgreement runs the Linux kernel's memory model as kernel
// developers run herd7 (cd lkmm/model; purr -conf linux-kernel.cfg TEST)
// over the kernel's litmus tests and the Dat3M sample, and compares
// verdict, States, Positive/Negative and flags with herd7 7.57's output (tests
// herd7 did not answer are left out). It logs "set agreed/total" per set
// and fails below the floors of testdata/lkmm-agreement.golden
// (-update-lkmm rewrites them). By default the Dat3M set is a fixed
// sample; -lkmm-all runs all of it; -short runs the kernel's tests only.
// On the kernel's tests both engines must agree with each other wherever
// both answer.
func TestLKMMAgreement(t *testing.T) {
	modelDir := shared.Path(t, "lkmm/model")
	golden, err := filepath.Abs(lkmmGolden)
	if err != nil {
		t.Fatal(err)
	}
	floors := shared.ReadFloors(t, golden, 1, *updateLKMM)
	t.Chdir(modelDir)
	sets := []struct {
		name, dir string
		every     int
		engines   bool
	}{
		{"kernel-tests", "../kernel-tests", 1, true},
		{"dat3m-sample", "../dat3m", lkmmSampleEvery, false},
	}
	switch {
	case *lkmmAll:
		sets[1] = struct {
			name, dir string
			every     int
			engines   bool
		}{"dat3m", "../dat3m", 1, false}
	case testing.Short():
		sets = sets[:1]
	}
	var lines []string
	for _, s := range sets {
		refs, err := herdtest.ParseFile(filepath.Join(s.dir, "herd-7.57.txt"))
		if err != nil {
			t.Fatal(err)
		}
		agreed, total := 0, 0
		reasons := map[string]int{}
		for i, ref := range refs {
			if i%s.every != 0 || ref.Result == nil {
				continue // not in the sample, or herd7 gave no answer
			}
			total++
			path := filepath.Join(s.dir, ref.Path)
			if ref.Path == "" {
				path = filepath.Join(s.dir, ref.Result.Name+".litmus")
			}
			got := runLKMM(path)
			if s.engines && got.Result != nil {
				if other := runLKMM(path, "--engine", "explicit"); other.Result != nil {
					if d := append(herdtest.Compare(got, other), herdtest.CompareFlags(got, other)...); len(d) > 0 {
						t.Errorf("%s: the engines disagree: %s", path, strings.Join(d, "; "))
					}
				}
			}
			d := append(herdtest.Compare(ref, got), herdtest.CompareFlags(ref, got)...)
			if len(d) == 0 {
				agreed++
				continue
			}
			reason := lkmmReason(d, got)
			reasons[reason]++
			t.Logf("  %s: %s: %s", path, reason, strings.Join(d, "; "))
		}
		line := fmt.Sprintf("%s %d/%d", s.name, agreed, total)
		var parts []string
		for r, n := range reasons {
			parts = append(parts, fmt.Sprintf("%d× %s", n, r))
		}
		sort.Strings(parts)
		if len(parts) > 0 {
			line += " # " + strings.Join(parts, ", ")
		}
		t.Log(line)
		lines = append(lines, line)
		if floor, ok := floors[s.name]; ok && agreed < floor {
			t.Errorf("%s: %d/%d agree with herd7, fewer than the %d of %s", s.name, agreed, total, floor, lkmmGolden)
		} else if !ok && !*updateLKMM {
			t.Errorf("%s: no floor in %s (run with -update-lkmm)", s.name, lkmmGolden)
		}
	}
	if *updateLKMM {
		old := map[string]string{} // the other Dat3M line stays
		if src, err := os.ReadFile(golden); err == nil {
			for _, l := range strings.Split(strings.TrimSpace(string(src)), "\n") {
				if f := strings.Fields(l); len(f) > 0 {
					old[f[0]] = l
				}
			}
		}
		for _, l := range lines {
			old[strings.Fields(l)[0]] = l
		}
		var out []string
		for _, l := range old {
			out = append(out, l)
		}
		sort.Strings(out)
		if err := os.WriteFile(golden, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runLKMM runs purr -conf linux-kernel.cfg on one test, in the model's
// folder; a test purr does not answer gives a block with its error.
func runLKMM(path string, extra ...string) herdtest.Block {
	args := append([]string{"-conf", "linux-kernel.cfg", "--timeout", "20s"}, extra...)
	stdout, stderr, status := runPurr(append(args, path)...)
	blocks, err := herdtest.ParseOutput(strings.NewReader(stdout))
	if status != 0 || err != nil || len(blocks) != 1 {
		msg := strings.TrimSpace(stderr)
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:]
		}
		return herdtest.Block{Path: path, Error: msg}
	}
	return blocks[0]
}

// lkmmReason names the kind of a difference, for the summary line.
func lkmmReason(diffs []string, got herdtest.Block) string {
	if got.Result == nil {
		msg := got.Error
		switch {
		case strings.Contains(msg, "timed out") || strings.Contains(msg, "timeout"):
			return "timeout"
		case strings.Contains(msg, "syntax error") || strings.Contains(msg, "mismatched input") || strings.Contains(msg, "unsupported"):
			return "refused by the C front end"
		}
		return "error"
	}
	for _, d := range diffs {
		if strings.HasPrefix(d, "verdict") || strings.Contains(d, "state:") {
			return "verdict or states"
		}
	}
	for _, d := range diffs {
		if strings.HasPrefix(d, "witnesses") {
			return "witness counts"
		}
	}
	return "flags"
}
