package events_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/c"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestSilentRetries checks when a failed test-and-set is a retry: its
// exchange writes back the 1 it read, when the lock only ever holds 0 or
// 1 and nothing else that reads it can go on with a 1.
func TestSilentRetries(t *testing.T) {
	const tas = "\twhile (atomic_exchange_explicit(l, %s, memory_order_acquire) == 1) { }\n" +
		"\tatomic_store_explicit(l, 0, memory_order_release);\n"
	lockValues := func(addr outcome.Value) ([]outcome.Value, bool) {
		if addr.Sym == "l" {
			return []outcome.Value{outcome.Int(0), outcome.Int(1)}, true
		}
		return nil, false
	}
	tests := []struct {
		name     string
		stored   string // what the exchange writes
		observer string // P1's code
		values   func(outcome.Value) ([]outcome.Value, bool)
		silent   int // the silent writes the unfolding keeps
	}{
		{name: "a test-and-set spinlock", stored: "1", observer: fmt.Sprintf(tas, "1"), values: lockValues, silent: 2},
		{name: "the lock's values unknown", stored: "1", observer: fmt.Sprintf(tas, "1"), values: nil},
		{name: "a read that goes on with 1", stored: "1", observer: "\tint r0 = atomic_load_explicit(l, memory_order_relaxed);\n", values: lockValues},
		{name: "an exchange of 2: not what it read", stored: "2", observer: "", values: func(outcome.Value) ([]outcome.Value, bool) {
			return []outcome.Value{outcome.Int(0), outcome.Int(1), outcome.Int(2)}, true
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "C T\n{}\nP0(atomic_int *l)\n{\n" + fmt.Sprintf(tas, tt.stored) + "}\n\nP1(atomic_int *l)\n{\n" + tt.observer + "}\n\nexists (l=0)\n"
			test, err := litmus.Parse("T.litmus", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			_, regs, mem, err := events.InitialState(test)
			if err != nil {
				t.Fatal(err)
			}
			opt := events.UnfoldOptions{Unroll: 2, Retries: 0, LocationValues: tt.values}
			u, err := events.UnfoldWith(context.Background(), test.Program, opt, regs, mem)
			if err != nil {
				t.Fatal(err)
			}
			if len(u.Silent) != tt.silent {
				t.Fatalf("%d silent writes %v, want %d", len(u.Silent), u.Silent, tt.silent)
			}
			if tt.silent > 0 && (u.Cut || len(u.Retries) == 0) {
				t.Errorf("cut %v, retries %v: want the failed exchanges cut off as retries, no loop cut", u.Cut, u.Retries)
			}
			if tt.silent == 0 && !u.Cut {
				t.Error("no loop cut: want P0's loop, which writes, unrolled to the bound")
			}
		})
	}
}
