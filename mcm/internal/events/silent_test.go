package events_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	_ "github.com/purr-mcm/purr/litmus/c"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestSilentRetries checks when a failed test-and-set is a retry: its
// exchange writes back the 1 it read, when the lock only ever holds 0 or
// 1 and nothing else that reads it can go on with a 1.
func TestSilentRetries(t *testing.T) {
	const (
		exchange = "\twhile (atomic_exchange_explicit(l, %s, memory_order_acquire) == 1) { }\n"
		fetchOr  = "\twhile (atomic_fetch_or_explicit(l, %s, memory_order_acquire) != 0) { }\n"
		fetchAdd = "\twhile (atomic_fetch_add_explicit(l, %s, memory_order_acquire) != 0) { }\n"
		unlock   = "\tatomic_store_explicit(l, 0, memory_order_release);\n"
	)
	lockValues := func(addr outcome.Value) ([]outcome.Value, bool) {
		if addr.Sym == "l" {
			return []outcome.Value{outcome.Int(0), outcome.Int(1)}, true
		}
		return nil, false
	}
	tests := []struct {
		name     string
		lock     string // P0's loop, %s what it stores
		stored   string
		before   string // P0's code before the loop
		observer string // P1's code
		values   func(outcome.Value) ([]outcome.Value, bool)
		silent   int    // the silent writes the unfolding keeps
		first    bool   // Unfolding.SilentFirst, when silent
		gap      string // Unfolding.SilentGap's kinds in program order, when silent
		noUnlock bool   // P0 does not release the lock
	}{
		{name: "a test-and-set spinlock", lock: exchange, stored: "1", observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: true},
		{name: "the lock's values unknown", lock: exchange, stored: "1", observer: fmt.Sprintf(exchange, "1") + unlock, values: nil},
		{name: "a read that goes on with 1", lock: exchange, stored: "1", observer: "\tint r0 = atomic_load_explicit(l, memory_order_relaxed);\n", values: lockValues},
		{name: "an exchange of 2: not what it read", lock: exchange, stored: "2", observer: "", values: func(outcome.Value) ([]outcome.Value, bool) {
			return []outcome.Value{outcome.Int(0), outcome.Int(1), outcome.Int(2)}, true
		}},
		{name: "the lock written before the loop", lock: exchange, stored: "1", before: "\tatomic_store_explicit(l, 0, memory_order_relaxed);\n",
			observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: false, gap: "W"},
		{name: "the lock written, then awaited, before the loop", lock: exchange, stored: "1",
			before:   "\tatomic_store_explicit(l, 0, memory_order_relaxed);\n\twhile (atomic_load_explicit(l, memory_order_relaxed) != 0) { }\n",
			observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: false, gap: "W R"},
		{name: "the lock written twice before the loop: the latest write is next to it", lock: exchange, stored: "1",
			before:   "\tatomic_store_explicit(l, 0, memory_order_relaxed);\n\tatomic_store_explicit(l, 0, memory_order_release);\n",
			observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: false, gap: "W"},
		{name: "another location written before the loop", lock: exchange, stored: "1", before: "\tatomic_store_explicit(y, 1, memory_order_relaxed);\n",
			observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: true},
		{name: "another location read before the loop", lock: exchange, stored: "1", before: "\tint r9 = atomic_load_explicit(y, memory_order_relaxed);\n",
			observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: true},
		{name: "a fetch-or of 1: writes back the 1 it read", lock: fetchOr, stored: "1", observer: fmt.Sprintf(fetchOr, "1") + unlock, values: lockValues, silent: 2, first: true},
		{name: "a fetch-or of 2: writes 3 over 1", lock: fetchOr, stored: "2", observer: "", values: lockValues},
		{name: "a fetch-add of 1: writes 2 over 1", lock: fetchAdd, stored: "1", observer: "", values: lockValues},
		{name: "no unlock: the successful exchange writes the lock again", lock: exchange, stored: "1", noUnlock: true,
			observer: fmt.Sprintf(exchange, "1") + unlock, values: lockValues, silent: 2, first: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := unlock
			if tt.noUnlock {
				release = ""
			}
			src := "C T\n{}\nP0(atomic_int *l, atomic_int *y)\n{\n" + tt.before + fmt.Sprintf(tt.lock, tt.stored) + release + "}\n\nP1(atomic_int *l)\n{\n" + tt.observer + "}\n\nexists (y=0)\n"
			u := unfoldSource(t, src, events.UnfoldOptions{Unroll: 2, Retries: 0, LocationValues: tt.values})
			if len(u.Silent) != tt.silent {
				t.Fatalf("%d silent writes %v, want %d", len(u.Silent), u.Silent, tt.silent)
			}
			if tt.silent > 0 && (u.Cut || len(u.Retries) == 0) {
				t.Errorf("cut %v, retries %v: want the failed exchanges cut off as retries, no loop cut", u.Cut, u.Retries)
			}
			if tt.silent > 0 && u.SilentFirst != tt.first {
				t.Errorf("SilentFirst %v, want %v", u.SilentFirst, tt.first)
			}
			gap := slices.Clone(u.SilentGap)
			slices.SortFunc(gap, func(x, y *events.Event) int { return x.Depth - y.Depth })
			var kinds []string
			for _, e := range gap {
				if e.IsRead() {
					kinds = append(kinds, "R")
				} else {
					kinds = append(kinds, "W")
				}
			}
			if got := strings.Join(kinds, " "); tt.silent > 0 && got != tt.gap {
				t.Errorf("SilentGap %q, want %q", got, tt.gap)
			}
			for _, w := range u.Silent {
				if w.Val != outcome.Int(1) {
					t.Errorf("%v writes back %v, want 1", w.Pos, w.Val)
				}
				// The successful exchange writes the lock after every
				// failed one.
				if !w.Overwritten {
					t.Errorf("%v: a failed attempt may be its thread's last write to the lock, want it written again", w.Pos)
				}
			}
			if tt.silent == 0 && !u.Cut {
				t.Error("no loop cut: want P0's loop, which writes, unrolled to the bound")
			}
		})
	}
}
