// Package eval runs a Cat model over an algebra of event sets and
// relations that is generic over its literals (a Logic): the SAT engine
// evaluates it on the solver's literals, once for every candidate
// execution, and the explicit engine on booleans, once per execution. It
// knows nothing of either engine. Its RetriesRemovable runs a model's
// statements over an abstract algebra instead, to show that removing a
// loop's read-only retries from an execution keeps it consistent.
package eval
