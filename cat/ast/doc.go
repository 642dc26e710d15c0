// Package ast is the Cat language's syntax tree, with positions, and its
// printer.
//
// A File (what cat.Parse returns) holds statements (Stmt) made of
// expressions (Expr) and conditions (Cond); every node embeds the
// source.Pos where it starts. Builtins (domain, range, fencerel, ...) are
// ordinary names applied with App: the evaluator resolves them. Fprint
// prints any node back as Cat that parses to the same tree.
package ast
