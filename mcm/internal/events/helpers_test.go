package events_test

import (
	"context"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
)

// unfoldSource parses a litmus test and unfolds its program from its
// initial state.
func unfoldSource(t *testing.T, src string, opt events.UnfoldOptions) *events.Unfolding {
	t.Helper()
	test, err := litmus.Parse("T.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, regs, mem, err := events.InitialState(test)
	if err != nil {
		t.Fatal(err)
	}
	u, err := events.UnfoldWith(context.Background(), test.Program, opt, regs, mem)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
