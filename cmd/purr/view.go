package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/view"
)

// defaultViewAddr is where purr view listens without --addr: loopback,
// on a port the system picks.
const defaultViewAddr = "127.0.0.1:0"

// viewFlags are the flags purr view takes: those of the run that say
// which executions there are and how they count; --help lists these only.
var viewFlags = []string{"model", "include", "variant", "conf", "bell", "macros", "unroll", "skipchecks", "through", "distinct", "show",
	"doshow", "engine", "max-executions", "max-sat-vars", "max-sat-clauses", "timeout", "addr"}

// ownFlags hides from --help the flags of fs not named: they still parse,
// so that onlyFlags can refuse them by name.
func ownFlags(fs *pflag.FlagSet, names []string) {
	fs.VisitAll(func(f *pflag.Flag) {
		if !slices.Contains(names, f.Name) {
			f.Hidden = true
		}
	})
}

// cmdView serves the page of one test's executions under one model until
// it is stopped.
func cmdView(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet("purr view", stderr, &o)
	addr := fs.String("addr", defaultViewAddr, "serve the page on `HOST:PORT` (loopback unless said otherwise)")
	ownFlags(fs, viewFlags)
	fs.Lookup("show").Usage = "list only the executions of `SHOW`: all (the default), prop, neg, cond or wit, as herd7's -show"
	fs.Lookup("doshow").Usage = "also offer the relations or sets `r,s,...` to draw (predefined ones such as addr, data, ctrl, rmw)"
	files, err := parseFlags(fs, &o, args)
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if err == nil {
		err = onlyFlags(fs, viewFlags...)
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
	// A test or model that cannot be read fails here, at the terminal;
	// once serving, the page and stderr say what goes wrong.
	if err := readable(o.cfg, files[0]); err != nil {
		viewError(stderr, err)
		return 1
	}
	s := newViewServer(o.cfg, files[0], o.conf)
	s.Report = func(c view.Checked, err error) {
		if err != nil {
			viewError(stderr, err)
			return
		}
		line := c.Summary
		if _, obs, ok := strings.Cut(c.Summary, "\nObservation "); ok {
			line, _, _ = strings.Cut(obs, "\n")
		}
		fmt.Fprintf(stderr, "purr view: checked at %s: %s\n", time.Now().Format("15:04:05"), line)
		if c.Cut != "" {
			fmt.Fprintln(stderr, "purr view:", c.Cut)
		}
	}
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

// viewError prints an error one problem a line: with its position, or
// else after "purr view:".
func viewError(w io.Writer, err error) {
	var list source.ErrorList
	if errors.As(err, &list) {
		printErr(w, err)
		return
	}
	fmt.Fprintln(w, "purr view:", err)
}

// readable checks the test up to its first execution, for the errors of
// the test and the model (reading them, or the engine's before it
// enumerates) at start.
func readable(cfg herd.Config, test string) error {
	res, err := herd.NewChecker(cfg).CheckVisiting(context.Background(), test, func(outcome.Visited) bool { return false })
	if err == nil && res.Skipped {
		err = fmt.Errorf("%s: -names, -oknames, -nonames or -excl leave this test out", test)
	}
	return err
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// viewChecker checks the test of a page under its configuration, and
// knows the files the last check read.
type viewChecker struct {
	cfg   herd.Config
	test  string
	fixed []string // the test, -conf's files, -bell's, -macros'

	mu    sync.Mutex
	model []string // the model's files, as the last check that loaded it read them
}

// newViewServer makes the page's server for a test: each change of the
// test, of a file of its model or of -conf, -bell or -macros checks the
// test again. conf are -conf's files.
func newViewServer(cfg herd.Config, test string, conf []string) *view.Server {
	model := cfg.Model
	if model == "" {
		model = "the default model of its architecture"
	}
	v := &viewChecker{cfg: cfg, test: test, fixed: append([]string{test}, conf...)}
	for _, f := range []string{cfg.Bell, cfg.Macros} {
		if f != "" {
			v.fixed = append(v.fixed, onPath(f, cfg.Includes))
		}
	}
	if p, ok := cfg.ModelFile(); ok {
		v.model = []string{p}
	}
	return &view.Server{Test: test, Model: model, Check: v.check, Watch: v.watch}
}

// onPath finds a file as given, else on the include path.
func onPath(name string, dirs []string) string {
	if _, err := os.Stat(name); err == nil || filepath.IsAbs(name) {
		return name
	}
	for _, d := range dirs {
		if p := filepath.Join(d, name); fileExists(p) {
			return p
		}
	}
	return name
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// watch lists the files the page follows.
func (v *viewChecker) watch() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append(slices.Clone(v.fixed), v.model...)
}

// check checks the test for the page's list: the executions -show selects
// for the allowed list; for the forbidden one, those of the run itself
// under -through invalid or all, else of a run under -through all.
func (v *viewChecker) check(ctx context.Context, list string, visit func(outcome.Visited) bool) (view.Checked, error) {
	cfg := v.cfg
	if list == view.ListForbidden && (cfg.Through == "" || cfg.Through == "none") {
		cfg.Through, cfg.Show = "all", outcome.ShowAll
	}
	k := herd.NewChecker(cfg)
	res, err := k.CheckVisiting(ctx, v.test, visit)
	v.follow(k, res, err)
	if err != nil {
		return view.Checked{}, err
	}
	if res.Skipped {
		return view.Checked{}, fmt.Errorf("%s: -names, -oknames, -nonames or -excl leave this test out", v.test)
	}
	out := res.Outcome
	var summary bytes.Buffer
	result := out.Result(res.Test, cfg.Hexa)
	result.Write(&summary)
	if out.Bound != nil {
		fmt.Fprintln(&summary, boundNote(out.Bound))
	}
	c := view.Checked{Summary: summary.String()}
	if n := out.Positive + out.Negative; !out.Complete && cfg.MaxExecutions > 0 && n >= cfg.MaxExecutions {
		c.Cut = fmt.Sprintf("stopped after %d executions (--max-executions %d): the states and counts are incomplete", n, cfg.MaxExecutions)
	}
	return c, nil
}

// follow records the files a check read: its model's, when it loaded, and
// those its errors name (a file the model newly includes).
func (v *viewChecker) follow(k *herd.Checker, res *herd.Result, err error) {
	var files []string
	if res != nil && res.Test != nil {
		if m, merr := k.Model(res.Test.Arch); merr == nil {
			for _, f := range m.Files {
				if !strings.HasPrefix(f, "embed:") {
					files = append(files, f)
				}
			}
		}
	}
	var list source.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			if f := e.Pos.File; f != "" && !strings.HasPrefix(f, "embed:") && fileExists(f) {
				files = append(files, f)
			}
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if res != nil {
		v.model = nil
		if p, ok := v.cfg.ModelFile(); ok {
			v.model = []string{p}
		}
	}
	for _, f := range files {
		if !slices.Contains(v.model, f) && !slices.Contains(v.fixed, f) {
			v.model = append(v.model, f)
		}
	}
}
