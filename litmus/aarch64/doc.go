// Package aarch64 is the AArch64 dialect of litmus tests: it parses the
// program part (thread columns "P0 | P1 ;", labels, the single-thread
// vertical form) with its own grammar and translates it into an XCFA.
// Importing the package registers the dialect with litmus.Parse.
//
// How AArch64 keeps the contract of package xcfa:
//
//   - Registers: Wn and Xn are one XCFA register "Xn". A W write
//     zero-extends (the value is wrapped in zext32); a W read that needs
//     only the low 32 bits of its operands (ADD, EOR, ...) reads Xn raw and
//     truncates the result, other W reads truncate the operand (zext32) or
//     sign-extend it (sext32) where the operation is signed. XZR/WZR read as
//     Const 0; writes to them are dropped. SP is the register "SP". The
//     registers of the test's initial state and condition are renamed the
//     same way (0:W1 and 0:x1 become 0:X1).
//   - Symbolic registers (herd's telechat tests): %r, X%r and W%r are the
//     XCFA register "%r" (W%r its 32-bit view); the state's %r=... (a
//     litmus.SymRegLoc) gives its initial value in every thread.
//   - Flags: a flag-setting instruction (CMP, CMN, TST, ADDS, SUBS, ANDS,
//     BICS, NEGS) assigns its two operands to the pseudo-registers "NZCV.a"
//     and "NZCV.b" (32-bit operands sign-extended to 64 bits; TST/ANDS/BICS
//     put the result in NZCV.a and 0 in NZCV.b). B.cond, CSEL, CSET, ... use
//     a comparison over them that gives the exact architectural condition
//     for the operation that set them (the last flag setter before the
//     reader in the thread's text): after CMP, GE is NZCV.a >= NZCV.b.
//   - Memory accesses: Size is always set: 4 for a W data register, 8 for
//     an X one, 1 and 2 for the B and H forms. A load of Size < 8 zero-extends
//     into its register; the signed forms (LDRSB, ...) follow it with an
//     Assign that sign-extends. A store of Size < 8 writes the low bytes of
//     its Value. Load.Dst is "" when the destination is the zero register.
//     Addresses are Reg Xn, or Xn + offset (byte offsets; [Xn, Wm, SXTW] is
//     Xn + sext32(Xm)). LDP/STP are two accesses at addr and addr+size.
//     Pre- and post-indexing assign the base register after the access.
//   - Tags (herd's Cat set names): LDAR A, LDAPR Q, STLR L, LDXR X, LDAXR
//     A,X, STXR X, STLXR L,X. Atomics: the read of CASA/SWPA/LD<op>A... is A,
//     the write of CASL/SWPL/LD<op>L/ST<op>L is L; a read whose destination
//     is the zero register (CAS WZR,..., SWP ..,WZR,.., LDADD ..,WZR,.., every
//     ST<op>) is tagged NoRet and never A, as herd does. Fences: DMB.SY,
//     DMB.ST, DMB.LD, DMB.ISH, DMB.ISHST, DMB.ISHLD, DMB.NSH..., DMB.OSH...,
//     the same for DSB, and ISB.
//   - Exclusives: LDXR is a Load tagged X. STXR Ws,Rt,[Xn] is the
//     choice of a Store (tags X) followed by Ws:=0, or Ws:=1 with no store.
//   - Atomic pairs: each SWP/LD<op>/ST<op> and each successful CAS gets a
//     fresh non-zero RMW id shared by its Load and Store. SWP and LD<op>
//     always store. CAS Rs,Rt,[Xn] (and CASP) copies Rs to a temporary, then
//     chooses among herd7's four outcomes, each with its own Load: failure
//     twice (old != expected, an Internal Assume; no store; Rs := old),
//     success with Rs := the expected value (herd's DataFromRRs: Rs does not
//     depend on the read) and success with Rs := old (DataFromRx). herd7
//     builds every outcome twice and counts both, which these four
//     alternatives reproduce in witness counts.
//   - Control: B and BL are jumps; B.cond, CBZ, CBNZ, TBZ, TBNZ are
//     branches. Relative branches (B .+8) count instructions.
//   - Exclusive pairs: LDXP/LDAXP are two Loads (addr, addr+size) tagged
//     like LDXR/LDAXR; STXP/STLXP is the STXR choice whose success edge is
//     two Stores (addr, addr+size) then Ws:=0. The accesses of one
//     instruction share its Pos: the engine pairs the i-th store of an
//     STXP with the i-th load of the latest load-exclusive.
//   - MRS Xt,NZCV is (N<<31)|(Z<<30)|(C<<29)|(V<<28), each bit the
//     condition expression (MI, EQ, CS, VS) over the last flag setter; 0
//     when no instruction before it sets the flags.
//
// Code addresses (ADR of a code label, BL, BLR, BR, RET):
//
//   - A code position (before the k-th instruction of a thread's text, or
//     its end) has one canonical name: its first source label, else ".k",
//     the Name of its xcfa.Label. Label values of the initial state and
//     of the condition (0:X1=P1:L0) are checked and renamed to canonical
//     names too; an unknown label is an error.
//   - ADR Xd,L (or ADR Xd,.+8) of a code label assigns Xd := Label.
//     BL L assigns X30 := the address of the next instruction, then jumps
//     (a Nop edge). BLR Xn assigns X30 likewise (reading a copy of X30 when
//     n is 30), then jumps indirectly on Xn; BR Xn and RET {Xn} (default
//     X30) jump indirectly. Under herd's Variant=telechat, RET without an
//     operand ends the thread (a Nop edge to Final).
//   - An indirect jump (on Xn) is a program branch even with a single
//     possible target (herd commits a branch event for every BR/BLR/RET). With no possible target
//     it is one "assume 0" edge to a dead location: the path blocks.
//   - Possible targets come from a flow-insensitive analysis of the
//     thread's process: the labels a register may hold through its initial
//     value, ADR, BL/BLR and register copies. A register loaded from memory
//     or computed from an address may hold any taken address: a label of
//     the initial state, of an ADR, or a return address of a BL/BLR.
//   - herd runs the code at an address whoever jumps there, so a thread
//     may run another thread's text (P0 calling a routine of P1). A
//     process then holds a copy of that text, translated again with its own
//     registers; its locations are labelled "P1:L0", its entry is reached
//     only by indirect jumps, and running off its end goes to Final. The
//     edges of indirect jumps come last in Process.Edges.
package aarch64
