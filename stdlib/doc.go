// Package stdlib embeds purr's own Cat library: the utilities herd7 models
// take for granted, the well-formedness rules of executions, and the
// message-passing patterns for protocol models.
package stdlib
