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
var isTerminal = isTerminalFile

func isTerminalFile(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressRefresh is how often the bar is redrawn.
const progressRefresh = 200 * time.Millisecond

// renderEachTick, which tests set, redraws the bar after each test instead
// of every progressRefresh, so that what they see does not depend on time.
var renderEachTick bool

// progress is the bar a batch draws on stderr when stderr is a terminal:
// tests done out of the batch's, tests per second and time left. What the
// batch writes to stderr goes through it, above the bar. A nil *progress
// draws nothing: stderr is a pipe or a file, whose bytes stay exactly the
// batch's own.
type progress struct {
	container *mpb.Progress
	bar       *mpb.Bar
	renders   chan<- any // see renderEachTick
}

// startProgress starts the bar for a batch of total tests, or returns nil
// when stderr is not a terminal or the batch has a single test.
func startProgress(stderr io.Writer, total int) *progress {
	if total < 2 || !isTerminal(stderr) {
		return nil
	}
	refresh := mpb.WithRefreshRate(progressRefresh)
	var renders chan any
	if renderEachTick {
		renders = make(chan any)
		refresh = mpb.WithManualRefresh(renders)
	}
	c := mpb.New(mpb.WithOutput(stderr), mpb.WithAutoRefresh(), refresh)
	bar := c.AddBar(int64(total), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.CountersNoUnit("%d/%d tests")),
		mpb.AppendDecorators(decor.AverageSpeed(0, "%.1f tests/s", decor.WCSyncSpaceR),
			decor.Name(" left "), decor.AverageETA(decor.ET_STYLE_GO)))
	return &progress{container: c, bar: bar, renders: renders}
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
		if p.renders != nil {
			p.renders <- nil
		}
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
