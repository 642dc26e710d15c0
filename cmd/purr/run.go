package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/pflag"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// cmdRun checks tests against a model and prints herd7's result blocks.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	var o options
	flags := newFlagSet("purr", stderr, &o)
	files, err := parseFlags(flags, &o, args)
	if err == nil {
		err = o.cfg.CheckVariants()
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr:", err)
		return 2
	}
	r := newRunner(&o)
	if err := r.checker.LoadMacros(); err != nil {
		printErr(stderr, err)
		return 1
	}
	if err := o.checkShowFlags(); err != nil {
		fmt.Fprintln(stderr, "purr:", err)
		return 2
	}
	if o.worker {
		return serveTests(r, os.Stdin, stdout)
	}
	if files, err = expandIndexes(files); err != nil {
		fmt.Fprintln(stderr, "purr:", err)
		return 2
	}
	if len(files) == 0 {
		usage(stderr)
		return 2
	}
	if files = o.shard.of(files); len(files) == 0 {
		return 0 // more shards than tests: this one has none
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			fmt.Fprintln(stderr, "purr:", err)
			return 2
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if o.memprofile != "" {
		f, err := os.Create(o.memprofile)
		if err != nil {
			fmt.Fprintln(stderr, "purr:", err)
			return 2
		}
		defer f.Close()
		if runtime.MemProfileRate == 512<<10 { // the default: GODEBUG=memprofilerate=1 records every allocation
			runtime.MemProfileRate = 64 << 10 // a finer sample: tests allocate little each
		}
		defer pprof.Lookup("allocs").WriteTo(f, 0)
	}
	// A broken model is reported once, before any test runs.
	jobs := cmp.Or(o.jobs, defaultJobs())
	if o.cfg.Timeout > 0 || (jobs > 1 && len(files) > 1) {
		// The workers start on the tests while purr loads the models
		// (reading every test's first line): their results wait for it.
		loaded := make(chan error, 1)
		go func() { loaded <- r.checker.LoadModels(files) }()
		var bar *progress
		defer func() { bar.stop() }()
		return runWorkers(&o, args, files, jobs, stdout, func() (io.Writer, func(), bool) {
			if err := <-loaded; err != nil {
				printErr(stderr, err)
				return nil, nil, false
			}
			bar = startProgress(stderr, len(files))
			return bar.stderr(stderr), bar.tick, true
		})
	}
	if err := r.checker.LoadModels(files); err != nil {
		printErr(stderr, err)
		return 1
	}
	bar := startProgress(stderr, len(files))
	defer bar.stop()
	stderr = bar.stderr(stderr)
	status := 0
	for _, f := range files {
		st := r.check(context.Background(), f, stdout, stderr)
		bar.tick()
		status = max(status, st.exitStatus())
		if st == fatal {
			break
		}
	}
	return status
}

// checkShowFlags refuses -show, -o, --doshow and --unshow where they
// would do nothing: each must serve a drawing or a printout.
func (o *options) checkShowFlags() error {
	switch {
	case o.output != "" && (o.show == "" || o.show == string(outcome.ShowNone)):
		return fmt.Errorf("-o %s draws the executions -show selects: add -show all, prop, neg, cond or wit", o.output)
	case o.show != "" && o.output == "" && !o.json:
		return fmt.Errorf("-show selects the executions to draw (-o DIR) or print (--json, or the command purr executions)")
	case (len(o.doshow) > 0 || len(o.unshow) > 0) && o.output == "":
		return fmt.Errorf("--doshow and --unshow choose what -o DIR draws (or purr executions lists)")
	}
	if o.output != "" {
		// A folder that does not exist yet is made, as a first run needs.
		if err := os.MkdirAll(o.output, 0o755); err != nil {
			if fi, serr := os.Stat(o.output); serr == nil && !fi.IsDir() {
				return fmt.Errorf("-o %s: not a folder", o.output)
			}
			return fmt.Errorf("-o %s: %v", o.output, err)
		}
	}
	return nil
}

// setUp reads the flags and tests of a command that checks tests one by
// one (executions, why): it refuses the flags the command does not take
// (allowed names those it does) and what check refuses, and loads the
// tests' models. A nil runner means stop, with the exit status.
func setUp(flags *pflag.FlagSet, o *options, args []string, stderr io.Writer, usage string, check func() error,
	allowed ...string) ([]string, *runner, int) {
	name := flags.Name()
	files, err := parseFlags(flags, o, args)
	if err == nil {
		err = onlyFlags(flags, allowed...)
	}
	if err == nil {
		err = o.cfg.CheckVariants()
	}
	if err == nil && check != nil {
		err = check()
	}
	if err == nil {
		files, err = expandIndexes(files)
	}
	if err != nil {
		fmt.Fprintln(stderr, name+":", err)
		return nil, nil, 2
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "%s: no test (usage: %s)\n", name, usage)
		return nil, nil, 2
	}
	r := newRunner(o)
	if err := r.checker.LoadModels(files); err != nil {
		printErr(stderr, err)
		return nil, nil, 1
	}
	return files, r, 0
}

// cmdExecutions lists the executions of tests as text (or JSON).
func cmdExecutions(args []string, stdout, stderr io.Writer) int {
	o := options{listing: true}
	flags := newFlagSet("purr executions", stderr, &o)
	files, r, status := setUp(flags, &o, args, stderr, "purr executions [flags] TEST.litmus...", nil,
		"model", "include", "variant", "macros", "unroll", "show", "doshow", "unshow", "json",
		"engine", "max-executions", "max-sat-vars", "max-sat-clauses", "distinct", "conf", "bell", "skipchecks", "through")
	if r == nil {
		return status
	}
	for _, f := range files {
		st := r.check(context.Background(), f, stdout, stderr)
		status = max(status, st.exitStatus())
		if st == fatal {
			break
		}
	}
	return status
}
