package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// testStatus is what became of one test of a batch.
type testStatus int

const (
	answered testStatus = iota // its result block was printed
	failed                     // an error was printed instead
	timedOut                   // --timeout stopped it; nothing was printed
	fatal                      // the model could not be loaded: the batch stops
	crashed                    // purr panicked checking it: a bug of purr's
)

// exitStatus is the exit status an outcome calls for; a batch exits with
// the largest of its tests'.
func (s testStatus) exitStatus() int {
	switch s {
	case failed, fatal:
		return 1
	case crashed:
		return exitInternal
	}
	return 0
}

// runner checks the tests of one batch, printing each one's result.
type runner struct {
	o       *options
	checker *herd.Checker
	block   bytes.Buffer // a test's result block, reused from test to test
}

func newRunner(o *options) *runner { return &runner{o: o, checker: herd.NewChecker(o.cfg)} }

// check checks one test, printing its result block whole on stdout or
// its errors on stderr. A panic costs this test only: it is reported as an
// internal error.
func (r *runner) check(ctx context.Context, path string, stdout, stderr io.Writer) testStatus {
	status := crashed
	protect(path, stderr, func() { status = r.checkTest(ctx, path, stdout, stderr) })
	return status
}

func (r *runner) checkTest(ctx context.Context, path string, stdout, stderr io.Writer) testStatus {
	o := r.o
	// --json of the executions -show selects streams them: each is
	// encoded as the engine finds it, into a spool, rather than all kept
	// until the test's line is written.
	var stream *jsonStream
	var visit func(outcome.Visited) bool
	if o.json && o.output == "" && o.cfg.Show != "" && o.cfg.Show != outcome.ShowNone {
		stream = &jsonStream{o: o}
		defer stream.xs.Close()
		visit = func(v outcome.Visited) bool {
			stream.add(v.Build(false))
			return true
		}
	}
	checked, err := r.checker.CheckVisiting(ctx, path, visit)
	var modelErr *herd.ModelError
	var checkErr *herd.CheckError
	switch {
	case err == nil:
	case errors.As(err, &modelErr):
		printErr(stderr, modelErr.Err)
		return fatal
	case errors.As(err, &checkErr):
		if errors.Is(err, context.DeadlineExceeded) {
			return timedOut
		}
		err = checkErr.Err
		var limit *mcm.LimitError
		if errors.As(err, &limit) {
			flag := "--max-sat-clauses"
			if limit.What == "variables" {
				flag = "--max-sat-vars"
			}
			err = fmt.Errorf("%w (raise it with %s)", err, flag)
		}
		printCheckErr(stderr, path, err)
		return failed
	default: // the test's own: it could not be read, or its variants are refused
		printErr(stderr, err)
		return failed
	}
	if checked.Skipped {
		return answered // herd7 prints nothing either
	}
	t, out := checked.Test, checked.Outcome
	res := out.Result(t, o.cfg.Hexa)
	res.Time, res.HasTime = checked.Elapsed.Seconds(), true
	if o.output != "" && o.cfg.Show != outcome.ShowNone {
		if err := o.writeDOT(t, out); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			return failed
		}
		if o.svg {
			if err := writeSVG(o.output, t.Name, out.Executions, o.relations(out), o.cfg.Picture); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", path, err)
				return failed
			}
		}
	}
	shown := out.Executions
	if stream != nil && stream.first != nil {
		shown = []outcome.Execution{*stream.first}
	}
	if len(shown) > 0 {
		for _, name := range o.doshow {
			x := shown[0]
			if _, isRel := x.Relations[name]; !isRel {
				if _, isSet := x.Sets[name]; !isSet {
					fmt.Fprintf(stderr, "%s: warning: the model and purr define no relation or set %s to show\n", path, name)
				}
			}
		}
	}
	block := &r.block
	block.Reset()
	switch {
	case stream != nil:
		// Written straight out: the line is as long as the executions.
		if err := stream.write(stdout, path, t, out, res); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			return failed
		}
	case o.json:
		if err := o.writeJSON(block, path, t, out, res); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			return failed
		}
	case o.listing:
		o.writeListing(block, t, out)
	default:
		block.Grow(res.SizeHint())
		res.Write(block)
	}
	stdout.Write(block.Bytes())
	n := out.Positive + out.Negative
	if out.Loop && out.Bound != nil && !o.json && !o.listing {
		fmt.Fprintf(stderr, "%s: Test %s: %s\n", path, t.Name, boundNote(out.Bound))
	}
	if limit := o.cfg.MaxExecutions; !out.Complete && limit > 0 && n >= limit {
		fmt.Fprintf(stderr, "%s: Test %s: stopped after %d executions (--max-executions): its states and counts are incomplete\n",
			path, t.Name, n)
	}
	if n == 0 {
		// Every stop short of the whole search happens at an execution, so
		// 0 is exact under --speedcheck and --max-executions too.
		why := "the model forbids every candidate"
		if t.Filter != nil {
			why = "the model and the test's filter rule out every candidate"
		}
		switch {
		case out.Loop:
			why += ", or the unrolling bound cut every path that would give one (raise --unroll)"
		case out.Bound != nil && out.Bound.Unroll == mcm.Unbounded && len(out.Bound.Retries) > 0:
			// The retries cut off are the paths that wait forever.
			why += ", or no path of the program ends (a thread waits forever: a deadlock or a livelock)"
		}
		fmt.Fprintf(stderr, "%s: warning: no consistent execution (%s; check the test and the model)\n", path, why)
	}
	return answered
}

// injectFault, when tests set it, runs before each file is checked, so
// that they can make purr panic inside a check.
var injectFault func(path string)

// printCheckErr prints the errors of a test's check, naming the test in
// each line that points elsewhere (into the model, say): among many tests,
// the line must say which one it stopped.
func printCheckErr(stderr io.Writer, path string, err error) {
	var msgs bytes.Buffer
	printErr(&msgs, err)
	for _, line := range strings.Split(strings.TrimSuffix(msgs.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, path+":") {
			line += " (checking " + path + ")"
		}
		fmt.Fprintln(stderr, line)
	}
}

// protect runs do, reporting a panic in it on stderr as an internal error
// of purr's while checking path, with the stack when PURR_DEBUG=1, and
// tells whether do completed.
func protect(path string, stderr io.Writer, do func()) (completed bool) {
	defer func() {
		if completed {
			return
		}
		p := recover()
		msg, _, _ := strings.Cut(fmt.Sprint(p), "\n")
		fmt.Fprintf(stderr, "%s: internal error: %s (please report)\n", path, msg)
		if os.Getenv("PURR_DEBUG") == "1" {
			stderr.Write(debug.Stack())
		}
	}()
	if injectFault != nil {
		injectFault(path)
	}
	do()
	return true
}

// timeoutMessage is the line printed on stderr for a test that --timeout
// stopped: herd7 prints nothing for it.
func timeoutMessage(path string, limit time.Duration) string {
	return fmt.Sprintf("%s: timed out after %s\n", path, limit)
}
