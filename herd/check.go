package herd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"
	"unicode"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"

	_ "github.com/purr-mcm/purr/litmus/dialects" // every architecture purr reads
)

// A Checker checks tests as herd7 does under one Config, reading the
// macro file once and each architecture's model once. It is for one
// goroutine at a time.
type Checker struct {
	cfg    Config
	macros *c.Macros             // -macros' file, once read
	models map[string]*cat.Model // by architecture; -model's under ""
	names  nameFiles
}

// NewChecker returns a Checker for cfg, which reads nothing until asked.
func NewChecker(cfg Config) *Checker {
	return &Checker{cfg: cfg, models: map[string]*cat.Model{}, names: nameFiles{}}
}

// Config returns the configuration k checks under.
func (k *Checker) Config() *Config { return &k.cfg }

// A Result is a test checked as herd7 checks it.
type Result struct {
	Test *litmus.Test
	// Skipped says that -names, -oknames, -nonames or -excl left the test
	// out: herd7 prints nothing for it, and Outcome is nil.
	Skipped bool
	Outcome *outcome.Outcome
	Elapsed time.Duration // the check's, after reading the test and its model
}

// ModelError is a model that could not be loaded: every test of its
// architecture would fail with it.
type ModelError struct{ Err error }

func (e *ModelError) Error() string { return e.Err.Error() }
func (e *ModelError) Unwrap() error { return e.Err }

// CheckError is an error of the check of a test that was read and whose
// model was loaded: the model's evaluation, an engine's limit, the
// timeout (context.DeadlineExceeded).
type CheckError struct{ Err error }

func (e *CheckError) Error() string { return e.Err.Error() }
func (e *CheckError) Unwrap() error { return e.Err }

// Check reads the test at path as herd7 reads it and checks it under its
// model, within Config.Timeout. An error that is not a *ModelError or a
// *CheckError is the test's own: it could not be read, or a Variant= line
// of it is refused.
func (k *Checker) Check(ctx context.Context, path string) (*Result, error) {
	return k.CheckVisiting(ctx, path, nil)
}

// CheckVisiting is Check that gives the executions Config.Show selects to
// visit, one by one before they are built, instead of keeping them (see
// mcm.Options.Visit), when visit is not nil.
func (k *Checker) CheckVisiting(ctx context.Context, path string, visit func(outcome.Visited) bool) (*Result, error) {
	ctx, cancel := k.withTimeout(ctx)
	defer cancel()
	t, err := k.Read(path)
	if err != nil {
		return nil, err
	}
	if !k.cfg.selects(t.Name, k.names) {
		return &Result{Test: t, Skipped: true}, nil
	}
	m, opt, err := k.prepare(t)
	if err != nil {
		return nil, err
	}
	opt.Visit = visit
	start := time.Now()
	out, err := mcm.CheckContext(ctx, m, t, opt)
	if err != nil {
		return nil, &CheckError{err}
	}
	return &Result{Test: t, Outcome: out, Elapsed: time.Since(start)}, nil
}

// withTimeout bounds ctx by Config.Timeout, if any.
func (k *Checker) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if k.cfg.Timeout > 0 {
		return context.WithTimeout(ctx, k.cfg.Timeout)
	}
	return context.WithCancel(ctx)
}

// prepare finds a test's model and the engine's options for it: the
// run's and the test's variants.
func (k *Checker) prepare(t *litmus.Test) (*cat.Model, mcm.Options, error) {
	variants, err := testVariants(t, k.cfg.Variants)
	if err != nil {
		return nil, mcm.Options{}, err
	}
	m, err := k.Model(t.Arch)
	if err != nil {
		return nil, mcm.Options{}, &ModelError{err}
	}
	cfg := &k.cfg
	return m, mcm.Options{Unroll: cfg.Unroll, Variants: variants, SkipChecks: cfg.SkipChecks, Through: cfg.Through,
		Speedcheck: cfg.Speedcheck, MaxExecutions: cfg.MaxExecutions, Engine: cfg.Engine, CheckModels: cfg.CheckModels,
		MaxVars: cfg.MaxVars, MaxClauses: cfg.MaxClauses, Distinct: cfg.Distinct, Show: cfg.Show, Capture: cfg.Capture}, nil
}

// Why reads the test at path and tells why its model forbids the outcome
// its condition names (mcm.Why), within Config.Timeout: at most maxSets
// minimal sets of checks (0: all). Errors are as Check's.
func (k *Checker) Why(ctx context.Context, path string, maxSets int) (*litmus.Test, *outcome.Why, error) {
	ctx, cancel := k.withTimeout(ctx)
	defer cancel()
	t, err := k.Read(path)
	if err != nil {
		return nil, nil, err
	}
	m, opt, err := k.prepare(t)
	if err != nil {
		return t, nil, err
	}
	w, err := mcm.Why(ctx, m, t, opt, maxSets)
	if err != nil {
		return t, nil, &CheckError{err}
	}
	return t, w, nil
}

// Read parses the test at path as herd7 reads it: with the run's variants
// and -macros' macros (in C tests). A test written for one of herd7's
// semantics purr does not model is refused at its Variant= line.
func (k *Checker) Read(path string) (*litmus.Test, error) {
	if err := k.LoadMacros(); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	opts := litmus.Options{Variants: k.cfg.Variants}
	if k.macros != nil {
		opts.Macros = k.macros
	}
	t, err := litmus.ParseWith(path, src, opts)
	if err != nil {
		// Such a test (Variant=vmsa, ...) rarely parses: say why rather
		// than where.
		if sp, splitErr := litmus.SplitTest(path, src, func(string) bool { return true }); splitErr == nil {
			if _, refused := testVariants(&litmus.Test{Info: sp.Info}, nil); refused != nil {
				return nil, refused
			}
		}
	}
	return t, err
}

// LoadMacros reads the macro file of -macros, once: found as given, else
// on the include path, as herd7 finds it.
func (k *Checker) LoadMacros() error {
	if k.cfg.Macros == "" || k.macros != nil {
		return nil
	}
	path := findOnPath(k.cfg.Macros, k.cfg.Includes)
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("-macros: %v", err)
	}
	k.macros, err = c.ParseMacros(path, src)
	return err
}

// Model returns the model for tests of an architecture, loading it once.
func (k *Checker) Model(arch string) (*cat.Model, error) {
	if k.cfg.Model != "" {
		arch = ""
	}
	if m, ok := k.models[arch]; ok {
		return m, nil
	}
	m, err := k.cfg.loadModel(arch)
	if err != nil {
		return nil, err
	}
	k.models[arch] = m
	return m, nil
}

// LoadModels loads the model of every architecture of the tests at paths:
// -model's, or the default model of each architecture their header lines
// name ("AArch64 MP": the first word), so that a broken model is reported
// before any test. A test that cannot be read is left to fail when it is
// checked. The parsers of the tests' dialects are set up meanwhile, on
// another goroutine (litmus.Warm): one process per test is what herd7's
// users run most.
func (k *Checker) LoadModels(paths []string) error {
	head := make([]byte, 256)
	if k.cfg.Model != "" {
		if len(paths) > 0 {
			if arch, ok := headerArch(paths[0], head); ok {
				go litmus.Warm(arch)
			}
		}
		_, err := k.Model("")
		return err
	}
	seen := map[string]bool{}
	for _, f := range paths {
		arch, ok := headerArch(f, head)
		if !ok || seen[arch] {
			continue
		}
		seen[arch] = true
		if _, ok := defaultModel(arch); !ok {
			continue
		}
		go litmus.Warm(arch)
		if _, err := k.Model(arch); err != nil {
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
