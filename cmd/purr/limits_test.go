package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/cat"
)

// TestMain lets the test binary stand for purr when --timeout starts
// workers: it runs purr's main when PURR_TEST_AS_PURR is set. In both
// roles, purr panics before checking a file whose path ends with
// $PURR_TEST_PANIC.
func TestMain(m *testing.M) {
	injectFault = func(path string) {
		if suffix := os.Getenv("PURR_TEST_PANIC"); suffix != "" && strings.HasSuffix(path, suffix) {
			panic("injected fault\nsecond line")
		}
	}
	if os.Getenv("PURR_TEST_AS_PURR") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	workerCommand = func(args []string) (*exec.Cmd, error) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "PURR_TEST_AS_PURR=1")
		return cmd, nil
	}
	// The tests' parsed models stay out of the user's cache.
	cache, err := os.MkdirTemp("", "purr-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(cat.CacheEnv, cache)
	status := m.Run()
	os.RemoveAll(cache)
	os.Exit(status)
}

// writers writes a test of threads that each write distinct values to x
// writes times: every interleaving of the writes is an SC execution,
// (threads·writes)! of them.
func writers(t *testing.T, threads, writes int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "AArch64 W%dx%d\n{", threads, writes)
	for i := 0; i < threads; i++ {
		fmt.Fprintf(&b, " %d:X1=x;", i)
	}
	b.WriteString(" }\n")
	row := func(cell func(i int) string) {
		for i := 0; i < threads; i++ {
			if i > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprintf(&b, "%-12s", cell(i))
		}
		b.WriteString(" ;\n")
	}
	row(func(i int) string { return fmt.Sprintf("P%d", i) })
	for w := 0; w < writes; w++ {
		row(func(i int) string { return fmt.Sprintf("MOV W0,#%d", i*writes+w+1) })
		row(func(int) string { return "STR W0,[X1]" })
	}
	b.WriteString("exists (x=1)\n")
	path := filepath.Join(t.TempDir(), fmt.Sprintf("W%dx%d.litmus", threads, writes))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const mp = "../../testdata/MP.litmus"

// TestLimits runs batches in which a test times out, is cut short by
// --max-executions, is refused for its size, or kills its worker; the
// other tests of the batch are answered all the same.
func TestLimits(t *testing.T) {
	huge := writers(t, 12, 1) // 12! executions: never done in time
	small := writers(t, 4, 1) // 24 executions
	big := writers(t, 40, 40) // 2.56 million co pairs
	for _, c := range []struct {
		name       string
		args       []string
		killEarly  bool     // the parent kills the worker before its own deadline
		crash      bool     // the worker dies at once
		status     int      // exit status
		answered   []string // the tests whose blocks stdout holds, in order
		stderr     []string // what stderr says, in order
		executions int      // Positive + Negative of the first block, when not 0
	}{
		// The limits leave a fresh worker time for MP on a loaded machine:
		// killEarly leaves it half of one.
		{name: "timeout", args: []string{"--timeout", "1s", huge, mp},
			answered: []string{"MP"}, stderr: []string{huge + ": timed out after 1s\n"}},
		{name: "herd's timeout spelling", args: []string{"-timeout", "1.5", huge, mp},
			answered: []string{"MP"}, stderr: []string{huge + ": timed out after 1.5s\n"}},
		{name: "worker killed", args: []string{"--timeout", "2s", huge, mp, huge}, killEarly: true,
			answered: []string{"MP"}, stderr: []string{huge + ": timed out after 2s\n", huge + ": timed out after 2s\n"}},
		{name: "worker crash", args: []string{"--timeout", "1s", mp, small}, crash: true, status: exitInternal,
			stderr: []string{mp + ": internal error: purr's worker process died checking this test: boom (please report)\n",
				small + ": internal error: purr's worker process died checking this test: boom (please report)\n"}},
		{name: "worker crash without a time limit", args: []string{"-j", "2", mp, small}, crash: true, status: exitInternal,
			stderr: []string{mp + ": internal error: purr's worker process died checking this test: boom (please report)\n",
				small + ": internal error: purr's worker process died checking this test: boom (please report)\n"}},
		{name: "max executions", args: []string{"--max-executions", "5", small, mp},
			answered: []string{"W4x1", "MP"}, executions: 5,
			stderr: []string{small + ": Test W4x1: stopped after 5 executions (--max-executions): its states and counts are incomplete\n"}},
		{name: "max executions in a worker", args: []string{"--timeout", "10s", "--max-executions", "5", small, mp},
			answered: []string{"W4x1", "MP"}, executions: 5,
			stderr: []string{small + ": Test W4x1: stopped after 5 executions"}},
		{name: "max executions not reached", args: []string{"--max-executions", "24", small},
			answered: []string{"W4x1"}, executions: 24},
		{name: "size refusal", args: []string{big, mp}, status: 1, answered: []string{"MP"},
			stderr: []string{big + ": test refused: the formula needs more than 500000 SAT variables (raise it with --max-sat-vars)\n"}},
		{name: "size refusal in a worker", args: []string{"--timeout", "10s", big, mp}, status: 1, answered: []string{"MP"},
			stderr: []string{big + ": test refused: the formula needs more than 500000 SAT variables"}},
		{name: "clause bound", args: []string{"--max-sat-clauses", "10", mp}, status: 1,
			stderr: []string{mp + ": test refused: the formula needs more than 10 SAT clauses (raise it with --max-sat-clauses)\n"}},
		{name: "no bound", args: []string{"--max-sat-clauses", "0", "--max-sat-vars", "0", mp}, answered: []string{"MP"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.killEarly {
				saved := killGrace
				killGrace = func(timeout time.Duration) time.Duration { return -timeout / 2 }
				defer func() { killGrace = saved }()
			}
			if c.crash {
				saved := workerCommand
				workerCommand = func([]string) (*exec.Cmd, error) {
					return exec.Command("sh", "-c", "echo boom >&2; exit 3"), nil
				}
				defer func() { workerCommand = saved }()
			}
			out, errs, status := runPurr(append([]string{"-m", "sc"}, c.args...)...)
			if status != c.status {
				t.Errorf("exit status %d, want %d", status, c.status)
			}
			var names []string
			for _, line := range strings.Split(out, "\n") {
				if name, ok := strings.CutPrefix(line, "Test "); ok {
					names = append(names, strings.Fields(name)[0])
				}
			}
			if strings.Join(names, " ") != strings.Join(c.answered, " ") {
				t.Errorf("answered %q, want %q; stderr:\n%s", names, c.answered, errs)
			}
			rest := errs
			for _, want := range c.stderr {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stderr lacks %q:\n%s", want, errs)
				}
				rest = rest[i+len(want):]
			}
			if c.stderr == nil && errs != "" {
				t.Errorf("unexpected stderr:\n%s", errs)
			}
			if c.executions != 0 {
				var pos, neg int
				i := strings.Index(out, "Positive: ")
				if i < 0 {
					t.Fatalf("no Positive line:\n%s", out)
				}
				fmt.Sscanf(out[i:], "Positive: %d Negative: %d", &pos, &neg)
				if pos+neg != c.executions {
					t.Errorf("%d executions, want %d", pos+neg, c.executions)
				}
			}
		})
	}
}

// TestInternalError makes purr panic on one file of a batch: the panic is
// reported with the file's path as an internal error, without a stack
// unless PURR_DEBUG=1, the exit status is exitInternal, and the next
// files are checked all the same, with or without worker processes.
func TestInternalError(t *testing.T) {
	small := writers(t, 4, 1)
	const report = ": internal error: injected fault (please report)\n"
	for _, c := range []struct {
		name     string
		args     []string
		debug    bool
		stdout   []string // what stdout holds, in order
		stderr   []string // what stderr holds, in order
		answered []string // the tests whose blocks stdout holds, in order
	}{
		{name: "run", args: []string{"-m", "sc", small, mp},
			answered: []string{"MP"}, stderr: []string{small + report}},
		{name: "run in a worker", args: []string{"-m", "sc", "--timeout", "10s", small, mp, small, mp},
			answered: []string{"MP", "MP"}, stderr: []string{small + report, small + report}},
		{name: "beside a failed test", args: []string{"-m", "sc", "nosuch.litmus", small, mp},
			answered: []string{"MP"}, stderr: []string{"nosuch.litmus", small + report}},
		{name: "PURR_DEBUG=1 adds the stack", args: []string{"-m", "sc", small, mp}, debug: true,
			answered: []string{"MP"}, stderr: []string{small + report, "goroutine ", "purr.TestMain.func1"}},
		{name: "PURR_DEBUG=1 in a worker", args: []string{"-m", "sc", "--timeout", "10s", small, mp}, debug: true,
			answered: []string{"MP"}, stderr: []string{small + report, "goroutine ", "purr.TestMain.func1"}},
		{name: "check", args: []string{"check", small, mp},
			stdout: []string{mp + ": ok\n"}, stderr: []string{small + report}},
		{name: "xcfa", args: []string{"xcfa", small, mp},
			stdout: []string{"digraph"}, stderr: []string{small + report}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PURR_TEST_PANIC", filepath.Base(small))
			t.Setenv("PURR_DEBUG", "")
			if c.debug {
				t.Setenv("PURR_DEBUG", "1")
			}
			out, errs, status := runPurr(c.args...)
			if status != exitInternal {
				t.Errorf("exit status %d, want %d", status, exitInternal)
			}
			var names []string
			for _, line := range strings.Split(out, "\n") {
				if name, ok := strings.CutPrefix(line, "Test "); ok {
					names = append(names, strings.Fields(name)[0])
				}
			}
			if strings.Join(names, " ") != strings.Join(c.answered, " ") {
				t.Errorf("answered %q, want %q; stderr:\n%s", names, c.answered, errs)
			}
			for _, s := range []struct {
				name, got string
				want      []string
			}{{"stdout", out, c.stdout}, {"stderr", errs, c.stderr}} {
				rest := s.got
				for _, want := range s.want {
					i := strings.Index(rest, want)
					if i < 0 {
						t.Fatalf("%s lacks %q:\n%s", s.name, want, s.got)
					}
					rest = rest[i+len(want):]
				}
			}
			if strings.Contains(errs, "goroutine ") != c.debug {
				t.Errorf("a stack on stderr: %v, want %v:\n%s", !c.debug, c.debug, errs)
			}
		})
	}
}
