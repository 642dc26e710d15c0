package main

// With --timeout, or -j above 1, purr checks the tests of a batch in child
// processes, workers: purr itself started with the hidden --worker flag
// and the same command line (see jobs.go for -j). Processes rather than
// goroutines, for -j too: gophersat's solvers share a package-level buffer,
// so purr serialises every call into gophersat within a process. The worker stops a test by itself at the deadline, between
// any two steps of the check, but a single call to gophersat cannot be
// interrupted (it has no stop channel, timeout or conflict budget), and a
// goroutine left solving would keep its CPU, its memory and the lock that
// serialises gophersat. So when a worker does not answer shortly after the
// deadline, purr kills it, which frees everything, and starts another for
// the next test. A worker that crashes costs one test, not the batch; it
// is an internal error, as a panic is in the worker or without --timeout.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// workerFlag is the hidden flag that makes purr a worker.
const workerFlag = "worker"

// replyTag starts the header of a worker's reply:
// "purr-reply STATUS LEN(stdout) LEN(stderr)\n", then those bytes.
const replyTag = "purr-reply"

// workerCommand returns the command that starts a worker with args. Tests
// replace it: a test binary is not purr.
var workerCommand = func(args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exec.Command(exe, args...), nil
}

// killGrace is how long past --timeout purr waits for a worker's answer
// before killing it; the worker normally stops by itself at the deadline.
var killGrace = func(timeout time.Duration) time.Duration { return timeout/4 + 100*time.Millisecond }

// serveTests is a worker's life: it reads test paths from in, one a line
// as Go quotes them (a path may hold a line break), checks each with r
// (under --timeout) and writes a reply for each to out. It ends with in,
// or when the model cannot be loaded.
func serveTests(r *runner, in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	// Reused from test to test; stdout spools to a file past a bound, so
	// that a long output (--json of every execution) costs no more memory.
	var stdout spool
	var stderr bytes.Buffer
	defer stdout.Close()
	for sc.Scan() {
		path, err := strconv.Unquote(sc.Text())
		if err != nil {
			fmt.Fprintf(os.Stderr, "purr worker: a request is not a quoted path: %q\n", sc.Text())
			return 1
		}
		stdout.Reset()
		stderr.Reset()
		status := r.check(context.Background(), path, &stdout, &stderr)
		if status == timedOut {
			debug.FreeOSMemory() // what the abandoned check built
		}
		_, err = fmt.Fprintf(out, "%s %d %d %d\n", replyTag, status, stdout.Len(), stderr.Len())
		if err == nil {
			_, err = stdout.WriteTo(out)
		}
		if err == nil {
			_, err = out.Write(stderr.Bytes())
		}
		if err != nil || status == fatal {
			return 1
		}
	}
	return 0
}

// worker is a running worker process.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr bytes.Buffer // the worker's own messages: a crash's
	killed bool
}

// reply is a worker's answer for one test; its stdout is spooled (Close
// it once written out).
type reply struct {
	status testStatus
	stdout *spool
	stderr []byte
}

// answer is what reading a reply gave.
type answer struct {
	rep reply
	err error
}

// errOverrun says that a worker was killed for overrunning its time.
var errOverrun = errors.New("the worker overran its time")

// errQuit says that a worker was killed because the batch stopped.
var errQuit = errors.New("the batch stopped")

func startWorker(args []string) (*worker, error) {
	cmd, err := workerCommand(append([]string{"--" + workerFlag}, args...))
	if err != nil {
		return nil, err
	}
	w := &worker{cmd: cmd}
	cmd.Stderr = &w.stderr
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w.stdout = bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return w, nil
}

// check asks the worker to check the test at path and waits for its reply
// at most limit (0: no limit); past it, the worker is killed and check
// returns errOverrun. When quit closes first, the worker is killed and
// check returns errQuit. After any error the worker is dead or unusable:
// stop it.
func (w *worker) check(path string, limit time.Duration, quit <-chan struct{}) (reply, error) {
	if _, err := io.WriteString(w.stdin, strconv.Quote(path)+"\n"); err != nil {
		return reply{}, w.died(err)
	}
	done := make(chan answer, 1)
	go func() {
		rep, err := w.read()
		done <- answer{rep, err}
	}()
	var overrun <-chan time.Time
	if limit > 0 {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		overrun = timer.C
	}
	select {
	case a := <-done:
		if a.err != nil {
			return reply{}, w.died(a.err)
		}
		return a.rep, nil
	case <-overrun:
		w.kill(done)
		return reply{}, errOverrun
	case <-quit:
		w.kill(done)
		return reply{}, errQuit
	}
}

// checkNow asks the worker to check the test at path and waits for its
// reply, however long it takes (to stop it, kill the process). After an
// error the worker is dead: stop it.
func (w *worker) checkNow(path string) (reply, error) {
	if _, err := io.WriteString(w.stdin, strconv.Quote(path)+"\n"); err != nil {
		return reply{}, w.died(err)
	}
	rep, err := w.read()
	if err != nil {
		return reply{}, w.died(err)
	}
	return rep, nil
}

// kill kills the worker during a check and waits for the reader of its
// reply, done, to give up: the pipe closes with the process.
func (w *worker) kill(done <-chan answer) {
	w.cmd.Process.Kill()
	w.killed = true
	<-done
}

// read reads one reply.
func (w *worker) read() (reply, error) {
	var r reply
	header, err := w.stdout.ReadSlice('\n')
	if err != nil {
		return r, err
	}
	var status, nOut, nErr int
	fields := strings.Fields(string(header))
	if len(fields) == 4 && fields[0] == replyTag {
		status, err = strconv.Atoi(fields[1])
		if err == nil {
			nOut, err = strconv.Atoi(fields[2])
		}
		if err == nil {
			nErr, err = strconv.Atoi(fields[3])
		}
	}
	if len(fields) != 4 || fields[0] != replyTag || err != nil || nOut < 0 || nErr < 0 {
		return r, fmt.Errorf("a worker's reply starts with %q", strings.TrimSpace(string(header)))
	}
	r.status = testStatus(status)
	r.stdout = &spool{}
	if _, err := io.CopyN(r.stdout, w.stdout, int64(nOut)); err != nil {
		r.stdout.Close()
		return r, err
	}
	r.stderr = make([]byte, nErr)
	if _, err := io.ReadFull(w.stdout, r.stderr); err != nil {
		r.stdout.Close()
		return r, err
	}
	return r, nil
}

// died describes a worker that stopped answering: it waits for its end
// and quotes the first line of what it printed (a panic, "out of memory").
func (w *worker) died(err error) error {
	w.stdin.Close()
	w.cmd.Process.Kill()
	w.killed = true
	io.Copy(io.Discard, w.stdout)
	werr := w.cmd.Wait()
	first, _, _ := strings.Cut(strings.TrimSpace(w.stderr.String()), "\n")
	if first == "" {
		first = fmt.Sprint(err)
		if werr != nil {
			first = werr.Error()
		}
	}
	return fmt.Errorf("purr's worker process died checking this test: %s", first)
}

// stop ends the worker: it exits at the end of its input, or is killed.
func (w *worker) stop() {
	if w.cmd.ProcessState != nil {
		return
	}
	w.stdin.Close()
	if w.killed {
		w.cmd.Process.Kill()
	}
	w.cmd.Wait()
}
