// Package c translates the program part of C litmus tests (herd7's C
// dialect: threads "P0(atomic_int *x, int *y) { ... }") into an XCFA, one
// process per thread. It registers itself with package litmus for the
// architecture "C"; import it for that side effect. internal/cparser reads
// the program and macro files into the syntax tree of internal/cast, which
// the translation, the macro expansion and herd7's hash work on.
//
// # Names and macros
//
// Without a macro file purr knows the functions herd7's C lexer knows: the
// C11 _explicit forms, atomic_compare_exchange_* (and SCAS, WCAS),
// atomic_thread_fence, herd's internal Linux forms (__load{a}(*p),
// __store{a}(*p,v), __fence{a}, __xchg{a}(p,v), __cmpxchg{a}(p,o,n),
// __atomic_op(p,op,v), __atomic_op_return{a}(p,op,v),
// __atomic_fetch_op{a}(p,op,v), atomic_add_unless(p,a,u),
// __atomic_add_unless(p,a,u)), and purr's send and recv. Everything else,
// the Linux kernel's READ_ONCE, smp_mb, xchg, atomic_inc..., comes from a
// macro file (herd's -macros, ParseMacros), expanded on the syntax tree
// as herd expands it: a statement macro only as a statement, an expression
// macro only inside an expression, a parameter standing for the argument
// as written. herd's __load and __store take the location *p, so that
// READ_ONCE(X) __load{once}(X) takes READ_ONCE(*x) and smp_load_acquire(X)
// __load{acquire}(*X) takes smp_load_acquire(x). The events of an
// expansion have the position of the call. Casts are dropped, as herd
// drops them; they give a value its pointer depth.
//
// # Registers
//
// A thread's parameters are registers named as the parameters; each holds
// the address of the location of the same name (Process.Params lists them
// in order; the initial state gives them Sym{name}). Local variables are
// registers named as declared. Values the source does not name (a load
// inside an expression, the value a CAS read) go to temporaries named
// "$t1", "$t2", ... which no C program can spell.
//
// # Tags
//
// Tags are the Cat sets herd7 puts the events in (herd's CAction arch sets,
// and for Linux annotations the set a bell file's tag defines: the tag with
// its first letter upper-cased):
//
//   - plain accesses (*x = 1, r = *x): NA;
//   - C11 accesses and fences with a memory order: RLX, CON, ACQ, REL,
//     ACQ_REL or SC; accesses with an order are also in A, fences in NA
//     (herd's NA is "not A": it holds fences and plain accesses);
//   - C11 read-modify-writes (atomic_fetch_*, atomic_exchange*, a CAS that
//     succeeds): a Load and a Store with the same fresh RMW id, both tagged
//     with the order and A and RMW. herd makes ONE event of such an RMW (it
//     is in R, W and RMW at once, and rmw is empty): the engine must fuse a
//     pair whose halves carry A. A CAS that fails reads with the failure
//     order (tags: order and A, not RMW, no RMW id);
//   - Linux accesses and fences: one set per annotation of the internal
//     form (__load{once} reads Once), with NA; {deref} and {lderef} read
//     Once and add an Rb_dep fence. Linux RMWs (__xchg, __cmpxchg,
//     __atomic_op*, atomic_add_unless) are two events, a Load and a Store
//     with the same RMW id, both also in RMW: {mb} surrounds them by Mb
//     fences and accesses Once, {acquire} reads Acquire, {release} writes
//     Release, anything else accesses Once; __atomic_op reads Noreturn and
//     writes Once. A failed cmpxchg or add_unless reads once (Once, NA,
//     RMW) and writes nothing;
//   - Linux fences: Mb, Rmb, Wmb, Rb_dep, Before-atomic, After-atomic,
//     After-spinlock, After-unlock-lock, Rcu-lock, Rcu-unlock, Sync-rcu
//     (the spellings of the Linux kernel memory model's bell file), with NA;
//   - Linux spinlocks and SRCU (locks.go): herd's internal forms __lock,
//     __unlock, __trylock, __islocked and __srcu{...} make xcfa.Mark events
//     (LKR and LKW, UL, LF, RL, RU; Srcu-lock, Srcu-unlock, Sync-srcu), at
//     the lock's location but no loads or stores.
//
// # Control flow
//
// if/else becomes two Assume edges (cond and !cond) that join afterwards;
// while is a cycle: the condition's loads, then Assume(cond) into the body,
// whose end goes back to the loop head, and Assume(!cond) out. A condition
// that is no comparison tests "non-zero", as in herd. A compare-and-swap is
// a choice between its success and its failure paths: a location with two
// edges that are not program branches; the comparison with the expected
// value is an Internal Assume (no control dependency).
//
// atomic_compare_exchange_*(obj, exp, des, ...) follows herd: it first reads
// *exp non-atomically (NA), then either succeeds (an RMW on obj reading the
// expected value and writing des, result 1) or fails (a read of obj with
// the failure order; for the strong forms only when the value differs; the
// value read is written non-atomically to *exp; result 0). When exp is &r
// for a local register r (which herd does not accept) the register plays
// the part of *exp.
//
// Expressions are kept as written, so that address, data and control
// dependencies follow from the registers they read. Memory accesses inside
// one expression are emitted left to right.
package c
