package mcm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// manyWriters is a test of threads that each write distinct values to x
// writes times: without axioms, every interleaving of the writes is an
// execution, (threads·writes)! of them.
func manyWriters(threads, writes int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "AArch64 W%dx%d\n{", threads, writes)
	for i := 0; i < threads; i++ {
		fmt.Fprintf(&b, " %d:X1=x;", i)
	}
	b.WriteString(" }\n")
	row := func(cell func(i int) string) {
		for i := 0; i < threads; i++ {
			if i > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprintf(&b, "%-12s", cell(i))
		}
		b.WriteString(" ;\n")
	}
	row(func(i int) string { return fmt.Sprintf("P%d", i) })
	for w := 0; w < writes; w++ {
		row(func(i int) string { return fmt.Sprintf("MOV W0,#%d", i*writes+w+1) })
		row(func(int) string { return "STR W0,[X1]" })
	}
	b.WriteString("exists (x=1)\n")
	return b.String()
}

// TestLimits checks that a check stops at a deadline, at the maximum
// number of executions, or at a bound of the formula, saying which.
func TestLimits(t *testing.T) {
	// No axiom but one on co (always met), so that executions are told
	// apart by co (herd7 builds no co for a model that never reads it).
	empty := inlineModel(t, `"no axioms"`+"\nacyclic co\n")
	for _, c := range []struct {
		name         string
		timeout      time.Duration // 0: none
		src          string
		opt          Options
		deadline     bool   // the error wraps context.DeadlineExceeded
		limit        string // the error is a *LimitError on this
		executions   int    // else: the executions enumerated
		wantComplete bool
	}{
		{name: "expired deadline", timeout: -time.Second, src: sb, deadline: true},
		// 12! executions: the deadline stops the enumeration.
		{name: "deadline in the enumeration", timeout: 100 * time.Millisecond, src: manyWriters(12, 1), deadline: true},
		{name: "max executions", src: manyWriters(4, 1), opt: Options{MaxExecutions: 5}, executions: 5},
		{name: "max executions reached exactly", src: manyWriters(4, 1), opt: Options{MaxExecutions: 24},
			executions: 24, wantComplete: true},
		{name: "all executions", src: manyWriters(4, 1), executions: 24, wantComplete: true},
		{name: "clause bound", src: sb, opt: Options{MaxClauses: 10}, limit: "clauses"},
		{name: "variable bound", src: sb, opt: Options{MaxVars: 10}, limit: "variables"},
		// 1600 writes to x: 2.56 million co pairs, past the default bound.
		{name: "default bound", src: manyWriters(40, 40), opt: Options{MaxVars: DefaultMaxVars, MaxClauses: DefaultMaxClauses},
			limit: "variables"},
		{name: "no bound", src: sb, executions: 4, wantComplete: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if c.timeout != 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, c.timeout)
				defer cancel()
			}
			c.opt.Unroll = 2
			out, err := CheckContext(ctx, empty, inlineTest(t, c.src), c.opt)
			var limit *LimitError
			switch {
			case c.deadline:
				if !errors.Is(err, context.DeadlineExceeded) || out != nil {
					t.Fatalf("got %v, %v; want a deadline error and no outcome", out, err)
				}
			case c.limit != "":
				if !errors.As(err, &limit) || limit.What != c.limit || out != nil {
					t.Fatalf("got %v, %v; want a refusal on %s", out, err, c.limit)
				}
				if msg := err.Error(); !strings.Contains(msg, "refused") || !strings.Contains(msg, fmt.Sprint(limit.Limit)) {
					t.Errorf("message %q does not name the refusal and its bound", msg)
				}
			case err != nil:
				t.Fatal(err)
			default:
				if n := out.Positive + out.Negative; n != c.executions || out.Complete != c.wantComplete {
					t.Errorf("%d executions, complete %v; want %d, %v", n, out.Complete, c.executions, c.wantComplete)
				}
			}
		})
	}
}
