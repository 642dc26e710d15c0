package xcfa

import "strings"

// Mark is an event at a location that is neither a load nor a store:
// herd7's lock events (a spinlock's LKR, LKW, UL, LF, RL, RU) and SRCU
// events. They are not in the model's R, W or M, and the engines' rf
// leaves them out: the model computes what they read (the kernel's
// lock.cat does). Tags name its Cat sets. Value, when set, is the value the
// event carries (an SRCU lock's index, the index an unlock is given).
// NewInstr starts an instruction instance of its own, so that the mark is
// in program order after the previous event of the same call (a lock's
// LKW after its LKR). InCo puts it among the events the engines' coherence
// order ranges over (the LKW, which lock.cat adds to W before choosing co).
// Observes says the mark only observes the lock (a failed trylock's LF,
// spin_is_locked's RL and RU, which lock.cat makes reads): a loop
// iteration whose only events are reads and such marks changes nothing,
// and may be a retry, when the model allows removing them.
type Mark struct {
	Addr     Expr
	Value    Expr // nil: none
	Tags     []string
	NewInstr bool
	InCo     bool
	Observes bool
}

func (Mark) isOp() {}

func (m Mark) String() string {
	s := "mark {" + strings.Join(m.Tags, ",") + "} [" + FormatExpr(m.Addr) + "]"
	if m.Value != nil {
		s += " " + FormatExpr(m.Value)
	}
	if m.InCo {
		s += " co"
	}
	if m.Observes {
		s += " observes"
	}
	return s
}
