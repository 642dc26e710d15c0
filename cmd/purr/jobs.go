package main

// A batch runs in -j worker processes (worker.go), which take the next
// test as they finish one; purr prints each test's stdout and stderr in
// the order of the batch, as soon as the tests before it are done, so
// that the output is the same as with -j 1 but for Time lines.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// defaultJobs is -j when not given: the CPUs purr may use.
func defaultJobs() int { return runtime.GOMAXPROCS(0) }

// testResult is what became of one test in a worker.
type testResult struct {
	rep reply
	err error // errOverrun, errQuit, a dead worker, or a worker that could not start
}

// runWorkers checks files in jobs worker processes and prints their
// results in the order of files; args is the command line, which each
// worker receives. Before it prints anything, it calls ready, which
// returns where to print errors and what to call after each test's
// results are printed, or false when the batch must stop (exit status 1)
// before any test: ready has said why. Results that come before their
// turn wait in memory: a slow test holds back the printing, not the
// workers.
func runWorkers(o *options, args, files []string, jobs int, stdout io.Writer,
	ready func() (stderr io.Writer, tick func(), ok bool)) int {
	// The parent passes tests and results along: with one thread running
	// Go code, a goroutine woken by a worker's reply does not wake another
	// thread, whose CPU the workers need.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	outcomes := make([]chan testResult, len(files))
	for i := range outcomes {
		outcomes[i] = make(chan testResult, 1)
	}
	// The workers' goroutines take the tests in order, each the next one
	// when it is done with one, until the batch stops (quit).
	var taken atomic.Int64
	quit := make(chan struct{})
	next := func() (int, bool) {
		select {
		case <-quit:
			return 0, false
		default:
		}
		i := int(taken.Add(1) - 1)
		return i, i < len(files)
	}
	// Without a time limit, a goroutine waits for its worker's reply
	// itself; when the batch stops, the workers still checking a test are
	// killed, which ends the wait.
	var mu sync.Mutex
	checking := map[*worker]bool{}
	var wg sync.WaitGroup
	defer wg.Wait()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for w := range checking {
			w.cmd.Process.Kill()
		}
	}()
	defer close(quit)
	limit := time.Duration(0)
	if o.cfg.Timeout > 0 {
		limit = o.cfg.Timeout + killGrace(o.cfg.Timeout)
	}
	check := func(w *worker, path string) (reply, error) {
		if limit > 0 {
			return w.check(path, limit, quit)
		}
		mu.Lock()
		select {
		case <-quit:
			mu.Unlock()
			return reply{}, errQuit
		default:
			checking[w] = true
		}
		mu.Unlock()
		rep, err := w.checkNow(path)
		mu.Lock()
		delete(checking, w)
		mu.Unlock()
		return rep, err
	}
	for range min(jobs, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w *worker
			defer func() {
				if w != nil {
					w.stop()
				}
			}()
			for i, ok := next(); ok; i, ok = next() {
				if w == nil {
					var err error
					if w, err = startWorker(args); err != nil {
						outcomes[i] <- testResult{err: fmt.Errorf("%w: %v", errStart, err)}
						continue
					}
				}
				rep, err := check(w, files[i])
				if err != nil {
					w.stop()
					w = nil
				}
				outcomes[i] <- testResult{rep, err}
			}
		}()
	}
	// Results that are ready are written out together, in one system call
	// rather than one each; what is buffered is written before purr waits
	// for a result, and before anything goes to stderr, so that the two
	// streams interleave as with -j 1.
	stderr, tick, ok := ready()
	if !ok {
		return 1
	}
	buffered := bufio.NewWriterSize(stdout, 64<<10)
	defer buffered.Flush()
	stderr = flushingWriter{buffered, stderr}
	status := 0
	for i, f := range files {
		var out testResult
		select {
		case out = <-outcomes[i]:
		default:
			buffered.Flush()
			out = <-outcomes[i]
		}
		switch {
		case errors.Is(out.err, errStart):
			fmt.Fprintln(stderr, "purr:", out.err)
			return 1
		case errors.Is(out.err, errOverrun):
			fmt.Fprint(stderr, timeoutMessage(f, o.cfg.Timeout))
		case out.err != nil:
			fmt.Fprintf(stderr, "%s: internal error: %v (please report)\n", f, out.err)
			status = exitInternal
		default:
			out.rep.stdout.WriteTo(buffered)
			out.rep.stdout.Close()
			if len(out.rep.stderr) > 0 {
				stderr.Write(out.rep.stderr)
			}
			if out.rep.status == timedOut {
				fmt.Fprint(stderr, timeoutMessage(f, o.cfg.Timeout))
			}
			status = max(status, out.rep.status.exitStatus())
		}
		tick()
		if out.err == nil && out.rep.status == fatal {
			break
		}
	}
	return status
}

// flushingWriter writes to w after flushing first.
type flushingWriter struct {
	first *bufio.Writer
	w     io.Writer
}

func (f flushingWriter) Write(p []byte) (int, error) {
	f.first.Flush()
	return f.w.Write(p)
}

// errStart says that a worker process could not be started.
var errStart = errors.New("starting a worker process")

// shard is --shard I/N: the I-th of N contiguous blocks of a batch,
// counting from 0, so that concatenating the outputs of shards 0 to N-1
// gives the output of the whole batch.
type shard struct{ index, count int }

func (s *shard) String() string {
	if s.count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.index, s.count)
}

func (s *shard) Type() string { return "I/N" }

func (s *shard) Set(v string) error {
	i, n, ok := strings.Cut(v, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return fmt.Errorf("%q is not I/N with 0 <= I < N (shard I of N, counting from 0)", v)
	}
	*s = shard{index, count}
	return nil
}

// of returns the shard's block of files: the same block for the same
// files, whatever the machine.
func (s shard) of(files []string) []string {
	if s.count == 0 {
		return files
	}
	n := len(files)
	return files[s.index*n/s.count : (s.index+1)*n/s.count]
}
