// Package arm is the ARM (AArch32) dialect of litmus tests (herd7's ARM):
// it parses the program part (thread columns "P0 | P1 ;", labels) with its
// own grammar and translates it into an XCFA with herd7's ARM semantics
// (herd/ARMSem.ml). Importing the package registers the dialect with
// litmus.Parse.
//
// How ARM keeps the contract of package xcfa:
//
//   - Registers: R0 ... R12, SP, LR and PC, in upper case as herd7 reads
//     them, are XCFA registers of the same names. herd7's condition flag
//     Z is the register Z, which no test can name: CMP sets it to whether
//     its operands are equal, ADDS, SUBS and ANDS to whether the result
//     is 0; BEQ and BNE branch on it.
//   - Values are whole values; accesses have Size 0, and accesses to one
//     location at different offsets are refused as mixed-size (package
//     mcm's check); the byte and halfword accesses (LDRB, LDRH, STRB, ...)
//     are mixed-size, refused by name.
//   - Instructions (upper or lower case mnemonics): MOV (#k or a
//     register), ADD and SUB (#k or a register), AND (#k), EOR or XOR
//     (registers), the S forms of ADD, SUB and AND, CMP (#k or a
//     register), B, BEQ, BNE, CBZ, CBNZ, LDR and STR ([Rn], [Rn,Rm], or a
//     bare Rn), LDREX and STREX, DMB and DSB with an option (SY, ST, ISH,
//     ISHST, NSH, NSHST, OSH, OSHST), ISB. Immediates are #k or k.
//   - Conditional execution (MOVEQ, MOVNE, LDREQ, LDRNE, STREQ, STRNE) is
//     the instruction's own choice on Z (xcfa.Assume.Internal), as
//     herd7's checkZ is no branch: it makes no control dependency.
//   - Tags (herd7's sets): X holds the accesses of LDREX and STREX; a
//     barrier is an event of one tag, DMB (DMB SY), DMB.ISH, DSB (DSB
//     SY), DMB.ST, DSB.ST or ISB. The other barriers (DSB ISH, and the
//     NSH, OSH and ISHST options) are in no set of herd7's ARM but F:
//     herd's arm.cat orders nothing by them, and neither does purr's.
//   - STREX is a choice between its store (status 0) and no store (status
//     1), which the engine pairs with the thread's last LDREX: without
//     one, or at another address, only the failure executes, as herd7's
//     reservation register makes it.
//   - Symbolic registers (%x0, as diy writes tests) are XCFA registers of
//     their name: herd7 allocates each to a free register of the thread
//     that uses it and hashes the test before, so the executions are the
//     same; the state's %x0=x initialises the register of that thread
//     (asm.Symbolic.Place, which refuses what herd7 refuses and a symbolic
//     register in the condition).
//   - What herd7 reads and purr does not (immediate offsets [Rn,#k], LDA,
//     STL, LDAEX, STLEX, LDRD, LDM, PUSH, POP, MOVW, MOVT, BX, ORR, EORS,
//     shifted registers, the register names IP and FP) is refused at its
//     position.
package arm
