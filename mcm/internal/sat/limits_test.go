package sat

import (
	"context"
	"errors"
	"testing"
)

// build runs f on a solver under limits and returns what Catch made of
// its abort.
func build(limits Limits, f func(s *Solver)) (err error) {
	defer Catch(&err)
	s := New()
	s.SetLimits(limits)
	f(s)
	return nil
}

func TestLimits(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	chain := func(n int) func(s *Solver) {
		return func(s *Solver) {
			prev := s.NewVar()
			for i := 0; i < n; i++ {
				next := s.NewVar()
				s.AddClause(prev.Not(), next)
				prev = next
			}
			s.Solve()
		}
	}
	for _, c := range []struct {
		name   string
		limits Limits
		f      func(s *Solver)
		want   error  // errors.Is
		what   string // else a *LimitError on this, or nothing when ""
	}{
		{name: "within bounds", limits: Limits{MaxVars: 100, MaxClauses: 100}, f: chain(50)},
		{name: "variables", limits: Limits{MaxVars: 100}, f: chain(200), what: "variables"},
		{name: "clauses", limits: Limits{MaxClauses: 100}, f: chain(200), what: "clauses"},
		{name: "cancelled before the solve", limits: Limits{Context: cancelled}, f: chain(10), want: context.Canceled},
		{name: "cancelled while building", limits: Limits{Context: cancelled}, f: func(s *Solver) {
			for {
				s.NewVar() // never ends but by the context
			}
		}, want: context.Canceled},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := build(c.limits, c.f)
			var limit *LimitError
			switch {
			case c.want != nil:
				if !errors.Is(err, c.want) {
					t.Errorf("got %v, want %v", err, c.want)
				}
			case c.what != "":
				if !errors.As(err, &limit) || limit.What != c.what {
					t.Errorf("got %v, want a bound on %s", err, c.what)
				}
			case err != nil:
				t.Errorf("unexpected %v", err)
			}
		})
	}
}

// TestCatchPassesOtherPanics checks that Catch only stops the Solver's own
// aborts.
func TestCatchPassesOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "other" {
			t.Errorf("recovered %v, want the other panic", r)
		}
	}()
	var err error
	func() {
		defer Catch(&err)
		panic("other")
	}()
	t.Error("the panic was swallowed")
}
