package xcfa

import "testing"

func TestParallel(t *testing.T) {
	p := func(node, branch int) Par { return Par{Node: node, Branch: branch} }
	tests := []struct {
		name string
		a, b []Par
		want bool
	}{
		{"outside any composition", nil, nil, false},
		{"one inside, one after", []Par{p(1, 0)}, nil, false},
		{"two parts of one composition", []Par{p(1, 0)}, []Par{p(1, 1)}, true},
		{"one part", []Par{p(1, 1)}, []Par{p(1, 1)}, false},
		{"two compositions in sequence", []Par{p(1, 0)}, []Par{p(2, 1)}, false},
		{"nested in different parts", []Par{p(1, 0), p(2, 0)}, []Par{p(1, 1)}, true},
		{"nested in one part, in sequence", []Par{p(1, 1), p(2, 0)}, []Par{p(1, 1)}, false},
		{"nested, different inner parts", []Par{p(1, 1), p(2, 0)}, []Par{p(1, 1), p(2, 1)}, true},
	}
	for _, tt := range tests {
		if got := Parallel(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Parallel(%v, %v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := Parallel(tt.b, tt.a); got != tt.want {
			t.Errorf("%s: Parallel(%v, %v) = %v, want %v (symmetric)", tt.name, tt.b, tt.a, got, tt.want)
		}
	}
}
