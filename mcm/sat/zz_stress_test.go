package sat

import (
	"math/rand/v2"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

func TestZZStress(t *testing.T) {
	seeds, _ := strconv.Atoi(os.Getenv("STRESS_SEEDS"))
	if seeds == 0 {
		t.Skip()
	}
	var total atomic.Int64
	defer func() { t.Log("models", total.Load()) }()
	for seed := range uint64(seeds) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := rand.New(rand.NewPCG(seed, 77))
			n := 10 + r.IntN(120)
			s := New()
			newVars(s, n)
			for range int(float64(n) * (3.0 + 1.3*r.Float64())) {
				c := []Lit{}
				for range 3 {
					c = append(c, Lit(2+r.IntN(n))*Lit(1-2*r.IntN(2)))
				}
				s.AddClause(c...)
			}
			for range 6 {
				var projection []Lit
				for range 1 + r.IntN(8) {
					projection = append(projection, randomLit(r, n))
				}
				k, _ := s.Enumerate(projection, 300, func([]bool) bool { return true })
				total.Add(int64(k))
				for range r.IntN(n) {
					s.AddClause(randomClause(r, n)...)
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("seed %d hangs", seed)
		}
	}
}
