// Package x86 is the X86 dialect of litmus tests (herd7's X86, 32-bit
// registers, Intel operand order): it parses the program part (thread
// columns "P0 | P1 ;", labels) with its own grammar and translates it into
// an XCFA with herd7's X86 semantics (herd/X86Sem.ml). The test's other
// parts (initial state, condition, locations, hash) go through package
// litmus. Importing the package registers the dialect with litmus.Parse.
//
// Conventions the engine relies on:
//
//   - Registers: EAX, EBX, ECX, EDX, ESI, EDI, EBP, ESP, upper case as
//     herd7 reads them, are XCFA registers of those names; so are the flags
//     ZF, SF and CF, which herd7 keeps as registers. Everything starts at 0
//     unless the initial state says otherwise.
//   - Operands: $n and n are constants, [x] the memory location x, [EAX]
//     and (EAX) the address EAX holds. A memory operand read by an
//     instruction is a Load into a temporary "tmp.N" (never architectural).
//   - Tags (herd's Cat sets): MFENCE, SFENCE and LFENCE are Fence events
//     with that tag. XCHG with a memory operand is herd7's locked exchange:
//     a Load and a Store of the location, both tagged X (herd's set of
//     atomic accesses, which filters.cat calls A) and paired by one RMW
//     id. Other instructions' accesses are plain.
//   - Flags, as herd7 sets them: ADD and XOR write ZF := result == 0,
//     SF := result > 0 (signed), CF := 0; INC and DEC write SF and ZF the
//     same way; CMP a,b writes ZF := a == b, SF := a > b, CF := 0. JE jumps
//     when ZF is non-zero, JNE when ZF^1 is; both are two Assume edges
//     (taken, not taken). JMP is a Nop edge; code after it is unreachable.
//     SETNB writes CF^1; CMOVC r,ea copies ea into r when CF is non-zero
//     (an internal choice, no branch event, as herd7's choiceT).
//   - Refused, with the instruction's position: the LOCK prefix (herd7's
//     locked ADD/INC/... whose atomicity purr does not model), CMPXCHG and
//     MOVSD (herd7 does not implement them), OR and the sized MOVs (herd7
//     parses them but gives them no semantics), XCHG of two memory
//     operands, absolute numeric addresses, symbolic registers and
//     registers herd7's X86 does not have (RAX...: X86_64 is another
//     architecture).
package x86
