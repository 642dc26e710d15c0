package events

import (
	"fmt"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// TestAntichains checks what a term keeps of its derivations: per value,
// the minimal read sets, once each, sorted by size then set; past maxVias
// of them, a new one merges with the kept one that shares the most reads
// with it, into their intersection.
func TestAntichains(t *testing.T) {
	set := func(reads ...int) readSet {
		s := make(readSet, 2)
		for _, r := range reads {
			s[r/64] |= 1 << (r % 64)
		}
		return s
	}
	var pastMaxVias []derived // {0, i} for each i in 1..maxVias+1
	for i := 1; i <= maxVias+1; i++ {
		pastMaxVias = append(pastMaxVias, derived{outcome.Int(1), set(0, i)})
	}
	// maxVias-1 singletons, {100 101 102}, then {100 101 103}: it merges
	// with {100 101 102}.
	var closest []derived
	var closestWant []string
	for i := range maxVias - 1 {
		closest = append(closest, derived{outcome.Int(1), set(i)})
		closestWant = append(closestWant, fmt.Sprintf("1:[%d]", i))
	}
	closest = append(closest, derived{outcome.Int(1), set(100, 101, 102)}, derived{outcome.Int(1), set(100, 101, 103)})
	closestWant = append(closestWant, "1:[100 101]")
	tests := []struct {
		name string
		add  []derived
		want string
	}{
		{name: "a superset arriving after its subset",
			add:  []derived{{outcome.Int(1), set(1)}, {outcome.Int(1), set(1, 2)}},
			want: "1:[1]"},
		{name: "a subset arriving after its supersets",
			add:  []derived{{outcome.Int(1), set(1, 2)}, {outcome.Int(1), set(1, 70)}, {outcome.Int(1), set(1)}},
			want: "1:[1]"},
		{name: "one set twice, values sorted",
			add:  []derived{{outcome.Int(2), set(3)}, {outcome.Int(1), set(70)}, {outcome.Int(2), set(3)}},
			want: "1:[70] 2:[3]"},
		{name: "incomparable sets sorted by size",
			add:  []derived{{outcome.Int(1), set(1, 4)}, {outcome.Int(1), set(3)}, {outcome.Int(1), set(2)}},
			want: "1:[2] 1:[3] 1:[1 4]"},
		{name: "past maxVias, merged", add: pastMaxVias, want: "1:[0]"},
		{name: "past maxVias, merged with the closest", add: closest, want: strings.Join(closestWant, " ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c antichains
			c.reset()
			for _, d := range tt.add {
				c.add(d.v, d.via)
			}
			var got []string
			for _, d := range c.result(nil) {
				var reads []string
				for r := range 128 {
					if d.via.has(r) {
						reads = append(reads, fmt.Sprint(r))
					}
				}
				got = append(got, fmt.Sprintf("%v:[%s]", d.v, strings.Join(reads, " ")))
			}
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}
