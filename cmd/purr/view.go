package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/view"
)

// defaultViewAddr is where purr view listens without --addr: loopback,
// on a port the system picks.
const defaultViewAddr = "127.0.0.1:0"

// cmdView serves the page of one test's executions under one model until
// it is stopped.
func cmdView(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet("purr view", stderr, &o)
	addr := fs.String("addr", defaultViewAddr, "serve the page on `HOST:PORT` (loopback unless said otherwise)")
	files, err := parseFlags(fs, &o, args)
	if err == nil {
		err = onlyFlags(fs, "model", "include", "variant", "macros", "unroll", "engine", "max-executions", "max-sat-vars", "max-sat-clauses", "timeout", "addr", "show", "skipchecks", "through")
	}
	if err == nil {
		err = o.cfg.CheckVariants()
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr view:", err)
		return 2
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "purr view: name one test (usage: purr view TEST.litmus [-m MODEL] [--addr HOST:PORT])")
		return 2
	}
	o.cfg.Show = outcome.ShowAll
	if o.show != "" {
		o.cfg.Show = outcome.Show(o.show)
	}
	s := newViewServer(o.cfg, files[0])
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "purr view:", err)
		return 1
	}
	if !isLoopback(ln.Addr()) {
		s.AnyHost = true
		fmt.Fprintf(stderr, "purr view: warning: %s is reachable from other machines\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "purr view: serving %s under %s on http://%s/ (Ctrl-C stops)\n", files[0], s.Model, ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "purr view:", err)
		return 1
	}
	return 0
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// newViewServer makes the page's server for a test: each change of the
// test or model file checks the test again, keeping the executions
// cfg.Show selects, and the candidate executions the model's checks
// forbid.
func newViewServer(cfg herd.Config, test string) *view.Server {
	model := cfg.Model
	if model == "" {
		model = "the default model of its architecture"
	}
	s := &view.Server{Test: test, Model: model, Watch: []string{test}}
	if p, ok := cfg.ModelFile(); ok {
		s.Watch = append(s.Watch, p)
	}
	s.Load = func() view.Snapshot { return viewSnapshot(cfg, test) }
	return s
}

// viewSnapshot checks the test under the model as they are now on disk.
// The executions the model's checks forbid are those that fail a check
// when -through lets them through: those of the run itself under
// -through invalid or all, else those of a second run under -through all.
func viewSnapshot(cfg herd.Config, path string) view.Snapshot {
	checked, err := herd.NewChecker(cfg).Check(context.Background(), path)
	if err != nil {
		return view.Snapshot{Err: err}
	}
	if checked.Skipped {
		return view.Snapshot{Err: fmt.Errorf("%s: -names, -oknames, -nonames or -excl leave this test out", path)}
	}
	out := checked.Outcome
	var summary bytes.Buffer
	res := out.Result(checked.Test, cfg.Hexa)
	res.Write(&summary)
	snap := view.Snapshot{Executions: out.Executions, Summary: summary.String()}
	all := out.Executions
	if cfg.Through == "" || cfg.Through == "none" {
		through := cfg
		through.Through, through.Show = "all", outcome.ShowAll
		checked, err := herd.NewChecker(through).Check(context.Background(), path)
		if err != nil {
			snap.ForbiddenErr = err
			return snap
		}
		all = checked.Outcome.Executions
	}
	for _, x := range all {
		if len(x.Fails) > 0 {
			snap.Forbidden = append(snap.Forbidden, x)
		}
	}
	return snap
}
