package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
)

// showNames lists -show's values.
func showNames() string {
	names := make([]string, len(outcome.Shows))
	for i, s := range outcome.Shows {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// selection is the -show selection the command line asks of the engines:
// none unless something draws or prints executions.
func (o *options) selection() outcome.Show {
	if o.output == "" && !o.json && !o.listing {
		return outcome.ShowNone
	}
	if o.show == "" {
		if o.listing {
			return outcome.ShowAll // purr executions lists them all by default
		}
		return outcome.ShowNone // herd7's default
	}
	return outcome.Show(o.show)
}

// options are the flags shared by every purr command. Their names follow
// herd7's, so that a herd7 command line works after changing the program
// name; those that configure the check itself fill cfg.
type options struct {
	cfg        herd.Config
	conf       []string // herd7's -conf: configuration files, read into cfg in order
	cpuprofile string
	memprofile string
	svg        bool // with -o, also draw executions as DIR/NAME.svg
	worker     bool // serve tests to a parent purr (see worker.go)

	show           string   // herd7's -show: the executions to draw or print
	output         string   // herd7's -o: where to write DIR/NAME.dot
	doshow, unshow []string // relations to draw besides, or not, the default ones
	json           bool     // print JSON Lines instead of herd7's blocks
	listing        bool     // purr executions: print the executions as text
	jobs           int      // worker processes; 0: defaultJobs
	shard          shard
	// ignoredPictures are the herd7 picture options given that purr does
	// not follow, noted on stderr.
	ignoredPictures []string
}

func newFlagSet(name string, out io.Writer, o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(out)
	fs.SortFlags = false
	c, d := &o.cfg, herd.Default()
	fs.StringVarP(&c.Model, "model", "m", "", "Cat model: a file, or the name of an embedded model (sc, tso, pso, ...); default: the architecture's, as herd7 chooses it, except for C tests: purr's rc11 where herd7 7.57 runs c11_partialSC.cat (give -m to compare)")
	fs.StringArrayVarP(&c.Includes, "include", "I", nil, "add `DIR` to the Cat include path (repeatable)")
	fs.StringSliceVar(&c.Variants, "variant", nil, "enable model variants `a,b,...`")
	c.Unroll = d.Unroll
	fs.Var((*unrollFlag)(&c.Unroll), "unroll", "unroll loops `N` times; none: decide loops without a bound (docs/loops.md)")
	fs.StringVar(&o.show, "show", "", "select the executions to draw (-o) or print (--json, purr executions): all, prop, neg, cond, wit or none, as herd7's -show")
	fs.StringVarP(&o.output, "output", "o", "", "write each test's selected executions as Graphviz DOT into `DIR`/NAME.dot, one digraph each")
	fs.StringSliceVar(&o.doshow, "doshow", nil, "also draw (or list) the relations or sets `r,s,...` (the model's, or predefined ones such as addr, data, ctrl, rmw)")
	fs.StringSliceVar(&o.unshow, "unshow", nil, "do not draw (or list) the relations `r,s,...`")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per test (JSON Lines) instead of herd7's result block")
	fs.BoolVar(&o.svg, "svg", false, "with -o DIR, also draw each test's executions as DIR/NAME.svg (no Graphviz needed)")
	fs.Var((*timeoutValue)(&c.Timeout), "timeout", "give up on a test after this `duration` (10s, 1m, or seconds as herd7 takes them: 10.0; 0 or none: never)")
	fs.BoolVar(&c.Speedcheck, "speedcheck", false, "stop at the first execution that decides the condition")
	fs.BoolVar(&c.Hexa, "hexa", false, "print values in hexadecimal")
	fs.IntVar(&c.MaxExecutions, "max-executions", 0, "stop enumerating a test after `N` executions, reporting its counts as incomplete (0: all)")
	fs.StringVar(&c.Engine, "engine", "", "decide with `ENGINE`: sat (the default) or explicit (herd7's enumeration of candidate executions, for tiny tests and cross-checks)")
	fs.BoolVar(&c.CheckModels, "check-models", false, "re-check every execution the SAT engine accepts by evaluating the model on it concretely (slow; for purr's developers)")
	fs.IntVar(&c.MaxVars, "max-sat-vars", d.MaxVars, "refuse a test whose formula needs more than `N` SAT variables (0: no bound)")
	fs.IntVar(&c.MaxClauses, "max-sat-clauses", d.MaxClauses, "refuse a test whose formula needs more than `N` SAT clauses (0: no bound)")
	fs.Var((*distinctValue)(&c.Distinct), "distinct", "count executions up to the relations `REL,...` (rf, co): executions that differ only in others are one (default: herd7's counting, paths, rf and co)")
	fs.IntVarP(&o.jobs, "jobs", "j", 0, "check `N` tests at a time, in worker processes (0: one per CPU); the output is the same as with -j 1, in the order of the tests")
	fs.Var(&o.shard, "shard", "check only block `I/N` of the tests: the I-th of N equal contiguous blocks, counting from 0 (for job arrays: concatenate the outputs of 0/N to N-1/N)")
	fs.BoolVar(&o.worker, workerFlag, false, "check the tests named on standard input for a parent purr")
	fs.MarkHidden(workerFlag)
	fs.StringArrayVar(&o.conf, "conf", nil, "read herd7's configuration `FILE.cfg` (model, bell, macros, variant, ...; the command line wins; repeatable, in order)")
	fs.StringVar(&c.Bell, "bell", "", "run the bell `FILE` before the model")
	fs.StringVar(&c.Macros, "macros", "", "expand herd7's C macros of `FILE.def` in C tests (the Linux kernel's primitives: linux-kernel.def)")
	fs.StringSliceVar(&c.SkipChecks, "skipchecks", nil, "leave out the model's checks `name,...`")
	fs.StringVar(&c.Through, "through", d.Through, "let through the executions the model's checks forbid, as herd7's -through: none, invalid or all (the same under a Cat model); they count, and listings and JSON name the checks they fail")
	fs.StringArrayVar(&c.Names, "names", nil, "check only the tests named in `FILE` (a name a line, up to its first space, as a kinds file has them; repeatable), as herd7's -names")
	fs.StringSliceVar(&c.OKNames, "oknames", nil, "check only the tests named `name,...` (the names of their first lines), as herd7's -oknames")
	fs.StringSliceVar(&c.NoNames, "nonames", nil, "skip the tests named `name,...`, as herd7's -nonames")
	fs.StringArrayVar(&c.Excl, "excl", nil, "skip the tests named in `FILE` (as -names reads it; repeatable), as herd7's -excl")
	pictureFlags(fs, &c.Picture)
	ignoredPictureFlags(fs, &o.ignoredPictures)
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for purr's developers)")
	fs.MarkHidden("cpuprofile")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a profile of the run's allocations to `FILE` at its end (for purr's developers)")
	fs.MarkHidden("memprofile")
	return fs
}

// pictureFlags defines herd7's picture options (-graph columns,
// -showevents mem, -squished true, ...), which change the pictures -o
// and --svg draw as they change herd7's.
func pictureFlags(fs *pflag.FlagSet, p *show.Picture) {
	for _, f := range []struct{ name, kind, usage string }{
		{"graph", "mode", "lay the threads out as herd7's -graph does: cluster (the default), free, or columns (thread 0 leftmost, each event pinned; for neato)"},
		{"showevents", "events", "draw all events, mem (no fences), noregs or memfence, as herd7's -showevents"},
		{"squished", "bool", "draw each event as its action alone, without its instruction"},
		{"showinitwrites", "bool", "draw the initial writes (default true)"},
		{"showinitrf", "bool", "with -showinitwrites false, draw a dot and an rf arrow for each read of an initial value"},
		{"showfinalrf", "bool", "draw an rf arrow from each write that ends in memory"},
		{"showlegend", "bool", "title each picture with the test, model and execution (default true)"},
		{"showthread", "bool", "name the threads (default true)"},
		{"withbox", "bool", "with -showevents all, draw a box around each instruction's events"},
		{"labelbox", "bool", "with -withbox, label each box with its instruction"},
		{"mono", "bool", "draw in black and white"},
		{"fontsize", "N", "the font size of events, edges and title"},
		{"scale", "F", "stretch a -graph columns picture (and purr's SVG) by F"},
		{"xscale", "F", "stretch a -graph columns picture across by F"},
		{"yscale", "F", "stretch a -graph columns picture down by F"},
		{"arrowsize", "F", "the size of every arrowhead (Graphviz's arrowsize)"},
		{"penwidth", "F", "the width of every edge (Graphviz's penwidth)"},
		{"pad", "F", "the picture's padding in inches (Graphviz's pad)"},
		{"splines", "KIND", "how edges are drawn (Graphviz's splines; default spline)"},
		{"edgeattr", "rel,attr,value", "give the edges of a relation a Graphviz attribute (repeatable)"},
		{"symetric", "rel,...", "draw the relations as one headless edge per pair"},
		{"shift", "f0,f1,...", "move thread i's events down by fi rows (-graph columns)"},
	} {
		flag := fs.VarPF(pictureValue{p, f.name, f.kind}, f.name, "", f.usage)
		if f.kind == "bool" {
			flag.NoOptDefVal = "true"
		}
	}
}

// ignoredPictureFlags defines herd7's picture options purr does not
// follow, hidden: -gv, -evince (no value), and those that take one.
func ignoredPictureFlags(fs *pflag.FlagSet, names *[]string) {
	for _, name := range herd.IgnoredPictureKeys {
		if fs.Lookup(name) != nil || name == "view" || name == "o" {
			continue // purr's own -show and -o; purr view is a command
		}
		f := fs.VarPF(ignoredPictureValue{names, name}, name, "", "herd7's, ignored")
		if name == "gv" || name == "evince" {
			f.NoOptDefVal = "true"
		}
		fs.MarkHidden(name)
	}
}

type ignoredPictureValue struct {
	names *[]string
	name  string
}

func (v ignoredPictureValue) String() string { return "" }
func (v ignoredPictureValue) Type() string   { return "value" }
func (v ignoredPictureValue) Set(string) error {
	if !slices.Contains(*v.names, v.name) {
		*v.names = append(*v.names, v.name)
	}
	return nil
}

// pictureValue is a picture option's flag, read by show.Picture.Set.
type pictureValue struct {
	p          *show.Picture
	name, kind string
}

func (v pictureValue) String() string { return "" }
func (v pictureValue) Type() string   { return v.kind }
func (v pictureValue) Set(s string) error {
	_, err := v.p.Set(v.name, s)
	return err
}

// herdSpellings rewrites herd7's single-dash long options (-model x.cat,
// -variant a, -unroll=2) into pflag's double-dash form. Single letters such
// as -m, -I and -o, and anything after "--", are left alone.
func herdSpellings(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	skip := false
	for i, a := range args {
		if skip {
			skip = false
			continue
		}
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if fs.Lookup(name) != nil {
				a = "-" + a
			}
		}
		// herd7 spells a boolean with its value: -speedcheck true|false|fast,
		// -squished true.
		if f := boolFlag(fs, a); f != nil && i+1 < len(args) && slices.Contains([]string{"true", "false", "fast"}, args[i+1]) &&
			(args[i+1] != "fast" || f.Name == "speedcheck") {
			skip = true
			a += "=" + herd.SpeedcheckValue(args[i+1])
		}
		out = append(out, a)
	}
	return out
}

// boolFlag is the flag arg names ("--squished"), if it takes no value
// (a boolean), or nil.
func boolFlag(fs *pflag.FlagSet, arg string) *pflag.Flag {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok || strings.Contains(name, "=") {
		return nil
	}
	if f := fs.Lookup(name); f != nil && f.NoOptDefVal != "" {
		return f
	}
	return nil
}

// timeoutValue is --timeout, read as herd.ParseTimeout reads it.
type timeoutValue time.Duration

func (t *timeoutValue) String() string { return time.Duration(*t).String() }
func (t *timeoutValue) Type() string   { return "duration" }
func (t *timeoutValue) Set(s string) error {
	d, err := herd.ParseTimeout(s)
	if err != nil {
		return err
	}
	*t = timeoutValue(d)
	return nil
}

// distinctValue is --distinct's list of relations.
type distinctValue []string

func (d *distinctValue) String() string { return strings.Join(*d, ",") }
func (d *distinctValue) Type() string   { return "relations" }
func (d *distinctValue) Set(s string) error {
	rels, err := mcm.ParseDistinct(s)
	if err != nil {
		return err
	}
	*d = rels
	return nil
}

// parseFlags parses args into o, reading the configuration files of
// -conf under the command line's flags, and returns the positional
// arguments.
func parseFlags(fs *pflag.FlagSet, o *options, args []string) ([]string, error) {
	if err := fs.Parse(herdSpellings(fs, args)); err != nil {
		return nil, err
	}
	if len(o.ignoredPictures) > 0 {
		fmt.Fprintf(fs.Output(), "purr: note: ignoring what only changes pictures of executions (-%s)\n", strings.Join(o.ignoredPictures, ", -"))
	}
	// A .cfg line does not change what the command line set.
	fromCommandLine := map[string]bool{}
	fs.Visit(func(f *pflag.Flag) { fromCommandLine[f.Name] = true })
	cfg := &o.cfg
	if err := cfg.ReadConf(o.conf, func(key string) bool { return fromCommandLine[key] }, fs.Output()); err != nil {
		return nil, err
	}
	if err := cfg.CheckThrough(); err != nil {
		return nil, err
	}
	if err := cfg.CheckNameFiles(); err != nil {
		return nil, err
	}
	for _, n := range []struct {
		flag  string
		value int
	}{{"jobs", o.jobs}, {"max-executions", cfg.MaxExecutions}, {"max-sat-vars", cfg.MaxVars}, {"max-sat-clauses", cfg.MaxClauses}} {
		if n.value < 0 {
			return nil, fmt.Errorf("--%s must be at least 0, not %d", n.flag, n.value)
		}
	}
	if fs.Changed("show") && !slices.Contains(outcome.Shows, outcome.Show(o.show)) {
		return nil, fmt.Errorf("-show must be one of %s, not %q", showNames(), o.show)
	}
	if fs.Changed("svg") && !fs.Changed("output") {
		return nil, errors.New("--svg draws into the folder of -o DIR: give -o too")
	}
	switch e := cfg.Engine; e {
	case "", mcm.EngineSAT, mcm.EngineExplicit:
	default:
		return nil, fmt.Errorf("--engine must be %s or %s, not %q", mcm.EngineSAT, mcm.EngineExplicit, e)
	}
	// -doshow and -unshow of a .cfg, unless the command line gave them,
	// where something is drawn or listed (herd7 ignores them otherwise).
	if o.output != "" || o.listing || o.json {
		if !fs.Changed("doshow") && cfg.DoShow != nil {
			o.doshow = cfg.DoShow
		}
		if !fs.Changed("unshow") && cfg.UnShow != nil {
			o.unshow = cfg.UnShow
		}
	}
	cfg.Show, cfg.Capture = o.selection(), o.doshow
	return fs.Args(), nil
}

// onlyFlags refuses the flags set on fs other than those named: a command
// that ignores a flag must not seem to obey it.
func onlyFlags(fs *pflag.FlagSet, names ...string) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err == nil && !slices.Contains(names, f.Name) {
			err = fmt.Errorf("--%s does not apply to this command", f.Name)
		}
	})
	return err
}

// unrollFlag is --unroll: a number of iterations, or none.
type unrollFlag int

func (f *unrollFlag) String() string {
	if int(*f) == mcm.Unbounded {
		return "none"
	}
	return strconv.Itoa(int(*f))
}

func (f *unrollFlag) Set(s string) error {
	n, err := herd.ParseUnroll(s)
	if err != nil {
		return err
	}
	*f = unrollFlag(n)
	return nil
}

func (f *unrollFlag) Type() string { return "N|none" }
