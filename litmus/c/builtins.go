package c

import (
	"maps"
	"strings"

	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// call is one call being translated.
type call struct {
	name   string
	pos    source.Pos
	args   []cast.Expr
	op     string   // the operator argument: __atomic_op(X,+,V)
	annots []string // herd's internal forms: __load{once}(...)
	hint   string
}

// builtin translates a call; it returns value{} for a call without value.
// These are the names herd7's C lexer knows (and purr's send and recv):
// everything else, the Linux kernel's primitives included, comes from a
// macro file (-macros, the .cfg's macros key).
type builtin struct {
	nargs     int  // -1: the function checks the count itself
	annotated bool // written name{annotations}(...)
	fn        func(t *translator, c *call) (value, error)
}

var builtins map[string]builtin

// memoryOrders maps C11's memory orders to herd's Cat sets.
var memoryOrders = map[string]string{
	"memory_order_relaxed": "RLX",
	"memory_order_consume": "CON",
	"memory_order_acquire": "ACQ",
	"memory_order_release": "REL",
	"memory_order_acq_rel": "ACQ_REL",
	"memory_order_seq_cst": "SC",
}

func plainTags() []string { return []string{"NA"} }

// c11Tags are the sets of a C11 access with memory order mo.
func c11Tags(mo string, rmw bool) []string {
	if rmw {
		return []string{mo, "A", "RMW"}
	}
	return []string{mo, "A"}
}

// annotSet is the Cat set a bell tag defines: the tag, first letter upper.
func annotSet(a string) string {
	if a == "" {
		return a
	}
	return strings.ToUpper(a[:1]) + a[1:]
}

// linuxTags are the sets of a Linux access or fence annotated as: one set
// per annotation, NA (herd's "not atomic" holds the annotated accesses),
// and RMW for the accesses of a read-modify-write.
func linuxTags(annots []string, rmw bool) []string {
	var tags []string
	for _, a := range annots {
		tags = append(tags, annotSet(a))
	}
	tags = append(tags, "NA")
	if rmw {
		tags = append(tags, "RMW")
	}
	return tags
}

func once() []string { return []string{"once"} }

// callExpr translates a call; stmt tells whether it is a statement.
func (t *translator) callExpr(e *cast.CallExpr, hint string, stmt bool) (value, error) {
	c := &call{name: e.Name, pos: t.pos(e.Pos), args: e.Args, annots: e.Annots, hint: hint}
	if e.Op != "" {
		if err := t.checkAtomicOp(e); err != nil {
			return value{}, err
		}
		c.op = e.Op
	}
	if m := t.lookupMacro(c.name); m != nil {
		if c.op != "" {
			return value{}, errorf(c.pos, "macro %s: an operator is no argument", c.name)
		}
		return t.expand(m, c, stmt)
	}
	b, ok := builtins[c.name]
	if !ok {
		if t.macros == nil {
			return value{}, errorf(c.pos, "unsupported function %s (herd7 knows it only from a macro file: give -macros FILE.def, or -conf with a macros key)", c.name)
		}
		return value{}, errorf(c.pos, "unsupported function %s: neither herd7 nor the macro file %s defines it", c.name, t.macros.file)
	}
	// lkmmv2 annotates the RMW herd 7.57 writes without: __atomic_op{noreturn}.
	optional := t.lkmmv2 && c.name == "__atomic_op"
	switch {
	case b.annotated && c.annots == nil:
		return value{}, errorf(c.pos, "%s needs annotations: %s{...}(...)", c.name, c.name)
	case !b.annotated && !optional && c.annots != nil:
		return value{}, errorf(c.pos, "unsupported annotations on %s", c.name)
	case c.op != "" && !isAtomicOp(c.name):
		return value{}, errorf(c.pos, "%s takes no operator argument", c.name)
	case c.op == "" && isAtomicOp(c.name):
		return value{}, errorf(c.pos, "%s takes an operator: %s(X,+,V)", c.name, c.name)
	case b.nargs >= 0 && len(c.args) != b.nargs:
		return value{}, errorf(c.pos, "%s takes %d arguments, not %d", c.name, b.nargs, len(c.args))
	}
	return b.fn(t, c)
}

func isAtomicOp(name string) bool {
	return name == "__atomic_op" || name == "__atomic_op_return" || name == "__atomic_fetch_op"
}

// checkAtomicOp checks the operator argument of __atomic_op: herd 7.57
// knows + and -; the kernel's current macros (variant lkmmv2) also use &,
// |, ^ and &~.
func (t *translator) checkAtomicOp(e *cast.CallExpr) error {
	switch e.Op {
	case "+", "-":
		return nil
	case "&", "|", "^", "&~":
		if t.lkmmv2 {
			return nil
		}
	}
	return errorf(t.pos(e.OpPos), "unsupported atomic operator %s (herd7 7.57 knows + and -; the variant lkmmv2 also &, |, ^ and &~)", e.Op)
}

// applyOp is the value an atomic operator writes: old op v.
func applyOp(op string, old, v xcfa.Expr) xcfa.Expr {
	switch op {
	case "+":
		return xcfa.Binary{Op: xcfa.Add, X: old, Y: v}
	case "-":
		return xcfa.Binary{Op: xcfa.Sub, X: old, Y: v}
	case "&":
		return xcfa.Binary{Op: xcfa.And, X: old, Y: v}
	case "|":
		return xcfa.Binary{Op: xcfa.Or, X: old, Y: v}
	case "^":
		return xcfa.Binary{Op: xcfa.Xor, X: old, Y: v}
	}
	// &~ (checkAtomicOp admits nothing else)
	return xcfa.Binary{Op: xcfa.And, X: old, Y: xcfa.Unary{Op: xcfa.BNot, X: v}}
}

// memOrder reads argument i, which must name a memory order.
func (t *translator) memOrder(c *call, i int) (string, error) {
	arg, _ := t.resolve(c.args[i])
	if n, ok := arg.(*cast.Ident); ok {
		if mo, ok := memoryOrders[n.Name]; ok {
			return mo, nil
		}
	}
	return "", errorf(t.pos(arg.Position()), "%s: expected a memory order (memory_order_relaxed, ...), found %s", c.name, cast.Text(arg))
}

// derefAddr reads an argument that must be written *p (herd's
// __load{once}(*x): the location, not its address) and returns p.
func (t *translator) derefAddr(c *call, i int) (value, error) {
	arg, f := t.resolve(c.args[i])
	if u, ok := arg.(*cast.UnaryExpr); ok && u.Op == "*" {
		return t.in(f, func() (value, error) { return t.value(u.X) })
	}
	return value{}, errorf(c.pos, "bad %s argument %s: herd7 takes a location *p here", c.name, cast.Text(arg))
}

// load emits a load of addr into a register for c's result.
func (t *translator) load(c *call, addr value, tags []string) value {
	dst := t.dstFor(c.hint)
	t.emit(xcfa.Load{Dst: dst, Addr: addr.e, Tags: tags}, c.pos)
	return value{e: xcfa.Reg{Name: dst}, ptr: max(addr.ptr-1, 0)}
}

// rmw emits a read-modify-write pair at addr: the read goes to a register,
// the write stores newValue(read). It returns the register read.
// oneEvent: herd makes the pair one event (C11 atomics, not Linux's).
func (t *translator) rmw(c *call, addr value, rtags, wtags []string, later []xcfa.Expr, oneEvent bool, newValue func(old xcfa.Expr) xcfa.Expr) string {
	id := t.newRMW()
	old := t.dstFor(c.hint, append(later, addr.e)...)
	t.emit(xcfa.Load{Dst: old, Addr: addr.e, Tags: rtags, RMW: id}, c.pos)
	t.emit(xcfa.Store{Addr: addr.e, Value: newValue(xcfa.Reg{Name: old}), Tags: wtags, RMW: id, OneEvent: oneEvent}, c.pos)
	return old
}

// values evaluates the arguments with the given indexes in parallel, as
// herd evaluates a call's arguments (its >>|): their events are in the
// order of idx along the path, not in program order.
func (t *translator) values(c *call, idx ...int) ([]value, error) {
	out := make([]value, len(idx))
	parts := make([]func() error, len(idx))
	for k, i := range idx {
		parts[k] = func() (err error) {
			out[k], err = t.value(c.args[i])
			return err
		}
	}
	if err := t.parallel(parts...); err != nil {
		return nil, err
	}
	return out, nil
}

// ---- C11 ----

func c11Load(t *translator, c *call) (value, error) {
	mo, err := t.memOrder(c, 1)
	if err != nil {
		return value{}, err
	}
	a, err := t.value(c.args[0])
	if err != nil {
		return value{}, err
	}
	return t.load(c, a, c11Tags(mo, false)), nil
}

func c11Store(t *translator, c *call) (value, error) {
	mo, err := t.memOrder(c, 2)
	if err != nil {
		return value{}, err
	}
	vs, err := t.values(c, 0, 1)
	if err != nil {
		return value{}, err
	}
	t.emit(xcfa.Store{Addr: vs[0].e, Value: vs[1].e, Tags: c11Tags(mo, false)}, c.pos)
	return value{}, nil
}

// c11RMW covers atomic_exchange_explicit and atomic_fetch_OP_explicit; op
// nil is an exchange.
func c11RMW(op *xcfa.BinOp) func(t *translator, c *call) (value, error) {
	return func(t *translator, c *call) (value, error) {
		mo, err := t.memOrder(c, 2)
		if err != nil {
			return value{}, err
		}
		vs, err := t.values(c, 0, 1)
		if err != nil {
			return value{}, err
		}
		arg := vs[1].e
		tags := c11Tags(mo, true)
		old := t.rmw(c, vs[0], tags, tags, []xcfa.Expr{arg}, true, func(old xcfa.Expr) xcfa.Expr {
			if op == nil {
				return arg
			}
			return xcfa.Binary{Op: *op, X: old, Y: arg}
		})
		return value{e: xcfa.Reg{Name: old}, ptr: max(vs[0].ptr-1, 0)}, nil
	}
}

func c11CAS(explicit, strong bool) func(t *translator, c *call) (value, error) {
	return func(t *translator, c *call) (value, error) {
		succ, fail := "SC", "SC"
		if explicit {
			var err error
			if succ, err = t.memOrder(c, 3); err != nil {
				return value{}, err
			}
			if fail, err = t.memOrder(c, 4); err != nil {
				return value{}, err
			}
		}
		// herd evaluates the expected location, then the object, then
		// reads the expected value, each after the other: in sequence.
		// The expected value: *exp read non-atomically, or a register &r.
		var expAddr xcfa.Expr
		var expected xcfa.Expr
		expReg := ""
		if u, ok := unparen(c.args[1]).(*cast.UnaryExpr); ok && u.Op == "&" {
			if n, ok := unparen(u.X).(*cast.Ident); ok {
				expReg = n.Name
				expected = xcfa.Reg{Name: expReg}
			}
		}
		if expReg == "" {
			ea, err := t.value(c.args[1])
			if err != nil {
				return value{}, err
			}
			expAddr = ea.e
		}
		obj, err := t.value(c.args[0])
		if err != nil {
			return value{}, err
		}
		if expReg == "" {
			tmp := t.temp()
			t.emit(xcfa.Load{Dst: tmp, Addr: expAddr, Tags: plainTags()}, c.pos)
			expected = xcfa.Reg{Name: tmp}
		}
		res := c.hint
		if res == "" {
			res = t.temp()
		}
		choice := t.cur
		id := t.newRMW()
		// Success: an RMW that reads the expected value and writes des.
		des, err := t.value(c.args[2])
		if err != nil {
			return value{}, err
		}
		old := t.temp()
		tags := c11Tags(succ, true)
		t.emit(xcfa.Load{Dst: old, Addr: obj.e, Tags: tags, RMW: id}, c.pos)
		t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Eq, X: xcfa.Reg{Name: old}, Y: expected}, Internal: true}, c.pos)
		t.emit(xcfa.Store{Addr: obj.e, Value: des.e, Tags: tags, RMW: id, OneEvent: true}, c.pos)
		t.emit(xcfa.Assign{Dst: res, Value: xcfa.Const{Value: 1}}, c.pos)
		end := t.cur
		// Failure: a read with the failure order; the value read goes to
		// the expected location.
		t.cur = choice
		seen := t.temp()
		t.emit(xcfa.Load{Dst: seen, Addr: obj.e, Tags: c11Tags(fail, false)}, c.pos)
		if strong {
			t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: seen}, Y: expected}, Internal: true}, c.pos)
		}
		if expReg != "" {
			t.emit(xcfa.Assign{Dst: expReg, Value: xcfa.Reg{Name: seen}}, c.pos)
		} else {
			t.emit(xcfa.Store{Addr: expAddr, Value: xcfa.Reg{Name: seen}, Tags: plainTags()}, c.pos)
		}
		t.join(end, xcfa.Assign{Dst: res, Value: xcfa.Const{Value: 0}}, c.pos)
		t.cur = end
		return value{e: xcfa.Reg{Name: res}}, nil
	}
}

func c11Fence(t *translator, c *call) (value, error) {
	mo, err := t.memOrder(c, 0)
	if err != nil {
		return value{}, err
	}
	t.emit(xcfa.Fence{Tags: []string{mo, "NA"}}, c.pos)
	return value{}, nil
}

// ---- Messages ----

// msgSend is send(x, v): a write of v to channel x tagged SEND.
func msgSend(t *translator, c *call) (value, error) {
	vs, err := t.values(c, 0, 1)
	if err != nil {
		return value{}, err
	}
	t.emit(xcfa.Store{Addr: vs[0].e, Value: vs[1].e, Tags: []string{"SEND"}}, c.pos)
	return value{}, nil
}

// msgRecv is recv(x): a read of channel x tagged RECV; a receive that gets
// nothing holds events.Nothing (-1).
func msgRecv(t *translator, c *call) (value, error) {
	a, err := t.value(c.args[0])
	if err != nil {
		return value{}, err
	}
	return t.load(c, a, []string{"RECV"}), nil
}

// ---- Linux: herd's internal forms, which the kernel's macros use ----

// fence is __fence{a}.
func fence(t *translator, c *call) (value, error) {
	t.emit(xcfa.Fence{Tags: linuxTags(c.annots, false)}, c.pos)
	return value{}, nil
}

// loadOnce is __load{a}(*p): a read of p annotated a. herd reads
// {deref} and {lderef} as a read once followed by an rb_dep fence.
func loadOnce(t *translator, c *call) (value, error) {
	addr, err := t.derefAddr(c, 0)
	if err != nil {
		return value{}, err
	}
	if len(c.annots) == 1 && (c.annots[0] == "deref" || c.annots[0] == "lderef") {
		v := t.load(c, addr, linuxTags(once(), false))
		t.emit(xcfa.Fence{Tags: linuxTags([]string{"rb_dep"}, false)}, c.pos)
		return v, nil
	}
	return t.load(c, addr, linuxTags(c.annots, false)), nil
}

// storeOnce is __store{a}(*p, v).
func storeOnce(t *translator, c *call) (value, error) {
	addr, err := t.derefAddr(c, 0)
	if err != nil {
		return value{}, err
	}
	v, err := t.value(c.args[1])
	if err != nil {
		return value{}, err
	}
	t.emit(xcfa.Store{Addr: addr.e, Value: v.e, Tags: linuxTags(c.annots, false)}, c.pos)
	return value{}, nil
}

// rmwOrder gives herd's annotations of a Linux read-modify-write
// annotated as c's: the read's and the write's, and whether Mb fences
// surround the pair. herd 7.57 reads mb, acquire and release and takes
// any other annotation as once; purr refuses annotations other than these
// four (the kernel's newer macros, __xchg{MB} and the like, mean something
// else to a newer herd: with the variant lkmmv2 both accesses carry the
// annotations, without fences).
func rmwOrder(t *translator, c *call) (r, w []string, mb bool, err error) {
	if t.lkmmv2 {
		// The variant lkmmv2: both accesses carry the annotations, and no
		// fence surrounds them (the bell's MB set orders them).
		return c.annots, c.annots, false, nil
	}
	a := strings.Join(c.annots, ",")
	switch a {
	case "mb":
		return once(), once(), true, nil
	case "acquire":
		return c.annots, once(), false, nil
	case "release":
		return once(), c.annots, false, nil
	case "once":
		return once(), once(), false, nil
	}
	return nil, nil, false, errorf(c.pos, "unsupported annotation {%s} on %s: purr reads once, acquire, release and mb (herd7 7.57's orders of an RMW)", a, c.name)
}

// mbFence emits an Mb fence around a read-modify-write, which program
// order orders with the accesses, as in herd ("F[mb] ->po R*[once] ->rmw
// W*[once] ->po F[mb]"): edges not in parallel parts are in sequence
// (xcfa.Edge.Par).
func (t *translator) mbFence(c *call) {
	t.emit(xcfa.Fence{Tags: linuxTags([]string{"mb"}, false)}, c.pos)
}

// xchg is __xchg{a}(p, v): it returns the old value.
// herd evaluates the arguments after the first fence.
func xchg(t *translator, c *call) (value, error) {
	ra, wa, mb, err := rmwOrder(t, c)
	if err != nil {
		return value{}, err
	}
	if mb {
		t.mbFence(c)
	}
	vs, err := t.values(c, 0, 1)
	if err != nil {
		return value{}, err
	}
	v := vs[1].e
	old := t.rmw(c, vs[0], linuxTags(ra, true), linuxTags(wa, true), []xcfa.Expr{v}, false, func(xcfa.Expr) xcfa.Expr { return v })
	if mb {
		t.mbFence(c)
	}
	return value{e: xcfa.Reg{Name: old}, ptr: max(vs[0].ptr-1, 0)}, nil
}

// cmpxchg is __cmpxchg{a}(p, old, new): it returns the value read and
// writes new only when that value is old. A failure reads once (an
// access of the RMW, as herd marks it), without fences. As in herd, each
// outcome evaluates the arguments it needs itself: a success after its
// first fence, a failure the location and old value only.
func cmpxchg(t *translator, c *call) (value, error) {
	ra, wa, mb, err := rmwOrder(t, c)
	if err != nil {
		return value{}, err
	}
	// The result is assigned last on each path: the arguments may read
	// the register it goes to.
	res := c.hint
	if res == "" {
		res = t.temp()
	}
	choice := t.cur
	id := t.newRMW()
	if mb {
		t.mbFence(c)
	}
	vs, err := t.values(c, 0, 1, 2)
	if err != nil {
		return value{}, err
	}
	addr, oldv, newv := vs[0], vs[1].e, vs[2].e
	got := t.temp()
	t.emit(xcfa.Load{Dst: got, Addr: addr.e, Tags: linuxTags(ra, true), RMW: id}, c.pos)
	t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Eq, X: xcfa.Reg{Name: got}, Y: oldv}, Internal: true}, c.pos)
	t.emit(xcfa.Store{Addr: addr.e, Value: newv, Tags: linuxTags(wa, true), RMW: id}, c.pos)
	if mb {
		t.mbFence(c)
	}
	t.emit(xcfa.Assign{Dst: res, Value: xcfa.Reg{Name: got}}, c.pos)
	end := t.cur
	t.cur = choice
	if vs, err = t.values(c, 0, 1); err != nil {
		return value{}, err
	}
	addr, oldv = vs[0], vs[1].e
	seen := t.temp()
	t.emit(xcfa.Load{Dst: seen, Addr: addr.e, Tags: linuxTags(t.failedRead(c), true)}, c.pos)
	t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: seen}, Y: oldv}, Internal: true}, c.pos)
	t.join(end, xcfa.Assign{Dst: res, Value: xcfa.Reg{Name: seen}}, c.pos)
	t.cur = end
	return value{e: xcfa.Reg{Name: res}, ptr: max(addr.ptr-1, 0)}, nil
}

// atomicOpArgs evaluates __atomic_op's value and location arguments.
func (t *translator) atomicOpArgs(c *call) (addr value, v xcfa.Expr, err error) {
	vs, err := t.values(c, 1, 0)
	if err != nil {
		return value{}, nil, err
	}
	return vs[1], vs[0].e, nil
}

// failedRead is the annotation of the read of a failed conditional RMW:
// once, or with the variant lkmmv2 the RMW's own.
func (t *translator) failedRead(c *call) []string {
	if t.lkmmv2 {
		return c.annots
	}
	return once()
}

// atomicOp is the statement __atomic_op(p, op, v): an RMW whose read is
// Noreturn and whose write is Once, without fences. With the variant
// lkmmv2 both carry the call's annotations (__atomic_op{noreturn}), if any.
func atomicOp(t *translator, c *call) (value, error) {
	addr, v, err := t.atomicOpArgs(c)
	if err != nil {
		return value{}, err
	}
	ra, wa := []string{"noreturn"}, once()
	if t.lkmmv2 {
		ra, wa = c.annots, c.annots
	}
	cc := *c
	cc.hint = ""
	t.rmw(&cc, addr, linuxTags(ra, true), linuxTags(wa, true), []xcfa.Expr{v}, false, func(old xcfa.Expr) xcfa.Expr {
		return applyOp(c.op, old, v)
	})
	return value{}, nil
}

// atomicOpReturn is __atomic_op_return{a}(p, op, v) (fetch false: the
// new value) and __atomic_fetch_op{a}(p, op, v) (fetch: the old one).
func atomicOpReturn(fetch bool) func(t *translator, c *call) (value, error) {
	return func(t *translator, c *call) (value, error) {
		ra, wa, mb, err := rmwOrder(t, c)
		if err != nil {
			return value{}, err
		}
		if mb {
			t.mbFence(c) // herd evaluates the arguments after it
		}
		addr, v, err := t.atomicOpArgs(c)
		if err != nil {
			return value{}, err
		}
		cc := *c
		if !fetch || mb {
			cc.hint = "" // the result is computed, or the fence comes first
		}
		old := t.rmw(&cc, addr, linuxTags(ra, true), linuxTags(wa, true), []xcfa.Expr{v}, false, func(old xcfa.Expr) xcfa.Expr {
			return applyOp(c.op, old, v)
		})
		if mb {
			t.mbFence(c)
		}
		var result xcfa.Expr = xcfa.Reg{Name: old}
		if !fetch {
			result = applyOp(c.op, result, v)
		}
		return value{e: result}, nil
	}
}

// addUnless is herd's atomic_add_unless(p, a, u) (retBool: 1 when it
// added, 0 when not) and __atomic_add_unless(p, a, u) (the value read):
// either an RMW once between Mb fences that reads a value other than u and
// adds a to it, or a read once (marked RMW) of u alone. The variant
// lkmmv2 is refused.
func addUnless(retBool bool) func(t *translator, c *call) (value, error) {
	return func(t *translator, c *call) (value, error) {
		if t.lkmmv2 {
			// herd 7.57 has no lkmmv2; what a newer herd's
			// __atomic_add_unless{MB} returns is not documented.
			return value{}, errorf(c.pos, "unsupported %s with the variant lkmmv2 (its result there is not herd7 7.57's)", c.name)
		}
		// The result is assigned last on each path: the arguments may
		// read the register it goes to.
		res := c.hint
		if res == "" {
			res = t.temp()
		}
		tags := once()
		choice := t.cur
		id := t.newRMW()
		// As in herd, each outcome evaluates the arguments it needs: an
		// addition after its first fence, a refusal p and u only.
		t.mbFence(c)
		vs, err := t.values(c, 0, 1, 2)
		if err != nil {
			return value{}, err
		}
		addr, a, u := vs[0], vs[1].e, vs[2].e
		got := t.temp()
		t.emit(xcfa.Load{Dst: got, Addr: addr.e, Tags: linuxTags(tags, true), RMW: id}, c.pos)
		t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: got}, Y: u}, Internal: true}, c.pos)
		t.emit(xcfa.Store{Addr: addr.e, Value: xcfa.Binary{Op: xcfa.Add, X: xcfa.Reg{Name: got}, Y: a}, Tags: linuxTags(tags, true), RMW: id}, c.pos)
		t.mbFence(c)
		var added, refused xcfa.Expr = xcfa.Const{Value: 1}, xcfa.Const{Value: 0}
		if !retBool {
			added = xcfa.Reg{Name: got}
		}
		t.emit(xcfa.Assign{Dst: res, Value: added}, c.pos)
		end := t.cur
		t.cur = choice
		if vs, err = t.values(c, 0, 2); err != nil {
			return value{}, err
		}
		addr, u = vs[0], vs[1].e
		seen := t.temp()
		t.emit(xcfa.Load{Dst: seen, Addr: addr.e, Tags: linuxTags(tags, true)}, c.pos)
		t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Eq, X: xcfa.Reg{Name: seen}, Y: u}, Internal: true}, c.pos)
		if !retBool {
			refused = xcfa.Reg{Name: seen}
		}
		t.join(end, xcfa.Assign{Dst: res, Value: refused}, c.pos)
		t.cur = end
		return value{e: xcfa.Reg{Name: res}}, nil
	}
}

func init() {
	add, sub, or, xor, and := xcfa.Add, xcfa.Sub, xcfa.Or, xcfa.Xor, xcfa.And
	builtins = map[string]builtin{
		// C11, as herd's lexer knows them (the forms without _explicit
		// other than the compare-exchanges come from a macro file, herd's
		// c11.def).
		"atomic_load_explicit":      {2, false, c11Load},
		"atomic_store_explicit":     {3, false, c11Store},
		"atomic_exchange_explicit":  {3, false, c11RMW(nil)},
		"atomic_fetch_add_explicit": {3, false, c11RMW(&add)},
		"atomic_fetch_sub_explicit": {3, false, c11RMW(&sub)},
		"atomic_fetch_or_explicit":  {3, false, c11RMW(&or)},
		"atomic_fetch_xor_explicit": {3, false, c11RMW(&xor)},
		"atomic_fetch_and_explicit": {3, false, c11RMW(&and)},

		"atomic_compare_exchange_strong_explicit": {5, false, c11CAS(true, true)},
		"atomic_compare_exchange_weak_explicit":   {5, false, c11CAS(true, false)},
		"atomic_compare_exchange_strong":          {3, false, c11CAS(false, true)},
		"atomic_compare_exchange_weak":            {3, false, c11CAS(false, false)},
		"SCAS":                                    {3, false, c11CAS(false, true)},
		"WCAS":                                    {3, false, c11CAS(false, false)},
		"atomic_thread_fence":                     {1, false, c11Fence},

		// Messages (docs/protocols.md).
		"send": {2, false, msgSend},
		"recv": {1, false, msgRecv},

		// Linux: herd's internal forms (the kernel's primitives are macros
		// of linux-kernel.def over them). The lock forms (__lock, __unlock,
		// __trylock, __islocked, __srcu) are in locks.go.
		"__fence":             {0, true, fence},
		"__load":              {1, true, loadOnce},
		"__store":             {2, true, storeOnce},
		"__xchg":              {2, true, xchg},
		"__cmpxchg":           {3, true, cmpxchg},
		"__atomic_op":         {2, false, atomicOp},
		"__atomic_op_return":  {2, true, atomicOpReturn(false)},
		"__atomic_fetch_op":   {2, true, atomicOpReturn(true)},
		"__atomic_add_unless": {3, false, addUnless(false)},
		"atomic_add_unless":   {3, false, addUnless(true)},
	}
	maps.Copy(builtins, lockForms)
}
