package herd

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
	"github.com/purr-mcm/purr/source"
)

// Config is everything a run is configured by: herd7's options, named as
// herd7 names them, and purr's own bounds on the engines. The zero Config
// is not a run's: start from Default.
type Config struct {
	Model      string   // -model: a file, or an embedded model's name; "": the architecture's default
	Includes   []string // -I: the include path, in order
	Variants   []string // -variant: the model's variants (and herd7's, which are refused)
	Bell       string   // -bell: a file run before the model
	Macros     string   // -macros: herd7's C macros (a .def file)
	SkipChecks []string // -skipchecks: the model's checks left out
	Through    string   // -through: none, invalid or all
	Names      []string // -names: files of the names of the tests to check
	OKNames    []string // -oknames: the names of the tests to check
	NoNames    []string // -nonames: the names of the tests to skip
	Excl       []string // -excl: files of the names of the tests to skip
	Speedcheck bool     // -speedcheck: stop once the condition is decided
	Unroll     int      // -unroll: loops are unrolled that many times; mcm.Unbounded for none
	Timeout    time.Duration
	Hexa       bool // -hexa: values in hexadecimal

	// Show selects the executions an Outcome keeps (herd7's -show, as the
	// command that prints or draws them resolves it); Capture names
	// relations and sets to keep besides the model's shown ones.
	Show    outcome.Show
	Capture []string

	// Picture holds herd7's options that change the pictures of
	// executions; DoShow and UnShow name the relations drawn besides, or
	// not, the default ones (-doshow, -unshow).
	Picture        show.Picture
	DoShow, UnShow []string

	// purr's own bounds and engines.
	Engine        string // mcm.EngineSAT (""), mcm.EngineExplicit
	MaxExecutions int
	CheckModels   bool
	MaxVars       int
	MaxClauses    int
	Distinct      []string // nil: count as herd7 does

	// Lines holds, for each key a configuration file set, the line that
	// set it last.
	Lines map[string]source.Pos
}

// Default returns the configuration of a run given no option: herd7's
// (loops unrolled twice, -through none) and purr's bounds on formulas.
func Default() Config {
	return Config{Unroll: 2, Through: "none", MaxVars: mcm.DefaultMaxVars, MaxClauses: mcm.DefaultMaxClauses}
}

// ParseTimeout reads a timeout as herd7 does: a number of seconds ("10",
// "0.5") or none; a Go duration ("1s", "2m") too.
func ParseTimeout(s string) (time.Duration, error) {
	if s == "none" { // herd7's spelling of no timeout
		return 0, nil
	}
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs < 0 {
			return 0, fmt.Errorf("negative timeout %q", s)
		}
		return time.Duration(secs * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration (10s, 1m) or a number of seconds", s)
	}
	return d, nil
}

// SpeedcheckValue maps herd7's -speedcheck values (true, false, fast) onto
// a boolean's: fast, like true, stops once the condition is decided.
func SpeedcheckValue(v string) string {
	if v == "fast" {
		return "true"
	}
	return v
}

// CheckThrough accepts herd7's -through: none (the default), invalid or
// all, which let the executions the model's checks forbid through.
func (c *Config) CheckThrough() error {
	switch c.Through {
	case "", "none", "invalid", "all":
		return nil
	}
	return fmt.Errorf("-through must be none, invalid or all, not %q", c.Through)
}

// CheckVariants refuses herd7's semantic variants among -variant's (those
// of a .cfg file are refused where it is read, at their line).
func (c *Config) CheckVariants() error {
	for _, v := range c.Variants {
		if err := checkVariant(v); err != nil {
			return fmt.Errorf("-%w", err)
		}
	}
	return nil
}

// CheckNameFiles reads the files of -names and -excl, reporting the first
// that cannot be read.
func (c *Config) CheckNameFiles() error {
	for _, list := range []struct {
		flag  string
		files []string
	}{{"names", c.Names}, {"excl", c.Excl}} {
		for _, f := range list.files {
			if _, err := readNamesFile(f); err != nil {
				return fmt.Errorf("-%s %s: %v", list.flag, f, errors.Unwrap(err))
			}
		}
	}
	return nil
}

// ParseUnroll reads an unrolling bound: a number of iterations, or none
// (mcm.Unbounded: loops without a bound, a purr extension).
func ParseUnroll(s string) (int, error) {
	if s == "none" {
		return mcm.Unbounded, nil
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("must be a number of iterations (at least 0) or none, not %s", s)
	}
	return int(n), nil
}
