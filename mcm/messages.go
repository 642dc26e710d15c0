package mcm

import (
	"slices"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// messageReceives is the Cat name by which a model reads its receives as
// messages (msg.cat binds it; purr's well-formedness rules read it).
const messageReceives = "message-receives"

// checkReadsMessages refuses a test that sends or receives messages under
// a model that does not read them (one that does not include msg.cat):
// its receives would silently be reads of memory, getting the initial
// value where a message was meant. The error names the first send or
// receive, and the model.
func checkReadsMessages(m *cat.Model, t *litmus.Test) error {
	if t.Program == nil || bindsName(m.Stmts, messageReceives) {
		return nil
	}
	for _, p := range t.Program.Procs {
		for _, e := range p.Edges {
			var tags []string
			switch op := e.Op.(type) {
			case xcfa.Load:
				tags = op.Tags
			case xcfa.Store:
				tags = op.Tags
			}
			what := ""
			switch {
			case slices.Contains(tags, "RECV"):
				what = "recv"
			case slices.Contains(tags, "SEND"):
				what = "send"
			default:
				continue
			}
			return source.Errorf(e.Pos, "%s is a message, but the model %q does not read messages: include \"msg.cat\" in it, or run a protocol model (-m udp, -m tcp, -m tcp-buffered; docs/protocols.md)", what, modelName(m))
		}
	}
	return nil
}

// modelName is how a model is named to the user: its title, else its file.
func modelName(m *cat.Model) string {
	if m.Title != "" {
		return m.Title
	}
	return m.Name
}

// bindsName says whether statements, with the files they include, bind
// name at their top level.
func bindsName(stmts []ast.Stmt, name string) bool {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.Let:
			for _, b := range st.Bindings {
				if slices.Contains(b.Names, name) {
					return true
				}
			}
		case *ast.Include:
			if bindsName(st.Stmts, name) {
				return true
			}
		}
	}
	return false
}
