package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHerdCatalogueSweepScript runs scripts/herd-catalogue-sweep.sh, with
// this test binary standing for purr, on a fixture in the layout of herd's
// catalogue (testdata/herd-catalogue). In aarch64-pick (a cfg with nonames,
// the directory's model, a kinds file) one test agrees, one disagrees (its
// kind is wrong on purpose), one is refused and one left out by the cfg.
// In linux, whose tests come with herd7's output (TEST.litmus.expected)
// and run as the pattern tests/*.litmus (not tests/extra), one agrees
// (its .expected has a Time line, which does not count), one has the
// verdict of its .expected but another States list (a disagreement), one
// has no .expected, and one is refused by the SAT engine in the model
// (the refusal names the test, which the script counts as that test's).
// The script must count each and fail because of the disagreements.
func TestHerdCatalogueSweepScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "purr")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nPURR_TEST_AS_PURR=1 exec '"+self+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "../../scripts/herd-catalogue-sweep.sh", "testdata/herd-catalogue", "testdata/herd-catalogue-libdir", "aarch64-pick", "linux")
	cmd.Env = append(os.Environ(), "PURR="+wrapper, "VERBOSE=1")
	out, err := cmd.Output()
	table := string(out)
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1 (a disagreement)\n%s", err, table)
	}
	for _, want := range [][]string{
		//                tests agree DISAGREE refused timeout failed nokind skipped
		{"aarch64-pick", "4", "1", "1", "1", "0", "0", "0", "1"},
		{"linux", "4", "1", "1", "1", "0", "0", "1", "0"},
	} {
		found := false
		for _, line := range strings.Split(table, "\n") {
			if f := strings.Fields(line); len(f) == len(want) && f[0] == want[0] {
				found = strings.Join(f, " ") == strings.Join(want, " ")
			}
		}
		if !found {
			t.Errorf("want the row %q in\n%s", strings.Join(want, " "), table)
		}
	}
	for _, s := range []string{"DISAGREE SB: purr Forbidden, herd Allowed", "1 refused: unsupported instruction FROB",
		"DISAGREE SB: the same verdict, another output than herd7", "nokind LB Forbidden",
		"1 refused: cats/linux-kernel.cat: unsupported: walking a set of values"} {
		if !strings.Contains(table, s) {
			t.Errorf("want %q in\n%s", s, table)
		}
	}
}
