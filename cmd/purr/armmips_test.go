package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestARMAndMIPSCommands runs the commands on an ARM and a MIPS test:
// the default models (arm, mips) with herd7's hash, the XCFA, the
// executions, and the pictures.
func TestARMAndMIPSCommands(t *testing.T) {
	arm, mips := "../../testdata/arm/MP+dmb+ctrlisb.litmus", "../../testdata/mips/MP.litmus"
	out := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"arm default", []string{arm}, []string{"Observation MP+dmb+ctrlisb Never 0 3", "Hash=5cc4cb68461895684ffd4eaebaea649f"}},
		{"mips default", []string{mips}, []string{"Observation MP Sometimes 1 3", "Hash=c547562358e520ecace47178ac6270ba"}},
		{"arm xcfa", []string{"xcfa", arm}, []string{`digraph "MP+dmb+ctrlisb"`, `label="fence {ISB}"`, `label="Z := R0 == R0"`}},
		{"mips executions", []string{"executions", "-show", "prop", mips},
			[]string{"Test MP under mips: 1 of 4 executions (-show prop)", "sw $2,0($5)", "final: 1:$2=1; 1:$3=0;"}},
		{"arm pictures", []string{"-show", "all", "-o", out, "--svg", arm}, []string{"Observation MP+dmb+ctrlisb Never 0 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, status := runPurr(c.args...)
			if status != 0 {
				t.Fatalf("status %d: %s", status, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("no %q in\n%s", w, stdout)
				}
			}
		})
	}
	for _, f := range []string{"MP+dmb+ctrlisb.dot", "MP+dmb+ctrlisb.svg"} {
		if b, err := os.ReadFile(filepath.Join(out, f)); err != nil || len(b) == 0 {
			t.Errorf("%s: %v, %d bytes", f, err, len(b))
		}
	}
}
