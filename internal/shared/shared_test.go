package shared

import "testing"

func TestEvery(t *testing.T) {
	// The everyday value is the default's or -short's, whichever this run is.
	pick := func(every, short int) int {
		if testing.Short() {
			return short
		}
		return every
	}
	for _, c := range []struct {
		all          bool
		every, short int
		want         int
	}{
		{all: true, every: 8, short: 32, want: 1},
		{all: false, every: 8, short: 32, want: pick(8, 32)},
		{all: false, every: 0, short: 10, want: pick(1, 10)},
		{all: false, every: 4, short: 0, want: pick(4, 1)},
		{all: false, every: -3, short: -3, want: 1},
	} {
		if got := Every(c.all, c.every, c.short); got != c.want {
			t.Errorf("Every(%v, %d, %d) = %d, want %d", c.all, c.every, c.short, got, c.want)
		}
	}
}
