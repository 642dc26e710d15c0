package c

import (
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
	"github.com/purr-mcm/purr/xcfa"
)

// call is one call being translated.
type call struct {
	name   string
	pos    xcfa.Pos
	args   []cparser.IExprContext
	annots []string // herd's internal forms: __load{once}(...)
	hint   string
}

// builtin translates a call; it returns value{} for a call without value.
type builtin struct {
	nargs int
	fn    func(t *translator, c *call) (value, error)
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

// linuxTags are the sets of a Linux access annotated a.
func linuxTags(a string, rmw bool) []string {
	if rmw {
		return []string{annotSet(a), "NA", "RMW"}
	}
	return []string{annotSet(a), "NA"}
}

// annotated is a call without parentheses: __fence{mb}.
func (t *translator) annotated(p *cparser.AnnotatedPrimaryContext, hint string) (value, error) {
	return t.callWith(p.IDENT().GetText(), t.pos(p), nil, p.Annotations(), hint)
}

func (t *translator) call(p *cparser.CallPrimaryContext, hint string) (value, error) {
	return t.callWith(p.IDENT().GetText(), t.pos(p), p.AllExpr(), p.Annotations(), hint)
}

func (t *translator) callWith(name string, pos xcfa.Pos, args []cparser.IExprContext, a cparser.IAnnotationsContext, hint string) (value, error) {
	c := &call{name: name, pos: pos, args: args, hint: hint}
	if a != nil {
		for _, an := range a.AllAnnotation() {
			c.annots = append(c.annots, an.GetText())
		}
	}
	b, ok := builtins[c.name]
	if !ok {
		return value{}, litmus.Errorf(c.pos, "unsupported function %s", c.name)
	}
	if (c.annots != nil) != (strings.HasPrefix(c.name, "__") && !takesNoAnnotation(c.name)) {
		if c.annots == nil {
			return value{}, litmus.Errorf(c.pos, "%s needs annotations: %s{...}(...)", c.name, c.name)
		}
		return value{}, litmus.Errorf(c.pos, "unsupported annotations on %s", c.name)
	}
	if b.nargs >= 0 && len(c.args) != b.nargs {
		return value{}, litmus.Errorf(c.pos, "%s takes %d arguments, not %d", c.name, b.nargs, len(c.args))
	}
	return b.fn(t, c)
}

// memOrder reads argument i, which must name a memory order.
func (t *translator) memOrder(c *call, i int) (string, error) {
	arg := unparen(c.args[i])
	if p, ok := arg.(*cparser.PrimaryExprContext); ok {
		if n, ok := p.Primary().(*cparser.NamePrimaryContext); ok {
			if mo, ok := memoryOrders[n.IDENT().GetText()]; ok {
				return mo, nil
			}
		}
	}
	return "", litmus.Errorf(t.pos(arg), "%s: expected a memory order (memory_order_relaxed, ...), found %s", c.name, arg.GetText())
}

// derefAddr reads an argument written *p (READ_ONCE(*x)) and returns p.
func (t *translator) derefAddr(c *call, i int) (value, error) {
	arg := unparen(c.args[i])
	if u, ok := arg.(*cparser.UnaryExprContext); ok && u.GetOp().GetTokenType() == cparser.CParserSTAR {
		return t.value(u.Expr())
	}
	return value{}, litmus.Errorf(t.pos(arg), "%s: expected *pointer, found %s", c.name, arg.GetText())
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

// values evaluates the arguments with the given indexes, left to right.
func (t *translator) values(c *call, idx ...int) ([]value, error) {
	out := make([]value, len(idx))
	for k, i := range idx {
		v, err := t.value(c.args[i])
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// ---- C11 ----

func c11Load(explicit bool) builtin {
	n := 1
	if explicit {
		n = 2
	}
	return builtin{n, func(t *translator, c *call) (value, error) {
		mo := "SC"
		if explicit {
			var err error
			if mo, err = t.memOrder(c, 1); err != nil {
				return value{}, err
			}
		}
		a, err := t.value(c.args[0])
		if err != nil {
			return value{}, err
		}
		return t.load(c, a, c11Tags(mo, false)), nil
	}}
}

func c11Store(explicit bool) builtin {
	n := 2
	if explicit {
		n = 3
	}
	return builtin{n, func(t *translator, c *call) (value, error) {
		mo := "SC"
		if explicit {
			var err error
			if mo, err = t.memOrder(c, 2); err != nil {
				return value{}, err
			}
		}
		vs, err := t.values(c, 0, 1)
		if err != nil {
			return value{}, err
		}
		t.emit(xcfa.Store{Addr: vs[0].e, Value: vs[1].e, Tags: c11Tags(mo, false)}, c.pos)
		return value{}, nil
	}}
}

// c11RMW covers atomic_exchange and atomic_fetch_OP; op nil is an exchange.
func c11RMW(explicit bool, op *xcfa.BinOp) builtin {
	n := 2
	if explicit {
		n = 3
	}
	return builtin{n, func(t *translator, c *call) (value, error) {
		mo := "SC"
		if explicit {
			var err error
			if mo, err = t.memOrder(c, 2); err != nil {
				return value{}, err
			}
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
	}}
}

func c11CAS(explicit, strong bool) builtin {
	n := 3
	if explicit {
		n = 5
	}
	return builtin{n, func(t *translator, c *call) (value, error) {
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
		obj, err := t.value(c.args[0])
		if err != nil {
			return value{}, err
		}
		// The expected value: *exp read non-atomically, or a register &r.
		var expAddr xcfa.Expr
		var expected xcfa.Expr
		expReg := ""
		if u, ok := unparen(c.args[1]).(*cparser.UnaryExprContext); ok && u.GetOp().GetTokenType() == cparser.CParserAMPER {
			if p, ok := unparen(u.Expr()).(*cparser.PrimaryExprContext); ok {
				if n, ok := p.Primary().(*cparser.NamePrimaryContext); ok {
					expReg = n.IDENT().GetText()
					expected = xcfa.Reg{Name: expReg}
				}
			}
		}
		if expReg == "" {
			ea, err := t.value(c.args[1])
			if err != nil {
				return value{}, err
			}
			expAddr = ea.e
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
		t.proc.AddEdge(t.cur, end, xcfa.Assign{Dst: res, Value: xcfa.Const{Value: 0}}, c.pos)
		t.cur = end
		return value{e: xcfa.Reg{Name: res}}, nil
	}}
}

func c11Fence() builtin {
	return builtin{1, func(t *translator, c *call) (value, error) {
		mo, err := t.memOrder(c, 0)
		if err != nil {
			return value{}, err
		}
		t.emit(xcfa.Fence{Tags: []string{mo, "NA"}}, c.pos)
		return value{}, nil
	}}
}

// ---- Messages ----

// msgSend is send(x, v): a write of v to channel x tagged SEND.
func msgSend() builtin {
	return builtin{2, func(t *translator, c *call) (value, error) {
		vs, err := t.values(c, 0, 1)
		if err != nil {
			return value{}, err
		}
		t.emit(xcfa.Store{Addr: vs[0].e, Value: vs[1].e, Tags: []string{"SEND"}}, c.pos)
		return value{}, nil
	}}
}

// msgRecv is recv(x): a read of channel x tagged RECV; a receive that gets
// nothing holds events.Nothing (-1).
func msgRecv() builtin {
	return builtin{1, func(t *translator, c *call) (value, error) {
		a, err := t.value(c.args[0])
		if err != nil {
			return value{}, err
		}
		return t.load(c, a, []string{"RECV"}), nil
	}}
}

// ---- Linux ----

func linuxFence(a string) builtin {
	return builtin{0, func(t *translator, c *call) (value, error) {
		t.emit(xcfa.Fence{Tags: linuxTags(a, false)}, c.pos)
		return value{}, nil
	}}
}

// linuxLoad reads *p annotated a; deref says the argument is written *p
// (READ_ONCE(*x)) rather than p (smp_load_acquire(x)).
func linuxLoad(a string, deref bool) builtin {
	return builtin{1, func(t *translator, c *call) (value, error) {
		var addr value
		var err error
		if deref {
			addr, err = t.derefAddr(c, 0)
		} else {
			addr, err = t.value(c.args[0])
		}
		if err != nil {
			return value{}, err
		}
		return t.load(c, addr, linuxTags(a, false)), nil
	}}
}

func linuxStore(a string, deref bool) builtin {
	return builtin{2, func(t *translator, c *call) (value, error) {
		var addr value
		var err error
		if deref {
			addr, err = t.derefAddr(c, 0)
		} else {
			addr, err = t.value(c.args[0])
		}
		if err != nil {
			return value{}, err
		}
		v, err := t.value(c.args[1])
		if err != nil {
			return value{}, err
		}
		t.emit(xcfa.Store{Addr: addr.e, Value: v.e, Tags: linuxTags(a, false)}, c.pos)
		return value{}, nil
	}}
}

// linuxRMWTags gives herd's annotations of a Linux RMW ordered a: the read
// and write annotations and whether Mb fences surround the pair.
func linuxRMWTags(a string) (r, w string, mb bool) {
	switch a {
	case "mb":
		return "once", "once", true
	case "acquire":
		return "acquire", "once", false
	case "release":
		return "once", "release", false
	}
	return "once", "once", false
}

func (t *translator) mbFence(c *call) {
	t.emit(xcfa.Fence{Tags: linuxTags("mb", false)}, c.pos)
}

// linuxXchg is xchg{a}(p, v): returns the old value.
func linuxXchg(a string) builtin {
	return builtin{2, func(t *translator, c *call) (value, error) {
		vs, err := t.values(c, 0, 1)
		if err != nil {
			return value{}, err
		}
		ra, wa, mb := linuxRMWTags(a)
		if mb {
			t.mbFence(c)
		}
		v := vs[1].e
		old := t.rmw(c, vs[0], linuxTags(ra, true), linuxTags(wa, true), []xcfa.Expr{v}, false, func(xcfa.Expr) xcfa.Expr { return v })
		if mb {
			t.mbFence(c)
		}
		return value{e: xcfa.Reg{Name: old}, ptr: max(vs[0].ptr-1, 0)}, nil
	}}
}

// linuxCmpxchg is cmpxchg{a}(p, old, new): it returns the value read and
// writes new only when that value is old; a failure reads once, without
// fences.
func linuxCmpxchg(a string) builtin {
	return builtin{3, func(t *translator, c *call) (value, error) {
		vs, err := t.values(c, 0, 1, 2)
		if err != nil {
			return value{}, err
		}
		addr, oldv, newv := vs[0], vs[1].e, vs[2].e
		res := c.hint
		if res == "" {
			res = t.temp()
		}
		ra, wa, mb := linuxRMWTags(a)
		choice := t.cur
		id := t.newRMW()
		if mb {
			t.mbFence(c)
		}
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
		seen := t.temp()
		t.emit(xcfa.Load{Dst: seen, Addr: addr.e, Tags: linuxTags("once", true)}, c.pos)
		t.emit(xcfa.Assume{Cond: xcfa.Binary{Op: xcfa.Ne, X: xcfa.Reg{Name: seen}, Y: oldv}, Internal: true}, c.pos)
		t.proc.AddEdge(t.cur, end, xcfa.Assign{Dst: res, Value: xcfa.Reg{Name: seen}}, c.pos)
		t.cur = end
		return value{e: xcfa.Reg{Name: res}, ptr: max(addr.ptr-1, 0)}, nil
	}}
}

// linuxAtomicOp is atomic_add(v, p) and friends: an RMW whose read is
// Noreturn and whose write is Once. vFirst says the value comes first;
// a nil operand means the constant 1 (atomic_inc).
func linuxAtomicOp(op xcfa.BinOp, vFirst, one bool) builtin {
	n := 2
	if one {
		n = 1
	}
	return builtin{n, func(t *translator, c *call) (value, error) {
		addr, v, err := t.opArgs(c, vFirst, one)
		if err != nil {
			return value{}, err
		}
		t.rmw(c, addr, linuxTags("noreturn", true), linuxTags("once", true), []xcfa.Expr{v}, false, func(old xcfa.Expr) xcfa.Expr {
			return xcfa.Binary{Op: op, X: old, Y: v}
		})
		return value{}, nil
	}}
}

func (t *translator) opArgs(c *call, vFirst, one bool) (value, xcfa.Expr, error) {
	if one {
		addr, err := t.value(c.args[0])
		return addr, xcfa.Const{Value: 1}, err
	}
	ia, iv := 1, 0
	if !vFirst {
		ia, iv = 0, 1
	}
	vs, err := t.values(c, iv, ia)
	if err != nil {
		return value{}, nil, err
	}
	return vs[1], vs[0].e, nil
}

// linuxAtomicOpReturn is atomic_add_return{a} (returns the new value) and
// atomic_fetch_add{a} (returns the old one); cmp, when set, compares the
// new value with 0 (atomic_dec_and_test, atomic_add_negative).
func linuxAtomicOpReturn(a string, op xcfa.BinOp, fetch, vFirst, one bool, cmp *xcfa.BinOp) builtin {
	n := 2
	if one {
		n = 1
	}
	return builtin{n, func(t *translator, c *call) (value, error) {
		addr, v, err := t.opArgs(c, vFirst, one)
		if err != nil {
			return value{}, err
		}
		ra, wa, mb := linuxRMWTags(a)
		if mb {
			t.mbFence(c)
		}
		cc := *c
		if !fetch || cmp != nil {
			cc.hint = "" // the result is computed from the value read
		}
		old := t.rmw(&cc, addr, linuxTags(ra, true), linuxTags(wa, true), []xcfa.Expr{v}, false, func(old xcfa.Expr) xcfa.Expr {
			return xcfa.Binary{Op: op, X: old, Y: v}
		})
		if mb {
			t.mbFence(c)
		}
		var result xcfa.Expr = xcfa.Reg{Name: old}
		if !fetch {
			result = xcfa.Binary{Op: op, X: result, Y: v}
		}
		if cmp != nil {
			result = xcfa.Binary{Op: *cmp, X: result, Y: xcfa.Const{Value: 0}}
		}
		return value{e: result}, nil
	}}
}

// annotated forms: __load{a}(*p), __store{a}(*p, v), __fence{a},
// __xchg{a}(p, v), __cmpxchg{a}(p, old, new).
func underscore(kind string) builtin {
	return builtin{-1, func(t *translator, c *call) (value, error) {
		if len(c.annots) != 1 {
			return value{}, litmus.Errorf(c.pos, "unsupported annotation list {%s} on %s", strings.Join(c.annots, ","), c.name)
		}
		a := c.annots[0]
		var b builtin
		switch kind {
		case "load":
			b = linuxLoad(a, true)
		case "store":
			b = linuxStore(a, true)
		case "fence":
			b = linuxFence(a)
		case "xchg":
			b = linuxXchg(a)
		case "cmpxchg":
			b = linuxCmpxchg(a)
		}
		if len(c.args) != b.nargs {
			return value{}, litmus.Errorf(c.pos, "%s takes %d arguments, not %d", c.name, b.nargs, len(c.args))
		}
		return b.fn(t, c)
	}}
}

func init() {
	add, sub, or, xor, and := xcfa.Add, xcfa.Sub, xcfa.Or, xcfa.Xor, xcfa.And
	eq, lt := xcfa.Eq, xcfa.Lt
	builtins = map[string]builtin{
		"atomic_load_explicit":  c11Load(true),
		"atomic_load":           c11Load(false),
		"atomic_store_explicit": c11Store(true),
		"atomic_store":          c11Store(false),

		"atomic_exchange_explicit":  c11RMW(true, nil),
		"atomic_exchange":           c11RMW(false, nil),
		"atomic_fetch_add_explicit": c11RMW(true, &add),
		"atomic_fetch_sub_explicit": c11RMW(true, &sub),
		"atomic_fetch_or_explicit":  c11RMW(true, &or),
		"atomic_fetch_xor_explicit": c11RMW(true, &xor),
		"atomic_fetch_and_explicit": c11RMW(true, &and),

		"atomic_compare_exchange_strong_explicit": c11CAS(true, true),
		"atomic_compare_exchange_weak_explicit":   c11CAS(true, false),
		"atomic_compare_exchange_strong":          c11CAS(false, true),
		"atomic_compare_exchange_weak":            c11CAS(false, false),
		"atomic_thread_fence":                     c11Fence(),

		// Messages (docs/protocols.md).
		"send": msgSend(),
		"recv": msgRecv(),

		// Linux: herd's kernel macros, with the LKMM's annotation names.
		"READ_ONCE":           linuxLoad("once", true),
		"WRITE_ONCE":          linuxStore("once", true),
		"smp_load_acquire":    linuxLoad("acquire", false),
		"smp_store_release":   linuxStore("release", false),
		"rcu_dereference":     linuxLoad("once", true),
		"rcu_assign_pointer":  linuxStore("release", true),
		"atomic_read":         linuxLoad("once", false),
		"atomic_set":          linuxStore("once", false),
		"atomic_read_acquire": linuxLoad("acquire", false),
		"atomic_set_release":  linuxStore("release", false),

		"smp_mb":                    linuxFence("mb"),
		"smp_rmb":                   linuxFence("rmb"),
		"smp_wmb":                   linuxFence("wmb"),
		"smp_read_barrier_depends":  linuxFence("rb_dep"),
		"smp_mb__before_atomic":     linuxFence("before-atomic"),
		"smp_mb__after_atomic":      linuxFence("after-atomic"),
		"smp_mb__after_spinlock":    linuxFence("after-spinlock"),
		"smp_mb__after_unlock_lock": linuxFence("after-unlock-lock"),
		"rcu_read_lock":             linuxFence("rcu-lock"),
		"rcu_read_unlock":           linuxFence("rcu-unlock"),
		"synchronize_rcu":           linuxFence("sync-rcu"),
		"synchronize_rcu_expedited": linuxFence("sync-rcu"),
		"__load":                    underscore("load"),
		"__store":                   underscore("store"),
		"__fence":                   underscore("fence"),
		"__xchg":                    underscore("xchg"),
		"__cmpxchg":                 underscore("cmpxchg"),
		"atomic_add":                linuxAtomicOp(add, true, false),
		"atomic_sub":                linuxAtomicOp(sub, true, false),
		"atomic_inc":                linuxAtomicOp(add, true, true),
		"atomic_dec":                linuxAtomicOp(sub, true, true),
		"atomic_sub_and_test":       linuxAtomicOpReturn("mb", sub, false, true, false, &eq),
		"atomic_dec_and_test":       linuxAtomicOpReturn("mb", sub, false, true, true, &eq),
		"atomic_inc_and_test":       linuxAtomicOpReturn("mb", add, false, true, true, &eq),
		"atomic_add_negative":       linuxAtomicOpReturn("mb", add, false, true, false, &lt),
	}
	registerLockForms(builtins)
	for _, order := range []struct{ suffix, annot string }{{"", "mb"}, {"_relaxed", "once"}, {"_acquire", "acquire"}, {"_release", "release"}} {
		builtins["xchg"+order.suffix] = linuxXchg(order.annot)
		builtins["cmpxchg"+order.suffix] = linuxCmpxchg(order.annot)
		builtins["atomic_xchg"+order.suffix] = linuxXchg(order.annot)
		builtins["atomic_cmpxchg"+order.suffix] = linuxCmpxchg(order.annot)
		for _, o := range []struct {
			name string
			op   xcfa.BinOp
			one  bool
		}{{"add", add, false}, {"sub", sub, false}, {"inc", add, true}, {"dec", sub, true}} {
			builtins["atomic_"+o.name+"_return"+order.suffix] = linuxAtomicOpReturn(order.annot, o.op, false, true, o.one, nil)
			builtins["atomic_fetch_"+o.name+order.suffix] = linuxAtomicOpReturn(order.annot, o.op, true, true, o.one, nil)
		}
	}
	// The non-explicit C11 fetch operations: atomic_fetch_add is also a
	// Linux name (atomic_fetch_add(v, p)); herd's C11 macros win when the
	// first argument is the location, as in C: decide by argument order at
	// translation time.
	for name, op := range map[string]xcfa.BinOp{"add": add, "sub": sub, "or": or, "xor": xor, "and": and} {
		c11 := c11RMW(false, &op)
		if linux, ok := builtins["atomic_fetch_"+name]; ok {
			builtins["atomic_fetch_"+name] = ambiguousFetch(c11, linux)
		} else {
			builtins["atomic_fetch_"+name] = c11
		}
	}
}

// ambiguousFetch chooses between C11's atomic_fetch_add(p, v) and Linux's
// atomic_fetch_add(v, p): the pointer argument tells which.
func ambiguousFetch(c11, linux builtin) builtin {
	return builtin{2, func(t *translator, c *call) (value, error) {
		if t.isPointer(c.args[1]) && !t.isPointer(c.args[0]) {
			return linux.fn(t, c)
		}
		return c11.fn(t, c)
	}}
}

// isPointer tells whether an expression is a pointer variable.
func (t *translator) isPointer(e cparser.IExprContext) bool {
	if p, ok := unparen(e).(*cparser.PrimaryExprContext); ok {
		if n, ok := p.Primary().(*cparser.NamePrimaryContext); ok {
			return t.ptr[n.IDENT().GetText()] > 0
		}
	}
	return false
}
