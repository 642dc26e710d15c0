package c

import (
	"strings"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// herd7's internal forms of the Linux kernel's spinlocks and SRCU, which
// the kernel's linux-kernel.def maps spin_lock(X) and the rest to. Each
// makes herd's events (xcfa.Mark: at the lock's location, neither load
// nor store, so outside R, W, M and the engines' rf), with herd's sets:
//
//	__lock(X)      LKR then LKW (both LK), the LKW after the LKR in
//	               program order and ordered by co; lock.cat pairs them
//	               and computes what the LKR reads
//	__unlock(X)    UL
//	__trylock(X)   a choice: the lock's LKR and LKW, returning 1, or one LF
//	               (a failed trylock), returning 0
//	__islocked(X)  a choice: RL returning 1, or RU returning 0
//	__srcu{srcu-lock}(X)      Srcu-lock, carrying and returning an index
//	__srcu{srcu-unlock}(X,V)  Srcu-unlock, carrying V
//	__srcu{sync-srcu}(X)      Sync-srcu
//
// All of them are also NA (herd's "not atomic" C set).
var lockForms = map[string]builtin{
	"__lock":     {1, false, lockCall},
	"__unlock":   {1, false, unlockCall},
	"__trylock":  {1, false, trylockCall},
	"__islocked": {1, false, islockedCall},
	"__srcu":     {-1, true, srcuCall},
}

func lockTags(set string) []string { return []string{set, "NA"} }

// lockAddr is the lock's address: the call's only argument, a pointer.
func (t *translator) lockAddr(c *call) (xcfa.Expr, error) {
	v, err := t.value(c.args[0])
	return v.e, err
}

// takeLock emits a successful lock of addr: LKR, then LKW.
func (t *translator) takeLock(addr xcfa.Expr, pos source.Pos) {
	t.emit(xcfa.Mark{Addr: addr, Tags: []string{"LKR", "LK", "NA"}}, pos)
	t.emit(xcfa.Mark{Addr: addr, Tags: []string{"LKW", "LK", "NA"}, NewInstr: true, InCo: true}, pos)
}

func lockCall(t *translator, c *call) (value, error) {
	addr, err := t.lockAddr(c)
	if err != nil {
		return value{}, err
	}
	t.takeLock(addr, c.pos)
	return value{}, nil
}

func unlockCall(t *translator, c *call) (value, error) {
	addr, err := t.lockAddr(c)
	if err != nil {
		return value{}, err
	}
	t.emit(xcfa.Mark{Addr: addr, Tags: lockTags("UL")}, c.pos)
	return value{}, nil
}

// choose emits a choice between two ways, each emitting its events; the
// call's result is 1 after the first, 0 after the second.
func (t *translator) choose(c *call, first, second func()) value {
	res := t.dstFor(c.hint)
	choice := t.cur
	first()
	t.emit(xcfa.Assign{Dst: res, Value: xcfa.Const{Value: 1}}, c.pos)
	end := t.cur
	t.cur = choice
	second()
	t.join(end, xcfa.Assign{Dst: res, Value: xcfa.Const{Value: 0}}, c.pos)
	t.cur = end
	return value{e: xcfa.Reg{Name: res}}
}

func trylockCall(t *translator, c *call) (value, error) {
	addr, err := t.lockAddr(c)
	if err != nil {
		return value{}, err
	}
	return t.choose(c,
		func() { t.takeLock(addr, c.pos) },
		func() { t.emit(xcfa.Mark{Addr: addr, Tags: lockTags("LF"), Observes: true}, c.pos) }), nil
}

func islockedCall(t *translator, c *call) (value, error) {
	addr, err := t.lockAddr(c)
	if err != nil {
		return value{}, err
	}
	return t.choose(c,
		func() { t.emit(xcfa.Mark{Addr: addr, Tags: lockTags("RL"), Observes: true}, c.pos) },
		func() { t.emit(xcfa.Mark{Addr: addr, Tags: lockTags("RU"), Observes: true}, c.pos) }), nil
}

// srcuIndex is the index an srcu-lock returns: herd7 makes one per call,
// (proc+1)*307 + (program point)*599; purr numbers program points by
// source position, so the indexes differ from herd's but are as distinct.
func srcuIndex(proc int, pos source.Pos) int64 {
	return int64(proc+1)*307 + int64(pos.Line*256+pos.Col)*599
}

// srcuCall emits the SRCU event __srcu{a}(...) makes: a is srcu-lock
// (returning the index), srcu-unlock (carrying its second argument) or
// sync-srcu.
func srcuCall(t *translator, c *call) (value, error) {
	if len(c.annots) != 1 {
		return value{}, source.Errorf(c.pos, "unsupported annotation list {%s} on %s", strings.Join(c.annots, ","), c.name)
	}
	a := c.annots[0]
	want := map[string]int{"srcu-lock": 1, "srcu-unlock": 2, "sync-srcu": 1}
	n, ok := want[a]
	if !ok {
		return value{}, source.Errorf(c.pos, "unsupported SRCU annotation %s (srcu-lock, srcu-unlock, sync-srcu)", a)
	}
	if len(c.args) != n {
		return value{}, source.Errorf(c.pos, "%s{%s} takes %d arguments, not %d", c.name, a, n, len(c.args))
	}
	addr, err := t.lockAddr(c)
	if err != nil {
		return value{}, err
	}
	mark := xcfa.Mark{Addr: addr, Tags: lockTags(annotSet(a))}
	var result value
	switch a {
	case "srcu-lock":
		idx := xcfa.Const{Value: srcuIndex(t.proc.ID, c.pos)}
		mark.Value, result = idx, value{e: idx}
	case "srcu-unlock":
		v, err := t.value(c.args[1])
		if err != nil {
			return value{}, err
		}
		mark.Value = v.e
	}
	t.emit(mark, c.pos)
	return result, nil
}
