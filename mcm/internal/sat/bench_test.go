package sat

import (
	"math/rand/v2"
	"testing"
)

// pigeonhole adds "pigeons into holes, one pigeon per hole" (UNSAT when
// pigeons > holes), with ExactlyOne per pigeon and AtMostOne per hole.
func pigeonhole(s *Solver, pigeons, holes int) {
	in := make([][]Lit, pigeons)
	for p := range in {
		in[p] = make([]Lit, holes)
		for h := range in[p] {
			in[p][h] = s.NewVar()
		}
		s.ExactlyOne(in[p]...)
	}
	for h := range holes {
		col := make([]Lit, pigeons)
		for p := range col {
			col[p] = in[p][h]
		}
		s.atMostOne(col...)
	}
}

func BenchmarkPigeonhole7in6(b *testing.B) {
	for b.Loop() {
		s := New()
		pigeonhole(s, 7, 6)
		if s.Solve() {
			b.Fatal("pigeonhole 7 in 6 is UNSAT")
		}
	}
}

func BenchmarkPigeonhole10in10Enumerate(b *testing.B) {
	// 10! = 3628800 models is too many; enumerate the first 1000 placements.
	for b.Loop() {
		s := New()
		pigeonhole(s, 10, 10)
		var proj []Lit
		for v := 2; v <= 101; v++ {
			proj = append(proj, Lit(v))
		}
		if n, _ := enumerate(s, proj, 1000, func([]bool) bool { return true }); n != 1000 {
			b.Fatalf("%d models", n)
		}
	}
}

// random3SAT returns clauses over n variables at the threshold ratio 4.26.
func random3SAT(seed uint64, n int) [][3]Lit {
	r := rand.New(rand.NewPCG(seed, 6))
	cs := make([][3]Lit, int(4.26*float64(n)))
	for i := range cs {
		for j := range 3 {
			l := Lit(2 + r.IntN(n))
			if r.IntN(2) == 0 {
				l = -l
			}
			cs[i][j] = l
		}
	}
	return cs
}

func BenchmarkRandom3SAT150(b *testing.B) {
	instances := make([][][3]Lit, 8)
	for i := range instances {
		instances[i] = random3SAT(uint64(i), 150)
	}
	for b.Loop() {
		for _, cs := range instances {
			s := New()
			newVars(s, 150)
			for _, c := range cs {
				s.AddClause(c[:]...)
			}
			s.Solve()
		}
	}
}

// BenchmarkBuild compares handing the clauses to gophersat at once
// (ParseSliceNb + New, the first Solve) with adding them after a first
// solve (AppendClause), on a satisfiable instance.
func BenchmarkBuild(b *testing.B) {
	const n = 2000
	cs := random3SAT(7, n)[:3*n] // ratio 3: satisfiable, easy
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			s := New()
			newVars(s, n)
			for _, c := range cs {
				s.AddClause(c[:]...)
			}
			if !s.Solve() {
				b.Fatal("UNSAT")
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		for b.Loop() {
			s := New()
			s.Solve()
			newVars(s, n)
			for _, c := range cs {
				s.AddClause(c[:]...)
			}
			if !s.Solve() {
				b.Fatal("UNSAT")
			}
		}
	})
	b.Run("incremental-in-steps", func(b *testing.B) {
		for b.Loop() {
			s := New()
			newVars(s, n)
			for i, c := range cs {
				s.AddClause(c[:]...)
				if i%(len(cs)/10) == 0 && !s.Solve() {
					b.Fatal("UNSAT")
				}
			}
			if !s.Solve() {
				b.Fatal("UNSAT")
			}
		}
	})
}
