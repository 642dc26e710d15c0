package mcm

import (
	"context"
	"errors"
	"fmt"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/engine"
	"github.com/purr-mcm/purr/mcm/internal/sat"
	"github.com/purr-mcm/purr/mcm/internal/satengine"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// Why tells why the model forbids the outcome the test's condition names
// (its proposition; its negation for a forall): the minimal sets of the
// model's checks whose removal lets an execution show it, smallest first,
// at most maxSets (0: all), each with an execution that fails exactly
// those checks and the witnesses of their failures; or, when the model
// allows the outcome, an execution that shows it. The SAT engine answers;
// Options.Engine, Speedcheck, MaxExecutions, Distinct and Show do not
// apply.
func Why(ctx context.Context, m *cat.Model, t *litmus.Test, opt Options, maxSets int) (w *outcome.Why, err error) {
	defer func() {
		var limit *sat.LimitError
		if errors.As(err, &limit) && err == error(limit) {
			w, err = nil, fmt.Errorf("%s: test refused: %w", t.File, &LimitError{What: limit.What, Limit: limit.Limit})
		}
	}()
	opt.failingChecks = true
	model, u, lay, _, err := prepare(ctx, m, t, opt)
	if err != nil {
		return nil, err
	}
	satModel := model
	satModel.ByConstruction = satengine.WellFormedByConstruction
	return satengine.Why(ctx, satModel, t, u, lay, engine.Options{MaxVars: opt.MaxVars, MaxClauses: opt.MaxClauses,
		Capture: opt.Capture}, maxSets)
}
