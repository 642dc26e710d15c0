// Package ppc is the Power dialect of litmus tests (herd7's PPC, as herd7
// reads it): it parses the program part (thread columns "P0 | P1 ;",
// labels) with its own grammar and translates it into an XCFA with herd7's
// Power semantics (herd/PPCSem.ml). Importing the package registers the
// dialect with litmus.Parse.
//
// How Power keeps the contract of package xcfa:
//
//   - Registers: r0 ... r31 (any case, as herd7 reads them) are the XCFA
//     registers r0 ... r31; the initial state and the condition are
//     renamed alike. r0 is a register like the others, except as rA of
//     the indexed forms (lwzx, stwx, lwarx, stwcx., ...), where it reads
//     as 0 with no dependency, and of addi, which is then li: herd7 reads
//     the Power ISA's (rA|0) so.
//   - The condition register: field N is the XCFA register CRN, holding
//     herd7's value of it: 8 (LT), 4 (GT) or 2 (EQ). cmpw and cmpwi set
//     the field they name (cr0 by default); the dotted arithmetic (add.,
//     andi., ...) sets CR0 by comparing the result with 0, beside the
//     result, as herd7 does; stwcx. sets CR0 to EQ when it stores and to
//     0 when not. The conditional branches (beq, bne, blt, bge, bgt, ble,
//     bnl, bng) read a bit of CR0: a control dependency on what set it.
//   - Values are whole 64-bit values, whatever the width (lwz or ld), as
//     herd7 keeps them without its mixed variant: accesses have Size 0.
//     The byte and halfword accesses (lbz, lhz, stb, sth and their
//     indexed forms) are mixed-size, refused by name. herd7 has no
//     semantics for nor, neg, slw, srawi, sraw, bl, blr, mtlr, mflr, lmw
//     and stmw: they are refused; so are mnemonics herd7 does not read.
//   - lwzu and stwu write the address into rA after the access (unless
//     rA is r0, or, for lwzu, rD).
//   - Tags: X holds the accesses of lwarx and stwcx.; a barrier is an
//     event of one tag, SYNC, LWSYNC, EIEIO or ISYNC.
//   - lwarx is a Load tagged X; stwcx. a choice between a Store tagged X
//     and no store, which the engine pairs with the thread's last lwarx
//     at the same address. herd7 keeps the reservation in two registers,
//     RES and RESADDR, and so does purr, for the dependencies they carry:
//     lwarx sets them from its address's registers; stwcx. reads them as
//     data of its store, and writes CR0 and RES after reading all its
//     registers (rS, the address's, RES, RESADDR), so that they depend on
//     all of them, not on the store: a branch on CR0 after stwcx. depends
//     on the lwarx whose value rS holds. A value that depends on a
//     register and not on its value is written v + (r ^ r).
//   - dcbf and com "text" are no-ops, as in herd7.
//   - Control: the conditional branches are branches, b a jump.
package ppc
