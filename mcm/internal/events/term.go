package events

import (
	"fmt"
	"slices"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/xcfa"
)

type TermOp uint8

const (
	TermConst TermOp = iota
	TermRead         // the value a read event returns
	TermBinary
	TermUnary
	TermIte
	TermPick // the value of args[1], chosen by args[0]
)

// Term is an SSA value of the unfolding: a constant, the value of a read,
// or an operation on terms. deps are the reads it depends on syntactically
// (x^x still depends on x), which is what herd's dependencies follow.
type Term struct {
	ID   int
	Op   TermOp
	Val  outcome.Value // TermConst
	Read *Event        // TermRead
	Bin  xcfa.BinOp
	Un   xcfa.UnOp
	Args []*Term
	deps []*Event
	// picks are the reads the term depends on only through a choice (the
	// condition of a conditional select): herd7's pick dependencies.
	picks []*Event
	Dom   []outcome.Value // every value the term may take, sorted (after the value analysis)
}

// Position returns the index of v in t.Dom, and whether it is there.
func (t *Term) Position(v outcome.Value) (int, bool) {
	return slices.BinarySearchFunc(t.Dom, v, CompareValues)
}

// Cancels tells whether t is x^x: herd7 makes that zero before x is known
// (so it needs no value), while x^x still depends on x.
func (t *Term) Cancels() bool {
	return t.Op == TermBinary && t.Bin == xcfa.Xor && t.Args[0] == t.Args[1]
}

// IsConst tells whether the term is a constant, and which.
func (t *Term) IsConst() (outcome.Value, bool) { return t.Val, t.Op == TermConst }

func (t *Term) String() string {
	switch t.Op {
	case TermConst:
		return t.Val.String()
	case TermRead:
		return fmt.Sprintf("v%d", t.Read.ID)
	case TermBinary:
		return fmt.Sprintf("(%v %v %v)", t.Args[0], t.Bin, t.Args[1])
	case TermUnary:
		return fmt.Sprintf("%v(%v)", t.Un, t.Args[0])
	case TermPick:
		return fmt.Sprintf("pick(%v, %v)", t.Args[0], t.Args[1])
	default:
		return fmt.Sprintf("(%v ? %v : %v)", t.Args[0], t.Args[1], t.Args[2])
	}
}

// termKey identifies an operation term by its operator and operands, so
// that equal expressions are one term: the value analysis then knows that
// both operands of W0^W0 are the same value.
type termKey struct {
	op      TermOp
	bin     xcfa.BinOp
	un      xcfa.UnOp
	a, b, c int
}

func (f *unfolder) addTerm(t *Term) *Term {
	if t.Op == TermBinary || t.Op == TermUnary || t.Op == TermIte || t.Op == TermPick {
		k := termKey{op: t.Op, bin: t.Bin, un: t.Un, a: t.Args[0].ID, b: -1, c: -1}
		if len(t.Args) > 1 {
			k.b = t.Args[1].ID
		}
		if len(t.Args) > 2 {
			k.c = t.Args[2].ID
		}
		if old, ok := f.terms[k]; ok {
			return old
		}
		defer func() { f.terms[k] = t }()
	}
	t.ID = len(f.u.Terms)
	f.u.Terms = append(f.u.Terms, t)
	return t
}

func (f *unfolder) constTerm(v outcome.Value) *Term {
	return f.addTerm(&Term{Op: TermConst, Val: v})
}

// binaryTerm is the term a op b, with the dependencies of both.
func (f *unfolder) binaryTerm(op xcfa.BinOp, a, b *Term) *Term {
	return f.addTerm(&Term{Op: TermBinary, Bin: op, Args: []*Term{a, b}, deps: mergeEvents(a.deps, b.deps),
		picks: mergeEvents(a.picks, b.picks)})
}

func (f *unfolder) readTerm(e *Event) *Term {
	return f.addTerm(&Term{Op: TermRead, Read: e, deps: []*Event{e}})
}

// term builds the SSA term of an expression in the current path state.
// Operations on constants are folded, but only when no dependency is lost:
// a constant has no dependencies, so folding constants loses none (but for
// a store-conditional's status, a constant that depends on its store,
// which is never folded).
func (f *unfolder) term(x xcfa.Expr, st *pathState) (*Term, error) {
	switch x := x.(type) {
	case xcfa.Const:
		return f.constTerm(outcome.Int(x.Value)), nil
	case xcfa.Sym:
		return f.constTerm(outcome.Value{Sym: x.Name, Off: x.Offset}), nil
	case xcfa.Label:
		return f.constTerm(codeAddr(x.Proc, x.Name)), nil
	case xcfa.Reg:
		if t, ok := st.regs[x.Name]; ok {
			return t, nil
		}
		t := f.constTerm(outcome.Int(0)) // herd: registers start at zero
		st.regs[x.Name] = t
		return t, nil
	case xcfa.Binary:
		a, err := f.term(x.X, st)
		if err != nil {
			return nil, err
		}
		b, err := f.term(x.Y, st)
		if err != nil {
			return nil, err
		}
		if av, ok := a.IsConst(); ok && len(a.deps) == 0 {
			if bv, ok := b.IsConst(); ok && len(b.deps) == 0 {
				v, err := ApplyBinary(x.Op, av, bv)
				if err != nil {
					return nil, err
				}
				return f.constTerm(v), nil
			}
		}
		if x.Op == xcfa.Sub && a.Op == TermBinary && a.Bin == xcfa.Add && (a.Args[0] == b || a.Args[1] == b) {
			// (p + q) - q is p + (q - q): an offset added and taken back
			// (BPF's r4 += r3; r4 -= r3, an address dependency that keeps
			// the address). The value analysis, which would combine any
			// value of p + q with any value of q, then sees one value of q
			// in q - q; the dependencies on q stay.
			p := a.Args[0]
			if p == b {
				p = a.Args[1]
			}
			return f.binaryTerm(xcfa.Add, p, f.binaryTerm(xcfa.Sub, b, b)), nil
		}
		return f.noteOp(f.binaryTerm(x.Op, a, b), st), nil
	case xcfa.Unary:
		a, err := f.term(x.X, st)
		if err != nil {
			return nil, err
		}
		t, err := f.unaryTerm(x.Op, a)
		if err != nil {
			return nil, err
		}
		return f.noteOp(t, st), nil
	case xcfa.Ite:
		c, err := f.term(x.Cond, st)
		if err != nil {
			return nil, err
		}
		a, err := f.term(x.X, st)
		if err != nil {
			return nil, err
		}
		b, err := f.term(x.Y, st)
		if err != nil {
			return nil, err
		}
		deps := mergeEvents(c.deps, mergeEvents(a.deps, b.deps))
		picks := mergeEvents(c.picks, mergeEvents(a.picks, b.picks))
		return f.addTerm(&Term{Op: TermIte, Args: []*Term{c, a, b}, deps: deps, picks: picks}), nil
	case xcfa.Pick:
		c, err := f.term(x.Cond, st)
		if err != nil {
			return nil, err
		}
		a, err := f.term(x.X, st)
		if err != nil {
			return nil, err
		}
		picks := mergeEvents(a.picks, mergeEvents(c.deps, c.picks))
		if len(picks) == len(a.picks) {
			return a, nil // the choice depends on no read
		}
		return f.addTerm(&Term{Op: TermPick, Args: []*Term{c, a}, deps: a.deps, picks: picks}), nil
	}
	return nil, fmt.Errorf("unknown expression %T", x)
}

// noteOp records that the current instruction computes the operation t
// on its path's segment (Segment.Ops), once per segment.
func (f *unfolder) noteOp(t *Term, st *pathState) *Term {
	if t.Op != TermBinary && t.Op != TermUnary {
		return t
	}
	k := [2]int{st.seg.ID, t.ID}
	if !f.opsNoted[k] {
		f.opsNoted[k] = true
		st.seg.Ops = append(st.seg.Ops, OpSite{Term: t, Pos: st.lastPos, Code: st.code})
	}
	return t
}

// unaryTerm applies a unary operator to a term, folding constants.
func (f *unfolder) unaryTerm(op xcfa.UnOp, a *Term) (*Term, error) {
	if av, ok := a.IsConst(); ok && len(a.deps) == 0 {
		v, err := ApplyUnary(op, av)
		if err != nil {
			return nil, err
		}
		return f.constTerm(v), nil
	}
	return f.addTerm(&Term{Op: TermUnary, Un: op, Args: []*Term{a}, deps: a.deps, picks: a.picks}), nil
}
