package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm"
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
	files, err := parseFlags(fs, args)
	if err == nil {
		err = onlyFlags(fs, "model", "include", "variant", "macros", "unroll", "engine", "max-executions", "max-sat-vars", "max-sat-clauses", "timeout", "addr", "show")
	}
	if err == nil {
		err = checkHerdVariants(o.variants)
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr view:", err)
		return 2
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "purr view: name one test (usage: purr view TEST.litmus [-m MODEL] [--addr HOST:PORT])")
		return 2
	}
	show := outcome.ShowAll
	if o.show != "" {
		show = outcome.Show(o.show)
	}
	s := newViewServer(&o, files[0], show)
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
// test or model file checks the test again, keeping the executions show
// selects.
func newViewServer(o *options, test string, show outcome.Show) *view.Server {
	model := o.model
	if model == "" {
		model = "the default model of its architecture"
	}
	s := &view.Server{Test: test, Model: model, Watch: []string{test}}
	if p, ok := o.modelFile(); ok {
		s.Watch = append(s.Watch, p)
	}
	s.Load = func() view.Snapshot { return o.viewSnapshot(test, show) }
	return s
}

// modelFile is the file -m names, when it names one rather than an
// embedded model.
func (o *options) modelFile() (string, bool) {
	if o.model == "" {
		return "", false
	}
	if fileExists(o.model) {
		return o.model, true
	}
	name := o.model
	if !strings.HasSuffix(name, ".cat") {
		name += ".cat"
	}
	for _, dir := range o.includes {
		if p := filepath.Join(dir, name); fileExists(p) {
			return p, true
		}
	}
	return "", false
}

// viewSnapshot checks the test under the model as they are now on disk.
func (o *options) viewSnapshot(path string, show outcome.Show) view.Snapshot {
	t, err := o.readTest(path)
	if err != nil {
		return view.Snapshot{Err: err}
	}
	m, err := o.loadModel(t.Arch)
	if err != nil {
		return view.Snapshot{Err: err}
	}
	out, err := executionsOf(t, m, o, show)
	if err != nil {
		return view.Snapshot{Err: err}
	}
	var summary bytes.Buffer
	res := out.Result(t, o.hexa)
	res.Write(&summary)
	return view.Snapshot{Executions: out.Executions, Summary: summary.String()}
}

// executionsOf checks a test under a model, keeping the executions show
// selects, as the command line's other flags say (--timeout bounds it).
func executionsOf(t *litmus.Test, m *cat.Model, o *options, show outcome.Show) (*mcm.Outcome, error) {
	ctx := context.Background()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	variants, err := testVariants(t, o.variants)
	if err != nil {
		return nil, err
	}
	return mcm.CheckContext(ctx, m, t, mcm.Options{Unroll: o.unroll, Variants: variants,
		MaxExecutions: o.maxExecutions, Engine: o.engine, MaxVars: o.maxVars, MaxClauses: o.maxClauses, Show: show})
}
