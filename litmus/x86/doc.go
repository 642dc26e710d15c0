// Package x86 is the X86 and X86_64 dialects of litmus tests: herd7's X86
// (32-bit registers, Intel operand order) and X86_64 (AT&T syntax, sized
// instructions). It parses the program part (thread columns "P0 | P1 ;",
// labels) with one grammar for both and translates it into an XCFA with
// herd7's semantics (herd/X86Sem.ml, herd/X86_64Sem.ml); both dialects
// share the translation of the table, labels, jumps and flags. The test's
// other parts (initial state, condition, locations, hash) go through
// package litmus. Importing the package registers both dialects with
// litmus.Parse.
//
// How X86 keeps the contract of package xcfa:
//
//   - Registers: EAX, EBX, ECX, EDX, ESI, EDI, EBP, ESP, upper case as
//     herd7 reads them, are XCFA registers of those names; so are the flags
//     ZF, SF and CF, which herd7 keeps as registers.
//   - Operands: $n and n are constants, [x] the memory location x, [EAX]
//     and (EAX) the address EAX holds. A memory operand read by an
//     instruction is a Load into a temporary.
//   - Tags (herd's Cat sets): MFENCE, SFENCE and LFENCE are Fence events
//     with that tag. XCHG with a memory operand is herd7's locked exchange:
//     a Load and a Store of the location, both tagged X (herd's set of
//     atomic accesses, which filters.cat calls A) and paired by one RMW
//     id (herd's rmw and amo); so are the read and the write of memory of
//     ADD, XOR, INC and DEC after LOCK. Other instructions' accesses are
//     plain.
//   - Program order, as herd7's po (its iico_data inside an instruction):
//     an instruction's read of memory is before its write when the write's
//     value comes from it (ADD, INC, ...); an exchange's read and write are
//     parallel parts (xcfa.Edge.Par), unordered, as herd7 relates them by
//     control only. herd 7.57's x86tso.cat then lets an XCHG read a write
//     that its own write precedes in co; purr's models do not.
//   - Flags, as herd7 sets them: ADD and XOR write ZF := result == 0,
//     SF := result > 0 (signed), CF := 0; INC and DEC write SF and ZF the
//     same way; CMP a,b writes ZF := a == b, SF := a > b, CF := 0. JE jumps
//     when ZF is non-zero, JNE when ZF^1 is; JMP is a jump.
//     SETNB writes CF^1; CMOVC r,ea copies ea into r when CF is non-zero
//     (an internal choice, no branch event, as herd7's choiceT).
//   - CMPXCHG ea,r, which herd7's X86 does not implement, has herd7's
//     X86_64 semantics with EAX as the accumulator (see X86_64 below).
//   - Refused, with the instruction's position: LOCK before any other
//     instruction (herd7 would lock any; the processor only those), MOVSD
//     (herd7 does not implement it), indexed addresses and segment
//     prefixes (X86_64's), OR and the sized MOVs (herd7
//     parses them but gives them no semantics), any instruction with
//     two memory operands (herd7 would read them in parallel), absolute numeric
//     addresses, symbolic registers and registers herd7's X86 does not have (RAX...: X86_64 is another
//     architecture).
//
// How X86_64 keeps it:
//
//   - Registers: every view of a 64-bit register (rax, eax, ax, al, ah;
//     r8, r8d, r8w, r8b; any case, with or without %) is the XCFA
//     register of its 64-bit name in lower case ("rax"); the flags are ZF,
//     SF and CF as in X86. A read of a view keeps its bits (low32(rax),
//     low8(rax >> 8) for ah: herd7 clears the bits above, which an address
//     does not have: refused); a write, as herd7's write_reg, replaces the
//     register for a 32-bit or 64-bit view and only its part for a 16-bit
//     or 8-bit one, without masking the value (herd7 does not). The
//     initial state and the condition name registers by their 64-bit
//     names (0:RAX and 0:rax are rax); another name is refused.
//   - Sizes: the suffix b, w, l, q or none gives an instruction's size.
//     What it reads (memory or register) keeps that many bits (none keeps
//     64, as herd7's INSb); immediates are not masked. Memory accesses are
//     word accesses (Size 0: herd7 without -variant mixed keeps whole
//     values in memory); the translator checks that a program accessing
//     memory with several sizes (none counts as 4 bytes, herd7's Word)
//     never accesses one location (x) with two of them, and refuses any
//     access through a register in such a program.
//   - Operands, AT&T order (destination last): $n and n are constants,
//     (x) and [x] the location x, (%rax), [%rax] and 8(%rax) the address
//     rax holds, plus the displacement, and 8(%rax,%rcx,4) that address
//     plus the index register's view times the scale (herd7's Rm64_scaled:
//     a scale of 0 adds nothing). A %cs: prefix leaves an address as it
//     is (memory is flat); other segments are refused, as herd7 has the one
//     segment register cs. rip and cs are registers like rax (herd7's
//     X86_64 keeps them as such), in states and operands.
//   - Instructions: MOV, ADD, XOR, OR, AND, SHL (flags ZF := result == 0,
//     SF := result > 0, CF := 0), INC and DEC (SF, ZF), CMP op,ea (ZF :=
//     ea == op, SF := ea > op, CF := 0), SETNB (the whole location := CF^1),
//     CMOVC r,ea (an internal choice on CF), XCHG (with memory: a Load and a
//     Store tagged X, paired by an RMW id, LOCK or not), CMPXCHG ea,r in
//     herd7's operand order (ZF := ea == rax; equal: ea := r, else rax :=
//     ea; two paths from a choice point, the read and the write parallel
//     parts), LOCK before ADD, XOR, INC, DEC and CMPXCHG (their memory
//     accesses tagged X and paired), the fences (Fence tagged MFENCE,
//     SFENCE, LFENCE), NOP, ENDBR64 (a no-op), JMP and the conditional
//     jumps on herd7's conditions: JE ZF, JNE !ZF, JLE !SF, JLT ZF|!SF,
//     JGE ZF|SF, JGT SF, JS SF, JNS !SF.
//   - Refused with a position: MOVNTI, UXCH, a LOCK herd7 refuses, two
//     memory operands, symbolic registers, addresses in narrower registers
//     or in rip and cs, segments other than cs, a displacement on a
//     symbol, numeric addresses, mixed sizes.
package x86
