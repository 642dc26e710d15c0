package mcm

import (
	"fmt"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// The relations Options.Distinct may name: those that, with the paths the
// threads take, make up a candidate execution.
var distinctRelations = map[string]bool{"rf": true, "co": true}

// ParseDistinct reads the value of --distinct: relation names separated by
// commas, each of distinctRelations at most once.
func ParseDistinct(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if !distinctRelations[name] {
			return nil, fmt.Errorf("--distinct: %q is not a relation executions can be told apart by (rf, co)", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("--distinct: %s is named twice", name)
		}
		seen[name] = true
		out = append(out, name)
	}
	return out, nil
}

// checkDistinct refuses a test whose final state may differ between
// executions that opt.Distinct counts as one. A register's final value
// follows from the paths and rf (values flow along rf from the initial
// state); a memory location's from rf and co (it is its co-last write's).
// The condition, the filter and the locations listed must be determined;
// otherwise Positive, Negative and the states of a class would depend on
// which of its executions the engine met first.
func checkDistinct(t *litmus.Test, distinct []string) error {
	if distinct == nil {
		return nil
	}
	has := map[string]bool{}
	for _, d := range distinct {
		if !distinctRelations[d] {
			return fmt.Errorf("distinct: %q is not a relation executions can be told apart by (rf, co)", d)
		}
		has[d] = true
	}
	all := *t
	if t.Filter != nil {
		all.Cond = litmus.And{X: t.Cond, Y: t.Filter}
	}
	for _, loc := range events.ObservedLocations(&all) {
		need := []string{"rf"}
		if loc.Kind != litmus.RegLoc {
			need = append(need, "co")
		}
		for _, n := range need {
			if !has[n] {
				return fmt.Errorf("%s: --distinct %s: the final value of %s depends on %s, which executions counted as one may differ in; add %s to --distinct or leave %s out of the condition, filter and locations",
					t.File, strings.Join(distinct, ","), loc, n, n, loc)
			}
		}
	}
	return nil
}
