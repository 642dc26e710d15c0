// Package mips is the MIPS dialect of litmus tests (herd7's MIPS): it
// parses the program part (thread columns "P0 | P1 ;", labels) with its
// own grammar and translates it into an XCFA with herd7's MIPS semantics
// (herd/MIPSSem.ml). Importing the package registers the dialect with
// litmus.Parse.
//
// How MIPS keeps the contract of package xcfa:
//
//   - Registers: $0 ... $31 and their ABI names ($zero, $at, $v0, $v1,
//     $a0-$a3, $t0-$t9, $s0-$s7, $k0, $k1, $gp, $sp, $fp, $ra), and the
//     O64 ABI's $a4-$a7, the ABI names with or without their dollar as
//     herd7 reads them, are the XCFA registers $0 ... $31, $a4 ... $a7
//     (herd7's printing); the initial state and the condition are renamed
//     alike. $0 reads as Const 0 (no dependency) and writes to it
//     are dropped, as herd7 does.
//   - Values are whole values: accesses have Size 0, and accesses to one
//     location at different offsets are refused as mixed-size (package
//     mcm's check); the byte, halfword and doubleword accesses (lb, lbu,
//     lh, lhu, sb, sh, ld, sd) are mixed-size, refused by name.
//   - Instructions: nop, li, move, add, addu, daddu, sub, subu, slt, sltu,
//     and, or, xor, nor and their immediate forms (addi, addiu, daddiu,
//     subi, subiu, slti, sltiu, andi, ori, xori), b, beq, bne, blez, bgtz,
//     bltz, bgez, lw, sw, ll, sc, sync. herd7 gives the unsigned forms the
//     plain operation (sltu compares signed) and takes an immediate's low
//     16 bits: purr reads arithmetic immediates from -32768 to 32767, li's
//     and the logical ones' from 0 to 65535, and refuses others; lui, jr,
//     dsll and dext are refused too.
//   - Tags (herd7's sets): X holds the accesses of LL and SC; sync is an
//     event of the one tag SYNC.
//   - sc is a choice between its store (status 1, herd7's success) and no
//     store (status 0), which the engine pairs with the thread's last LL:
//     without one, or at another address, only the failure executes, as
//     herd7's reservation register makes it.
//   - Symbolic registers (%x0, as diy writes tests) are XCFA registers of
//     their name: herd7 allocates each to a free register ($2 ... $25) of
//     the thread that uses it and hashes the test before, so the
//     executions are the same; the state's %x0=x initialises the register
//     of that thread (asm.Symbolic.Place, which refuses what herd7 refuses
//     and a symbolic register in the condition).
//   - Control: beq, bne, blez, bgtz, bltz and bgez are branches, b a jump.
package mips
