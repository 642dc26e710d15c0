package sat

import "encoding/binary"

// Gate operators, the first byte of a gate's hash-consing key.
const (
	opAnd = 'a'
	opXor = 'x'
	opIte = 'i'
)

// gate returns the output of the gate op(inputs), creating it with define
// when no equal gate exists yet.
func (s *Solver) gate(op byte, inputs []Lit, define func(out Lit)) Lit {
	s.key = append(s.key[:0], op)
	for _, l := range inputs {
		s.key = binary.AppendVarint(s.key, int64(l))
	}
	if out, ok := s.gates[string(s.key)]; ok {
		return out
	}
	key := string(s.key)
	out := s.NewVar()
	define(out)
	s.gates[key] = out
	return out
}

// Not returns the negation of l (no clause is needed).
func (s *Solver) Not(l Lit) Lit {
	s.check(l)
	return -l
}

// And returns a literal equivalent to the conjunction of lits (True when
// there are none).
func (s *Solver) And(lits ...Lit) Lit {
	in := make([]Lit, 0, len(lits))
	for _, l := range lits {
		v, known := s.fixed(l)
		if !known {
			in = append(in, l)
		} else if !v {
			return False
		}
	}
	in, contradiction := normalise(in)
	switch {
	case contradiction:
		return False
	case len(in) == 0:
		return True
	case len(in) == 1:
		return in[0]
	}
	return s.gate(opAnd, in, func(out Lit) {
		long := make([]Lit, 0, len(in)+1)
		long = append(long, out)
		for _, l := range in {
			s.AddClause(out.Not(), l)
			long = append(long, l.Not())
		}
		s.AddClause(long...)
	})
}

// Or returns a literal equivalent to the disjunction of lits (False when
// there are none). It shares And's gates: Or(a, b) is Not(And(¬a, ¬b)).
func (s *Solver) Or(lits ...Lit) Lit {
	neg := make([]Lit, len(lits))
	for i, l := range lits {
		neg[i] = -l
	}
	return -s.And(neg...)
}

// Implies returns a literal equivalent to a → b.
func (s *Solver) Implies(a, b Lit) Lit { return s.Or(-a, b) }

// iff returns a literal equivalent to a ↔ b.
func (s *Solver) iff(a, b Lit) Lit { return -s.Xor(a, b) }

// Xor returns a literal equivalent to a ⊕ b.
func (s *Solver) Xor(a, b Lit) Lit {
	s.check(b)
	if v, known := s.fixed(a); known {
		if v {
			return -b
		}
		return b
	}
	if v, known := s.fixed(b); known {
		if v {
			return -a
		}
		return a
	}
	switch a {
	case b:
		return False
	case -b:
		return True
	}
	// Canonical form: positive inputs in increasing order, the parity of
	// the negations moved to the output.
	flip := false
	if a < 0 {
		a, flip = -a, !flip
	}
	if b < 0 {
		b, flip = -b, !flip
	}
	if a > b {
		a, b = b, a
	}
	out := s.gate(opXor, []Lit{a, b}, func(out Lit) {
		s.AddClause(-out, a, b)
		s.AddClause(-out, -a, -b)
		s.AddClause(out, -a, b)
		s.AddClause(out, a, -b)
	})
	if flip {
		return -out
	}
	return out
}

// ite returns a literal equivalent to "if c then t else e".
func (s *Solver) ite(c, t, e Lit) Lit {
	s.check(t)
	s.check(e)
	if v, known := s.fixed(c); known {
		if v {
			return t
		}
		return e
	}
	switch {
	case t == e:
		return t
	case t == -e:
		return s.iff(c, t)
	case t == c:
		return s.Or(c, e)
	case t == -c:
		return s.And(-c, e)
	case e == c:
		return s.And(c, t)
	case e == -c:
		return s.Or(-c, t)
	}
	if v, known := s.fixed(t); known {
		if v {
			return s.Or(c, e)
		}
		return s.And(-c, e)
	}
	if v, known := s.fixed(e); known {
		if v {
			return s.Or(-c, t)
		}
		return s.And(c, t)
	}
	// Canonical form: positive condition and positive then-branch.
	if c < 0 {
		c, t, e = -c, e, t
	}
	flip := t < 0
	if flip {
		t, e = -t, -e
	}
	out := s.gate(opIte, []Lit{c, t, e}, func(out Lit) {
		s.AddClause(-c, -t, out)
		s.AddClause(-c, t, -out)
		s.AddClause(c, -e, out)
		s.AddClause(c, e, -out)
		// Redundant, but lets propagation conclude when t = e.
		s.AddClause(-t, -e, out)
		s.AddClause(t, e, -out)
	})
	if flip {
		return -out
	}
	return out
}

// atMostOne constrains at most one of lits to be true. Repeated literals
// count once each (so a repeated literal is forced false) and constants
// count as usual.
func (s *Solver) atMostOne(lits ...Lit) {
	in := make([]Lit, 0, len(lits))
	for _, l := range lits {
		if v, known := s.fixed(l); !known || v {
			in = append(in, l)
		}
	}
	if len(in) <= pairwiseLimit {
		for i := range in {
			for j := i + 1; j < len(in); j++ {
				s.AddClause(-in[i], -in[j])
			}
		}
		return
	}
	// Sequential counter (Sinz 2005): seen[i] holds when one of in[0..i] is
	// true.
	seen := s.NewVar()
	s.AddClause(-in[0], seen)
	for i := 1; i < len(in)-1; i++ {
		next := s.NewVar()
		s.AddClause(-in[i], next)
		s.AddClause(-seen, next)
		s.AddClause(-in[i], -seen)
		seen = next
	}
	s.AddClause(-in[len(in)-1], -seen)
}

// pairwiseLimit is the largest AtMostOne encoded with one clause per pair:
// up to 6 inputs, 15 binary clauses beat the counter's 3n-4 clauses and
// n-1 auxiliaries.
const pairwiseLimit = 6

// ExactlyOne constrains exactly one of lits to be true.
func (s *Solver) ExactlyOne(lits ...Lit) {
	s.AddClause(lits...)
	s.atMostOne(lits...)
}
