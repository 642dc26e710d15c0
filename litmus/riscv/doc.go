// Package riscv is the RISC-V dialect of litmus tests (herd7's RISCV, RV64
// as herd7 reads it): it parses the program part (thread columns "P0 |
// P1 ;", labels) with its own grammar and translates it into an XCFA with
// herd7's RISC-V semantics (herd/RISCVSem.ml). Importing the package
// registers the dialect with litmus.Parse.
//
// How RISC-V keeps the contract of package xcfa:
//
//   - Registers: x0 ... x31 and their ABI names (zero, ra, sp, gp, tp,
//     t0-t6, s0/fp, s1-s9, s11, a0-a7: herd7 reads no s10) are the XCFA
//     registers x0 ... x31; the initial state and the condition are
//     renamed alike. x0 reads as Const 0 (no dependency) and writes to it
//     are dropped, as herd7 does.
//   - Values are whole 64-bit values, whatever the width (w or d), as
//     herd7 keeps them without its mixed variant: accesses have Size 0,
//     and accesses to one location at different offsets are refused as
//     mixed-size (package mcm's check). The byte and halfword accesses
//     (lb, lh, lbu, lhu, sb, sh) are mixed-size, refused by name. herd7
//     has no semantics for sltiu, srli, srai, sltu, srl, sra, bltu,
//     bgeu, amomaxu and amominu: they are refused; so are mnemonics
//     herd7 does not read (mv, jalr, ...).
//   - Tags (herd7's annotation sets): X holds the accesses of LR, SC and
//     the AMOs; Acq, Rel and AcqRel their annotation (.aq, .rl, .aq.rl or
//     .aqrl), which lw.aq, ld.aq, sw.rl and sd.rl carry too. A fence is an
//     event of one tag: Fence.PRED.SUCC (Fence.rw.rw for fence alone),
//     Fence.tso or Fence.i.
//   - LR is a Load tagged X; SC a choice between a Store tagged X with
//     status 0 and status 1 without a store, which the engine pairs with
//     the thread's last LR at the same address.
//   - AMOs are herd7 7.57's one-event atomics: a Load and a Store paired by
//     an RMW id, the Store OneEvent, so that the model sees one event, both
//     read and write (riscv.cat's AMO, R & W), tagged X and annotated as
//     the instruction is. rd gets the value read, with a dependency on the
//     source register too, as herd7's has (x ^ x keeps it). amoswap with
//     rd x0 and amoor or amoadd of x0 are AMOs like the others: herd7
//     7.57 special-cases none of them.
//   - SC's status register: 0 on success, with a dependency on the store
//     (xcfa.Store.Status), as herd7's success write has; 1 on failure.
//   - Control: beq, bne, blt and bge are branches, j a jump.
package riscv
