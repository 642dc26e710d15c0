// Package xcfa defines the extended control-flow automaton that litmus tests
// are translated into: processes, locations and edges labelled by
// operations (assignments, assumptions, loads, stores, fences, RMW halves).
//
// # The contract every dialect keeps
//
// A dialect (a package under litmus/ that registers a litmus.Dialect)
// translates a test's program into a Program that the engines read without
// knowing its architecture. Every dialect keeps these rules; its own
// documentation says only how its instructions map onto them.
//
//   - Threads: one Process per thread P0, P1, ..., from Init to Final. Its
//     Edges keep the order of the source, so that walking from Init
//     recovers program order; the source's code labels are Locations
//     (Location.Label).
//   - Registers: an XCFA register has the name the test's initial state
//     and condition use once the dialect has renamed them
//     (litmus.Test.RenameRegisters): the views of one architectural
//     register (AArch64's W1 and X1, X86_64's eax and rax) are one
//     register. Registers named "tmp.N" are the translator's own (an
//     operand read from memory, the expected value of a CAS): never
//     architectural, never in a condition. Registers and memory start at 0
//     unless the initial state says otherwise.
//   - Expressions are kept as written (EOR W2,W0,W0 is an xor of X0 with
//     itself), so that false dependencies survive. Dependencies flow
//     through registers: an address computed from a register a load wrote
//     is an addr dependency, a stored value a data one, the condition of a
//     branch a control one.
//   - Memory: Load and Store at an address expression (Sym, or a register
//     holding an address). Size is in bytes, 0 for the architecture's
//     word; a dialect that does not model mixed sizes keeps whole values
//     in each location, as herd7 does without -variant mixed.
//   - Tags are the Cat sets an event belongs to, spelt as herd7's models
//     spell them (A, L, X, DMB.SY, MFENCE, ACQ, Once); a Fence is an event
//     of its tags alone. X marks herd7's atomic or exclusive accesses: a
//     Load and a Store tagged X and not paired by an RMW id are
//     exclusives, which the engine pairs itself (a store-exclusive is a
//     nondeterministic choice: one edge stores, the other does not). A
//     store-exclusive whose status register depends on its store, as
//     herd7's RISC-V sc's does, names it in Store.Status.
//   - Read-modify-writes: a Load and a Store sharing a fresh non-zero RMW
//     id are one atomic pair; Store.OneEvent makes the pair one event, as
//     herd7 builds its one-event atomics.
//   - Control: a conditional branch is a location left by Assume edges
//     (taken, not taken): a branch event, and a control dependency on the
//     registers of its condition (Assume.Internal and Assume.Commit mark
//     an instruction's own choices). An unconditional jump is a Nop edge;
//     the code after it is a location nothing reaches. Loops stay loops:
//     the engine unrolls them.
//   - Instructions: the dialect numbers them (Process.NewInstr, which
//     keeps the text as written, so that messages quote it) and gives
//     each edge its instruction's number (Edge.Instr): two edges are one
//     instruction exactly when their numbers are equal, whatever their
//     Pos. Program.OrderedInstrs and Edge.Par say how
//     program order relates the events of one instruction;
//     Program.NoBranchEvents says that branches make no events (C).
//   - Code addresses as values are Label constants, one canonical name per
//     code position; an indirect jump is a set of Assume edges
//     "R == Label", one per possible target.
//   - What a dialect does not model (an instruction, an operand form, a
//     herd7 semantics it lacks) is an error at its position, never an
//     approximation. Its Translate also sets the test's HashCode, herd7's
//     printing of the code, for the test's hash.
package xcfa
