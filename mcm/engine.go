package mcm

import "fmt"

// The engines Options.Engine names. There is no automatic choice:
// BenchmarkEngines (explicit_test.go) finds the explicit engine slower
// from two candidate executions on (CoWW under sc: 0.17 ms against
// 0.16 ms; SB's 4: 0.88/0.35; SB+swps's 36 under aarch64: 6.1/0.68), and
// ahead by at most 0.1 ms on tests of one candidate, which decide nothing.
const (
	EngineSAT      = "sat"
	EngineExplicit = "explicit"
)

// useExplicit tells whether the options choose the explicit engine.
func useExplicit(opt Options) (bool, error) {
	switch opt.Engine {
	case "", EngineSAT:
		return false, nil
	case EngineExplicit:
		return true, nil
	}
	return false, fmt.Errorf("unknown engine %q (sat or explicit)", opt.Engine)
}
