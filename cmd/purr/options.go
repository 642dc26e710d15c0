package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/purr-mcm/purr/litmus/c"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"
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
// name.
type options struct {
	model      string
	includes   []string
	variants   []string
	unroll     int
	timeout    time.Duration
	speedcheck bool
	hexa       bool
	cpuprofile string
	memprofile string
	svg        bool // with -o, also draw executions as DIR/NAME.svg

	maxExecutions int
	engine        string
	checkModels   bool
	maxVars       int
	maxClauses    int
	distinct      []string // nil: count as herd7 does
	worker        bool     // serve tests to a parent purr (see worker.go)

	// herd7's configuration (see herdconf.go).
	conf       []string
	bell       string
	macros     string
	macroFile  *c.Macros // the macros of --macros, once read
	skipChecks []string
	through    string
	nameFiles  []string // herd7's -names: files of the names of the tests to run
	oknames    []string // herd7's -oknames: the names of the tests to run
	nonames    []string // herd7's -nonames: the names of the tests to skip
	exclFiles  []string // herd7's -excl: files of the names of the tests to skip

	show           string   // herd7's -show: the executions to draw or print
	output         string   // herd7's -o: where to write DIR/NAME.dot
	doshow, unshow []string // relations to draw besides, or not, the default ones
	json           bool     // print JSON Lines instead of herd7's blocks
	listing        bool     // purr executions: print the executions as text
	jobs           int      // worker processes; 0: defaultJobs
	shard          shard
}

func newFlagSet(name string, out io.Writer, o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(out)
	fs.SortFlags = false
	fs.StringVarP(&o.model, "model", "m", "", "Cat model: a file, or the name of an embedded model (sc, tso, pso, ...); default: the architecture's, as herd7 chooses it, except for C tests: purr's rc11 where herd7 7.57 runs c11_partialSC.cat (give -m to compare)")
	fs.StringArrayVarP(&o.includes, "include", "I", nil, "add `DIR` to the Cat include path (repeatable)")
	fs.StringSliceVar(&o.variants, "variant", nil, "enable model variants `a,b,...`")
	fs.IntVar(&o.unroll, "unroll", 2, "unroll loops `N` times")
	fs.StringVar(&o.show, "show", "", "select the executions to draw (-o) or print (--json, purr executions): all, prop, neg, cond, wit or none, as herd7's -show")
	fs.StringVarP(&o.output, "output", "o", "", "write each test's selected executions as Graphviz DOT into `DIR`/NAME.dot, one digraph each")
	fs.StringSliceVar(&o.doshow, "doshow", nil, "also draw (or list) the relations or sets `r,s,...` (the model's, or predefined ones such as addr, data, ctrl, rmw)")
	fs.StringSliceVar(&o.unshow, "unshow", nil, "do not draw (or list) the relations `r,s,...`")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per test (JSON Lines) instead of herd7's result block")
	fs.BoolVar(&o.svg, "svg", false, "with -o DIR, also draw each test's executions as DIR/NAME.svg (no Graphviz needed)")
	fs.Var((*timeoutValue)(&o.timeout), "timeout", "give up on a test after this `duration` (10s, 1m, or seconds as herd7 takes them: 10.0; 0 or none: never)")
	fs.BoolVar(&o.speedcheck, "speedcheck", false, "stop at the first execution that decides the condition")
	fs.BoolVar(&o.hexa, "hexa", false, "print values in hexadecimal")
	fs.IntVar(&o.maxExecutions, "max-executions", 0, "stop enumerating a test after `N` executions, reporting its counts as incomplete (0: all)")
	fs.StringVar(&o.engine, "engine", "", "decide with `ENGINE`: sat (the default) or explicit (herd7's enumeration of candidate executions, for tiny tests and cross-checks)")
	fs.BoolVar(&o.checkModels, "check-models", false, "re-check every execution the SAT engine accepts by evaluating the model on it concretely (slow; for purr's developers)")
	fs.IntVar(&o.maxVars, "max-sat-vars", mcm.DefaultMaxVars, "refuse a test whose formula needs more than `N` SAT variables (0: no bound)")
	fs.IntVar(&o.maxClauses, "max-sat-clauses", mcm.DefaultMaxClauses, "refuse a test whose formula needs more than `N` SAT clauses (0: no bound)")
	fs.Var((*distinctValue)(&o.distinct), "distinct", "count executions up to the relations `REL,...` (rf, co): executions that differ only in others are one (default: herd7's counting, paths, rf and co)")
	fs.IntVarP(&o.jobs, "jobs", "j", 0, "check `N` tests at a time, in worker processes (0: one per CPU); the output is the same as with -j 1, in the order of the tests")
	fs.Var(&o.shard, "shard", "check only block `I/N` of the tests: the I-th of N equal contiguous blocks, counting from 0 (for job arrays: concatenate the outputs of 0/N to N-1/N)")
	fs.BoolVar(&o.worker, workerFlag, false, "check the tests named on standard input for a parent purr")
	fs.MarkHidden(workerFlag)
	fs.StringArrayVar(&o.conf, "conf", nil, "read herd7's configuration `FILE.cfg` (model, bell, macros, variant, ...; the command line wins; repeatable, in order)")
	fs.StringVar(&o.bell, "bell", "", "run the bell `FILE` before the model")
	fs.StringVar(&o.macros, "macros", "", "expand herd7's C macros of `FILE.def` in C tests (the Linux kernel's primitives: linux-kernel.def)")
	fs.StringSliceVar(&o.skipChecks, "skipchecks", nil, "leave out the model's checks `name,...`")
	fs.StringVar(&o.through, "through", "none", "herd7's -through: only none is supported")
	fs.StringArrayVar(&o.nameFiles, "names", nil, "check only the tests named in `FILE` (a name a line, up to its first space, as a kinds file has them; repeatable), as herd7's -names")
	fs.StringSliceVar(&o.oknames, "oknames", nil, "check only the tests named `name,...` (the names of their first lines), as herd7's -oknames")
	fs.StringSliceVar(&o.nonames, "nonames", nil, "skip the tests named `name,...`, as herd7's -nonames")
	fs.StringArrayVar(&o.exclFiles, "excl", nil, "skip the tests named in `FILE` (as -names reads it; repeatable), as herd7's -excl")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for purr's developers)")
	fs.MarkHidden("cpuprofile")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a profile of the run's allocations to `FILE` at its end (for purr's developers)")
	fs.MarkHidden("memprofile")
	return fs
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
		// herd7 spells a boolean with its value: -speedcheck true|false|fast.
		if a == "--speedcheck" && i+1 < len(args) && slices.Contains([]string{"true", "false", "fast"}, args[i+1]) {
			skip = true
			a += "=" + speedcheckValue(args[i+1])
		}
		out = append(out, a)
	}
	return out
}

// timeoutValue accepts a Go duration ("1s", "2m") or, as herd7 does, a
// plain number of seconds ("10", "0.5").
type timeoutValue time.Duration

func (t *timeoutValue) String() string { return time.Duration(*t).String() }
func (t *timeoutValue) Type() string   { return "duration" }
func (t *timeoutValue) Set(s string) error {
	if s == "none" { // herd7's spelling of no timeout
		*t = 0
		return nil
	}
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs < 0 {
			return fmt.Errorf("negative timeout %q", s)
		}
		*t = timeoutValue(time.Duration(secs * float64(time.Second)))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not a duration (10s, 1m) or a number of seconds", s)
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

// parseFlags parses args into o and returns the positional arguments.
func parseFlags(fs *pflag.FlagSet, args []string) ([]string, error) {
	if err := fs.Parse(herdSpellings(fs, args)); err != nil {
		return nil, err
	}
	if err := applyConf(fs); err != nil {
		return nil, err
	}
	if err := checkThrough(fs); err != nil {
		return nil, err
	}
	for _, flag := range []string{"names", "excl"} {
		if fs.Lookup(flag) == nil {
			continue
		}
		files, _ := fs.GetStringArray(flag)
		for _, f := range files {
			if _, err := readNamesFile(f); err != nil {
				return nil, fmt.Errorf("-%s %s: %v", flag, f, err)
			}
		}
	}
	for _, name := range []string{"unroll", "jobs", "max-executions", "max-sat-vars", "max-sat-clauses"} {
		if o := fs.Lookup(name); o != nil && o.Changed {
			if n, _ := fs.GetInt(name); n < 0 {
				return nil, fmt.Errorf("--%s must be at least 0, not %d", name, n)
			}
		}
	}
	if o := fs.Lookup("show"); o != nil && o.Changed {
		if s := o.Value.String(); !slices.Contains(outcome.Shows, outcome.Show(s)) {
			return nil, fmt.Errorf("-show must be one of %s, not %q", showNames(), s)
		}
	}
	if o := fs.Lookup("svg"); o != nil && o.Changed && !fs.Lookup("output").Changed {
		return nil, errors.New("--svg draws into the folder of -o DIR: give -o too")
	}
	if o := fs.Lookup("engine"); o != nil {
		switch e := o.Value.String(); e {
		case "", mcm.EngineSAT, mcm.EngineExplicit:
		default:
			return nil, fmt.Errorf("--engine must be %s or %s, not %q", mcm.EngineSAT, mcm.EngineExplicit, e)
		}
	}
	return fs.Args(), nil
}

// selects reports whether the test of that name is among those -names'
// files and -oknames list, when they are given, and neither among -excl's
// files nor -nonames' list, as herd7 chooses (lib/checkName.ml).
// in the batch.
func (o *options) selects(name string) bool {
	if slices.Contains(o.nonames, name) || inNamesFiles(o.exclFiles, name) {
		return false
	}
	if len(o.oknames) == 0 && len(o.nameFiles) == 0 {
		return true
	}
	return slices.Contains(o.oknames, name) || inNamesFiles(o.nameFiles, name)
}

// namesFiles holds the files of names -names and -excl read, each once.
var namesFiles = struct {
	sync.Mutex
	read map[string]map[string]bool
}{read: map[string]map[string]bool{}}

// readNamesFile reads a file of test names as herd7 does
// (lib/readNames.ml): on each line, the name is what comes before the
// first space, so that a kinds file (NAME KIND) is one too.
func readNamesFile(path string) (map[string]bool, error) {
	namesFiles.Lock()
	defer namesFiles.Unlock()
	if names, ok := namesFiles.read[path]; ok {
		return names, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, errors.Unwrap(err)
	}
	names := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(src), "\n"), "\n") {
		name, _, _ := strings.Cut(line, " ")
		names[name] = true
	}
	namesFiles.read[path] = names
	return names, nil
}

// inNamesFiles reports whether one of the files names the test (parseFlags
// has read them all).
func inNamesFiles(files []string, name string) bool {
	for _, f := range files {
		if names, err := readNamesFile(f); err == nil && names[name] {
			return true
		}
	}
	return false
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
