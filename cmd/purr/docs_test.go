package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// docRun is a block of a guide that purr's output fills: the command line
// in the opening marker, its standard output in a fenced block after it.
var docRun = regexp.MustCompile("(?s)<!-- purr (.*?) -->\n```\n.*?```\n<!-- /purr -->")

// timeLine is the one line of herd7's output that changes between runs.
var timeLine = regexp.MustCompile(`(?m)^Time (\S+) [0-9.]+$`)

// TestGuides regenerates the runs shown in the guides of docs/ and
// compares them with the files (go test -update rewrites them): their
// listings are purr's output, not pasted by hand. Time lines read 0.00.
func TestGuides(t *testing.T) {
	t.Chdir("../..") // the guides' command lines run from the repository root
	for _, path := range []string{"docs/protocols.md"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		got := docRun.ReplaceAllStringFunc(string(src), func(block string) string {
			runs++
			cmd := docRun.FindStringSubmatch(block)[1]
			stdout, stderr, status := runPurr(strings.Fields(cmd)...)
			if status > 1 {
				t.Errorf("%s: purr %s: exit status %d: %s", path, cmd, status, stderr)
			}
			stdout = timeLine.ReplaceAllString(stdout, "Time $1 0.00")
			return "<!-- purr " + cmd + " -->\n```\n$ purr " + cmd + "\n" + stdout + "```\n<!-- /purr -->"
		})
		if runs == 0 {
			t.Errorf("%s shows no run of purr", path)
		}
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got != string(src) {
			t.Errorf("%s: the runs it shows are not purr's output; go test ./cmd/purr -run TestGuides -update rewrites them", path)
		}
	}
}
