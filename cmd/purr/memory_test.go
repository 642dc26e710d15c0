package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/purr-mcm/purr/internal/family"
)

// maxExecutionCost bounds the memory --json -show all may grow by per
// execution of a test, in bytes: what the engine keeps to enumerate on
// (purr keeping every execution until the test's line was written cost
// about 40 KB each).
const maxExecutionCost = 10 << 10

// TestJSONStreamsExecutions checks that --json -show all streams a
// test's executions: the peak memory of purr (checking in its own
// process) and of a worker (-j, --timeout) grows by at most
// maxExecutionCost per execution from Writers-4 (360 executions) to
// Writers-5 (2,520), and the lines hold every execution.
func TestJSONStreamsExecutions(t *testing.T) {
	writers, _ := family.Lookup("Writers")
	dir := t.TempDir()
	type run struct {
		rss        int64 // peak resident memory, bytes
		executions int
	}
	measure := func(n int, asWorker bool) run {
		path := filepath.Join(dir, "Writers-"+strconv.Itoa(n)+".litmus")
		if err := os.WriteFile(path, []byte(writers.Test(n)), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-j", "1", "--json", "-show", "all", path}
		var stdin bytes.Buffer
		if asWorker {
			args = []string{"--" + workerFlag, "--json", "-show", "all"}
			stdin.WriteString(strconv.Quote(path) + "\n")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "PURR_TEST_AS_PURR=1")
		cmd.Stdin = &stdin
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("purr %v: %v", args, err)
		}
		if asWorker {
			// The reply's header, then the test's line.
			_, out, _ = bytes.Cut(out, []byte("\n"))
		}
		var res jsonResult
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("purr %v: %v", args, err)
		}
		if len(res.Executions) != res.Positive+res.Negative {
			t.Errorf("purr %v: %d executions in the line, want %d", args, len(res.Executions), res.Positive+res.Negative)
		}
		return run{cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10, len(res.Executions)}
	}
	for _, asWorker := range []bool{false, true} {
		small, large := measure(4, asWorker), measure(5, asWorker)
		perExecution := (large.rss - small.rss) / int64(large.executions-small.executions)
		t.Logf("worker %v: %d executions, %d MB; %d executions, %d MB: %d bytes each", asWorker,
			small.executions, small.rss>>20, large.executions, large.rss>>20, perExecution)
		if perExecution > maxExecutionCost {
			t.Errorf("worker %v: memory grows by %d bytes an execution, more than %d: --json does not stream", asWorker, perExecution, maxExecutionCost)
		}
	}
}
