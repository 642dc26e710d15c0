package main

import (
	"io"
	"os"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// isTerminal tells whether w is a terminal. Tests replace it to see the
// bar in a buffer.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress is the bar a batch draws on stderr when stderr is a terminal:
// tests done out of the batch's, tests per second and time left. What the
// batch writes to stderr goes through it, above the bar. A nil *progress
// draws nothing: stderr is a pipe or a file, whose bytes stay exactly the
// batch's own.
type progress struct {
	container *mpb.Progress
	bar       *mpb.Bar
}

// startProgress starts the bar for a batch of total tests, or returns nil
// when stderr is not a terminal or the batch has a single test.
func startProgress(stderr io.Writer, total int) *progress {
	if total < 2 || !isTerminal(stderr) {
		return nil
	}
	c := mpb.New(mpb.WithOutput(stderr), mpb.WithAutoRefresh(), mpb.WithRefreshRate(200*time.Millisecond))
	bar := c.AddBar(int64(total), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.CountersNoUnit("%d/%d tests")),
		mpb.AppendDecorators(decor.AverageSpeed(0, "%.1f tests/s", decor.WCSyncSpaceR),
			decor.Name(" left "), decor.AverageETA(decor.ET_STYLE_GO)))
	return &progress{container: c, bar: bar}
}

// stderr returns the writer for the batch's messages.
func (p *progress) stderr(stderr io.Writer) io.Writer {
	if p == nil {
		return stderr
	}
	return p.container
}

// tick counts one test done.
func (p *progress) tick() {
	if p != nil {
		p.bar.Increment()
	}
}

// stop removes the bar, whether or not every test was done, after the
// messages written through it.
func (p *progress) stop() {
	if p == nil {
		return
	}
	if !p.bar.Completed() {
		p.bar.Abort(true)
	}
	p.container.Wait()
}
