// Package bpf is the BPF dialect of litmus tests (herd7's BPF): it parses
// the program part (thread columns "P0 | P1 ;", labels) with its own
// grammar and translates it into an XCFA with herd7's BPF semantics
// (herd/BPFSem.ml). The test's other parts (initial state, condition,
// locations, hash) go through package litmus. Importing the package
// registers the dialect with litmus.Parse.
//
// How BPF keeps the contract of package xcfa:
//
//   - Registers: r0 ... r10 (also written R0 ... R10, and fp or FP for
//     r10) are XCFA registers named r0 ... r10; the initial state and the
//     condition are renamed alike.
//   - Memory operands (uN *)(r + k): the address r holds. herd7 without
//     its mixed-size variant treats each location as one cell, and so
//     does purr: the width is parsed and hashed, not modelled.
//   - Tags (herd's annotation sets): X holds every atomic access and SC
//     the fully ordered ones; load_acquire's read is AQ, store_release's
//     write RL. Plain loads and stores carry none.
//   - Atomics: atomic_fetch_add/_and/_or/_xor and xchg_64/xchg_32_32
//     (tags X, SC) and lock *(uN *)(r + k) op= rs (tag X) are herd7's
//     one-event atomics (its Amo action, both read and write): a Load and
//     a Store paired by one RMW id, the Store marked OneEvent, which the
//     engines fuse into one event for the model. The value read goes to
//     the source register (fetch, xchg), where herd7 writes it whatever
//     register the instruction names on the left.
//   - cmpxchg_64 and cmpxchg32_32 are herd7's linux_cmpexch_ok and _no: on
//     success a Load and a Store tagged X and SC, two events of one rmw
//     pair (an internal assumption that the value read equals r0), the
//     read before the write in program order (xcfa.Program.OrderedInstrs:
//     herd7's po includes the instruction's iico); on failure a plain Load
//     of another value. r0 gets the value read: herd7 compares with r0 and
//     writes r0 whatever registers the instruction names for them, and so
//     does purr (herd7's printing of the instruction, the hash's, shows
//     it).
//   - Control: "if r cond x goto L" is a branch, goto L a jump.
//   - Refused, with the position: offsets other than 0 (purr's locations
//     are whole cells), s>>= and the atomic operators herd7 does not
//     implement, functions other than herd7's, names that are no register
//     of herd7's BPF.
package bpf
