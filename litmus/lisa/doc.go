// Package lisa is the LISA dialect of litmus tests: herd7's generic
// instruction set of its tutorial, whose meaning a user's bell and cat
// files give (herd -bell F.bell -model F.cat). It parses the program part
// (thread columns "P0 | P1 ;", labels) with its own grammar and translates
// it into an XCFA with herd7's semantics (herd/BellSem.ml). The test's other
// parts (initial state, condition, locations, hash) go through package
// litmus. Importing the package registers the dialect with litmus.Parse.
//
// How LISA keeps the contract of package xcfa:
//
//   - Registers: r0, r1, ... are XCFA registers of those names (r01 is
//     r1, as herd7 reads it); the initial state and the condition are
//     renamed alike.
//   - Instructions: r[a,b] r1 x reads x into r1; w[a] x r1 (or a number)
//     writes; f[a] is a fence; rmw[a] r1 op x reads x and writes the
//     operation's value there, r1 getting the value read (when the
//     operation names r1, r1 stands there for the value read); b[a] r1 L
//     branches to L when r1 is non-zero, b[a] L always; mov r1 op sets r1.
//     Operations are a value or (add|xor|and|eq|neq x y); values are
//     registers, locations (their addresses) and numbers; addresses are a
//     register or a location, plus a register or a number (x+r2).
//   - Tags (herd's Cat sets): each annotation of an access or fence is a
//     tag named as herd7 names the set the bell declares for it, first
//     letter upper-cased ('once, written r[once], is Once). A branch's
//     annotations make no set (herd7's commit event has none). The read and
//     write of an rmw are paired by one RMW id (herd's rmw, amo and RMW).
//   - Program order, as herd7's po (its iico_data inside an instruction):
//     an rmw whose operation reads the value read (rmw[] r1 (add r1 1) x)
//     reads before it writes; another is herd7's exchange, whose read and
//     write are parallel parts (xcfa.Edge.Par), unordered.
//   - Refused with a position: call (herd7 stops on it), fences with label
//     sets (f[] {L1} {L2}), meta-variables (&k), symbolic registers,
//     numeric addresses, an unknown mnemonic, operands out of place, and
//     the scopes, levels and regions sections herd7 reads after the
//     program's rows (its GPU models' scope trees and memory regions).
package lisa
