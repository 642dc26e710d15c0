// Package eval runs a Cat model over an algebra of event sets and
// relations that is generic over its literals (a Logic): the SAT engine
// evaluates it on the solver's literals, once for every candidate
// execution, and the explicit engine on booleans, once per execution. It
// knows nothing of either engine. Its analyses read a model's statements
// over abstract values instead: RetriesRemovable and PrefixesRemovable show
// that removing a loop's read-only retries (or an execution's end) keeps
// an execution consistent; ImpliesAcyclicPoRf and ReadWriteOrders what the
// model's acyclic checks certainly order; FlagsSilent that a test's events
// can raise none of its flags.
package eval
