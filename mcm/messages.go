package mcm

import (
	"slices"
	"strings"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/internal/events"
	"github.com/purr-mcm/purr/mcm/outcome"
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

// tagScopes puts each send and receive in the scope of its channel: a
// channel declared with a type in the initial state ({ reliable x; })
// is in the scope the type names, and its messages carry the tag of that
// name, which a model declares as herd's bells do (enum Scopes =
// 'reliable || 'lossy binds Reliable to them). A message whose channel
// the test does not fix (a pointer read from memory) cannot have a scope
// when the test declares some: it is refused.
func tagScopes(t *litmus.Test, u *events.Unfolding) error {
	scope := map[string]string{}
	for _, in := range t.Init {
		if in.Loc.Kind == litmus.GlobalLoc && in.Type != "" && !in.Pointer {
			scope[in.Loc.Name] = ast.TagSet(in.Type)
		}
	}
	if len(scope) == 0 {
		return nil
	}
	for _, e := range u.Events {
		if !e.HasTag("SEND") && !e.HasTag("RECV") || e.Addr == nil {
			continue
		}
		tag := ""
		for i, a := range e.Addr.Dom {
			s, ok := scope[a.Sym]
			if a.Sym == "" || a.Off != 0 || i > 0 && s != tag {
				return source.Errorf(e.Pos, "the channel of this message may be %s: a test that declares scopes must fix each message's channel", describeAddrs(e.Addr.Dom))
			}
			if ok {
				tag = s
			}
		}
		if tag != "" && !e.HasTag(tag) {
			e.Tags = append(slices.Clip(e.Tags), tag)
		}
	}
	return nil
}

func describeAddrs(dom []outcome.Value) string {
	var s []string
	for _, v := range dom {
		if v.Sym == "" {
			s = append(s, v.String())
		} else {
			s = append(s, "&"+v.String())
		}
	}
	return strings.Join(s, " or ")
}
