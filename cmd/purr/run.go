package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"unicode"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/models"
)

// cmdRun checks tests against a model and prints herd7's result blocks.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	var o options
	flags := newFlagSet("purr", stderr, &o)
	files, err := parseFlags(flags, args)
	if err == nil {
		err = checkHerdVariants(o.variants)
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr:", err)
		return 2
	}
	if err := o.loadMacros(); err != nil {
		printErr(stderr, err)
		return 1
	}
	if err := o.checkShowFlags(); err != nil {
		fmt.Fprintln(stderr, "purr:", err)
		return 2
	}
	if o.worker {
		return serveTests(&o, os.Stdin, stdout)
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
	r := newRunner(&o)
	jobs := cmp.Or(o.jobs, defaultJobs())
	if o.timeout > 0 || (jobs > 1 && len(files) > 1) {
		// The workers start on the tests while purr loads the models
		// (reading every test's first line): their results wait for it.
		loaded := make(chan error, 1)
		go func() { loaded <- r.loadModels(files) }()
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
	if err := r.loadModels(files); err != nil {
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

// cmdExecutions lists the executions of tests as text (or JSON).
func cmdExecutions(args []string, stdout, stderr io.Writer) int {
	o := options{listing: true}
	flags := newFlagSet("purr executions", stderr, &o)
	files, err := parseFlags(flags, args)
	if err == nil {
		err = onlyFlags(flags, "model", "include", "variant", "macros", "unroll", "show", "doshow", "unshow", "json",
			"engine", "max-executions", "max-sat-vars", "max-sat-clauses", "distinct")
	}
	if err == nil {
		err = checkHerdVariants(o.variants)
	}
	if err != nil {
		fmt.Fprintln(stderr, "purr executions:", err)
		return 2
	}
	if files, err = expandIndexes(files); err != nil {
		fmt.Fprintln(stderr, "purr executions:", err)
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "purr executions: no test (usage: purr executions [flags] TEST.litmus...)")
		return 2
	}
	r := newRunner(&o)
	if err := r.loadModels(files); err != nil {
		printErr(stderr, err)
		return 1
	}
	status := 0
	for _, f := range files {
		st := r.check(context.Background(), f, stdout, stderr)
		status = max(status, st.exitStatus())
		if st == fatal {
			break
		}
	}
	return status
}

// loadModels loads the model of every architecture of the tests in files:
// -m's, or the default model of each architecture the tests' header lines
// name ("AArch64 MP": the first word). A test that cannot be read is left
// to fail when it is checked.
func (r *runner) loadModels(files []string) error {
	if r.o.model != "" {
		_, err := r.model("")
		return err
	}
	seen := map[string]bool{}
	head := make([]byte, 256)
	for _, f := range files {
		arch, ok := headerArch(f, head)
		if !ok || seen[arch] {
			continue
		}
		seen[arch] = true
		if _, ok := defaultModel(arch); !ok {
			continue
		}
		if _, err := r.model(arch); err != nil {
			return err
		}
	}
	return nil
}

// headerArch reads the architecture of a litmus test: the first word of
// the file (of its first len(head) bytes, read into head).
func headerArch(path string, head []byte) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	n, _ := io.ReadFull(f, head)
	word := bytes.TrimLeftFunc(head[:n], unicode.IsSpace)
	if end := bytes.IndexFunc(word, unicode.IsSpace); end >= 0 {
		word = word[:end]
	}
	if len(word) == 0 {
		return "", false
	}
	return string(word), true
}

// defaultModel names an architecture's model when -m is not given.
func defaultModel(arch string) (string, bool) {
	d, ok := litmus.LookupDialect(arch)
	return d.Model, ok && d.Model != ""
}

// loadModel loads -m: a file if one exists at that path, else a file of
// that name on the include path or among the embedded models (with or
// without .cat).
func (o *options) loadModel(arch string) (*cat.Model, error) {
	name := o.model
	if name == "" {
		def, ok := defaultModel(arch)
		if !ok {
			return nil, fmt.Errorf("purr: no default model for %s tests yet; choose one with -m (sc, tso, pso, or a .cat file)", arch)
		}
		name = def
	}
	if err := checkHerdStdlib(o.includes); err != nil {
		return nil, err
	}
	l, err := o.loader()
	if err != nil {
		return nil, err
	}
	bell, err := o.loadBell(l)
	if err != nil {
		return nil, err
	}
	if fileExists(name) {
		m, err := l.LoadFile(name)
		return withBell(bell, m), err
	}
	if !strings.HasSuffix(name, ".cat") {
		name += ".cat"
	}
	dirs := o.includes
	if o.model == "" {
		// herd7 looks for its default model in the current folder first.
		dirs = append([]string{"."}, dirs...)
	}
	for _, dir := range dirs {
		if p := filepath.Join(dir, name); fileExists(p) {
			m, err := l.LoadFile(p)
			return withBell(bell, m), err
		}
	}
	if o.model == "" {
		if err := checkHerdDefaultIncludes(arch, o.includes); err != nil {
			return nil, err
		}
	}
	if src, err := fs.ReadFile(models.FS, name); err == nil {
		m, err := l.LoadSource(name, src)
		return withBell(bell, m), err
	}
	return nil, fmt.Errorf("purr: model %s: no such file, on the include path or among the embedded models (%s)", o.model, embeddedModels())
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// embeddedModel reports whether purr ships a model of that name (with or
// without .cat).
func embeddedModel(name string) bool {
	if !strings.HasSuffix(name, ".cat") {
		name += ".cat"
	}
	_, err := fs.Stat(models.FS, name)
	return err == nil
}

// embeddedModels lists the models purr ships, by name.
func embeddedModels() string {
	names, _ := fs.Glob(models.FS, "*.cat")
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, ".cat")
	}
	return strings.Join(names, ", ")
}
