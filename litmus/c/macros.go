package c

import (
	"maps"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/litmus/c/internal/cast"
	"github.com/purr-mcm/purr/litmus/c/internal/cparser"
	"github.com/purr-mcm/purr/source"
)

// Macros are the definitions of a herd7 macro file (-macros FILE.def, the
// Linux kernel's linux-kernel.def): NAME(PARAMS) followed by an expression
// (an expression macro, expanded where a call has a value) or a block (a
// statement macro, expanded where a call is a statement). Like herd, purr
// expands them on the syntax tree: a parameter stands for the argument
// expression as written, evaluated where the body uses it (dynamically:
// a name of the body that is no parameter is the caller's register).
type Macros struct {
	file string
	defs map[string]*macro
}

type macro struct {
	name   string
	pos    source.Pos
	params []string
	expr   cast.Expr       // an expression macro's body
	block  *cast.BlockStmt // a statement macro's body
}

// Path is the file the macros come from.
func (m *Macros) Path() string { return m.file }

// Names lists the macros defined, sorted.
func (m *Macros) Names() []string { return slices.Sorted(maps.Keys(m.defs)) }

// ParseMacros reads a herd7 macro file. A later definition of a name
// replaces an earlier one, as in herd.
func ParseMacros(file string, src []byte) (*Macros, error) {
	tree, err := cparser.ParseMacroFile(file, string(src))
	if err != nil {
		return nil, litmusError(err)
	}
	ms := &Macros{file: file, defs: map[string]*macro{}}
	for _, d := range tree.Defs {
		m := &macro{name: d.Name, pos: d.Pos, expr: d.Expr, block: d.Block}
		for _, p := range d.Params {
			if slices.Contains(m.params, p.Name) {
				return nil, errorf(p.Pos, "macro %s has two parameters %s", m.name, p.Name)
			}
			m.params = append(m.params, p.Name)
		}
		ms.defs[m.name] = m
	}
	return ms, nil
}

// frame binds a macro's parameters to the argument expressions of the
// call being expanded; each argument is translated in the frame of the
// call (nil: the thread's own code).
type frame struct {
	args map[string]binding
}

type binding struct {
	expr  cast.Expr
	frame *frame
}

// maxExpansionDepth bounds nested expansions: a macro that calls itself
// would expand forever (herd loops).
const maxExpansionDepth = 64

// lookupMacro finds the macro a call names, if a macro file defines it.
func (t *translator) lookupMacro(name string) *macro {
	if t.macros == nil {
		return nil
	}
	return t.macros.defs[name]
}

// expand translates a call of macro m: its body with the parameters bound
// to the call's arguments. stmt tells whether the call is a statement;
// herd expands a statement macro only as a statement and an expression
// macro only inside an expression.
func (t *translator) expand(m *macro, c *call, stmt bool) (value, error) {
	switch {
	case stmt && m.block == nil:
		return value{}, errorf(c.pos, "macro %s (%s) is an expression: herd7 expands it only where a value is used, not as a statement", m.name, m.pos)
	case !stmt && m.block != nil:
		return value{}, errorf(c.pos, "macro %s (%s) is a statement: herd7 expands it only as a statement, not inside an expression", m.name, m.pos)
	case c.annots != nil:
		return value{}, errorf(c.pos, "unsupported annotations on macro %s", m.name)
	case len(c.args) != len(m.params):
		return value{}, errorf(c.pos, "macro %s (%s) takes %d arguments, not %d", m.name, m.pos, len(m.params), len(c.args))
	case len(t.expanding) >= maxExpansionDepth:
		return value{}, errorf(c.pos, "macro %s: expansions nested too deeply (%s)", m.name, strings.Join(t.expanding, " -> "))
	}
	f := &frame{args: map[string]binding{}}
	for i, p := range m.params {
		f.args[p] = binding{expr: c.args[i], frame: t.frame}
	}
	savedFrame, savedSite := t.frame, t.site
	t.frame = f
	if t.site == nil {
		site := c.pos
		t.site = &site
	}
	t.expanding = append(t.expanding, m.name)
	defer func() {
		t.frame, t.site = savedFrame, savedSite
		t.expanding = t.expanding[:len(t.expanding)-1]
	}()
	var v value
	var err error
	if m.block != nil {
		err = t.block(m.block)
	} else {
		v, err = t.expr(m.expr, c.hint)
	}
	if e, ok := err.(*litmus.Error); ok {
		return value{}, litmus.Errorf(e.Pos, "%s (in macro %s, %s)", e.Msg, m.name, m.pos)
	}
	return v, err
}

// resolve follows parameters to the argument expressions they stand for:
// the expression as the code being expanded has it, without parentheses
// and casts, and the frame to translate it in.
func (t *translator) resolve(e cast.Expr) (cast.Expr, *frame) {
	f := t.frame
	for {
		e = unparen(e)
		name, ok := nameOf(e)
		if !ok || f == nil {
			return e, f
		}
		b, ok := f.args[name]
		if !ok {
			return e, f
		}
		e, f = b.expr, b.frame
	}
}

// nameOf returns the identifier an expression is, if it is one.
func nameOf(e cast.Expr) (string, bool) {
	if n, ok := e.(*cast.Ident); ok {
		return n.Name, true
	}
	return "", false
}

// in translates with frame f current.
func (t *translator) in(f *frame, fn func() (value, error)) (value, error) {
	saved := t.frame
	t.frame = f
	defer func() { t.frame = saved }()
	return fn()
}
