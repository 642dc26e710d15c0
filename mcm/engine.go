package mcm

import (
	"fmt"

	"github.com/purr-mcm/purr/mcm/events"
	"github.com/purr-mcm/purr/mcm/explicit"
)

// The engines Options.Engine names.
const (
	EngineSAT      = "sat"
	EngineExplicit = "explicit"
	EngineAuto     = "auto"
)

// autoExplicitLimit is the largest estimated number of candidate
// executions for which "auto" picks the explicit engine. BenchmarkEngines
// (explicit_test.go) finds the explicit engine slower on every classic
// test, even on CoWW's 2 candidates (sc: 0.23 ms against 0.19 ms;
// aarch64: 0.52 ms against 0.32 ms; SB's 4: 0.57/0.28 and 1.24/0.45;
// IRIW's 16: 2.6/0.6 and 5.3/1.0): evaluating the model on one candidate
// costs 0.1–0.3 ms, about what the SAT engine needs for a whole small
// test. So
// "auto" keeps the SAT engine until the evaluator gets cheaper.
const autoExplicitLimit = 0

// useExplicit tells whether the options choose the explicit engine for
// the unfolding (after its value analysis, which the estimate needs).
func useExplicit(opt Options, u *events.Unfolding) (bool, error) {
	switch opt.Engine {
	case "", EngineSAT:
		return false, nil
	case EngineExplicit:
		return true, nil
	case EngineAuto:
		return explicit.Candidates(u) <= autoExplicitLimit, nil
	}
	return false, fmt.Errorf("unknown engine %q (sat, explicit or auto)", opt.Engine)
}
