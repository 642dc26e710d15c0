package astcode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// nodeTypes are the concrete types behind the syntax tree's interfaces
// (ast.Expr, ast.Stmt, ast.Cond), by their number in the encoding (0 is
// nil). TestEveryNodeType keeps the list in step with package ast.
var nodeTypes = []reflect.Type{
	nil,
	reflect.TypeFor[*ast.Var](),
	reflect.TypeFor[*ast.Empty](),
	reflect.TypeFor[*ast.Universe](),
	reflect.TypeFor[*ast.Tag](),
	reflect.TypeFor[*ast.SetLit](),
	reflect.TypeFor[*ast.Tuple](),
	reflect.TypeFor[*ast.Binary](),
	reflect.TypeFor[*ast.Unary](),
	reflect.TypeFor[*ast.App](),
	reflect.TypeFor[*ast.Fun](),
	reflect.TypeFor[*ast.LetIn](),
	reflect.TypeFor[*ast.Match](),
	reflect.TypeFor[*ast.MatchSet](),
	reflect.TypeFor[*ast.IfExpr](),
	reflect.TypeFor[*ast.Try](),
	reflect.TypeFor[*ast.Variant](),
	reflect.TypeFor[*ast.Not](),
	reflect.TypeFor[*ast.And](),
	reflect.TypeFor[*ast.Or](),
	reflect.TypeFor[*ast.Compare](),
	reflect.TypeFor[*ast.Let](),
	reflect.TypeFor[*ast.Check](),
	reflect.TypeFor[*ast.Show](),
	reflect.TypeFor[*ast.ShowAs](),
	reflect.TypeFor[*ast.Unshow](),
	reflect.TypeFor[*ast.Include](),
	reflect.TypeFor[*ast.Procedure](),
	reflect.TypeFor[*ast.Call](),
	reflect.TypeFor[*ast.Forall](),
	reflect.TypeFor[*ast.IfVariant](),
	reflect.TypeFor[*ast.MatchStmt](),
	reflect.TypeFor[*ast.With](),
	reflect.TypeFor[*ast.Enum](),
	reflect.TypeFor[*ast.Instructions](),
	reflect.TypeFor[*ast.Debug](),
}

var (
	// nodeNumber inverts nodeTypes, for Encode only (build time, and a
	// model's first run): Decode, on every run, does without.
	nodeNumber = sync.OnceValue(func() map[reflect.Type]uint64 {
		m := map[reflect.Type]uint64{}
		for i, t := range nodeTypes[1:] {
			m[t] = uint64(i + 1)
		}
		return m
	})
	posType = reflect.TypeFor[source.Pos]()
)

// Encode writes f. Positions in the file f.Name are written without the
// name, which Decode puts back: the bytes depend on the file's contents
// only.
func Encode(f *ast.File) ([]byte, error) {
	e := &encoder{file: f.Name, strings: map[string]uint64{}}
	unnamed := *f
	unnamed.Name = ""
	if err := e.value(reflect.ValueOf(&unnamed).Elem()); err != nil {
		return nil, err
	}
	var out []byte
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.buf...), nil
}

type encoder struct {
	file    string
	buf     []byte
	strings map[string]uint64 // index in table, plus 1 (0 is the file's name)
	table   []string
}

func (e *encoder) uint(n uint64) { e.buf = binary.AppendUvarint(e.buf, n) }

func (e *encoder) string(s string) {
	i, ok := e.strings[s]
	if !ok {
		e.table = append(e.table, s)
		i = uint64(len(e.table))
		e.strings[s] = i
	}
	e.uint(i)
}

func (e *encoder) value(v reflect.Value) error {
	switch v.Kind() {
	case reflect.String:
		e.string(v.String())
	case reflect.Bool:
		if v.Bool() {
			e.uint(1)
		} else {
			e.uint(0)
		}
	case reflect.Int:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Slice:
		if v.IsNil() {
			e.uint(0)
			return nil
		}
		e.uint(uint64(v.Len()) + 1)
		for i := range v.Len() {
			if err := e.value(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.uint(0)
			return nil
		}
		e.uint(1)
		return e.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			e.uint(0)
			return nil
		}
		n, ok := nodeNumber()[v.Elem().Type()]
		if !ok {
			return fmt.Errorf("astcode: no number for node type %v", v.Elem().Type())
		}
		e.uint(n)
		return e.value(v.Elem().Elem())
	case reflect.Struct:
		if v.Type() == posType {
			p := v.Interface().(source.Pos)
			if p.File == e.file {
				e.uint(0)
			} else {
				e.string(p.File)
			}
			e.buf = binary.AppendVarint(e.buf, int64(p.Line))
			e.buf = binary.AppendVarint(e.buf, int64(p.Col))
			return nil
		}
		for i := range v.NumField() {
			if err := e.value(v.Field(i)); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("astcode: cannot write a %v", v.Type())
	}
	return nil
}

// errCorrupt is what any malformed input gives.
var errCorrupt = errors.New("astcode: malformed encoding")

// Decode reads what Encode wrote, naming the file name in positions.
func Decode(data []byte, name string) (f *ast.File, err error) {
	d := &decoder{data: data}
	n := d.uint()
	if n > uint64(len(data)) {
		return nil, errCorrupt
	}
	d.table = make([]string, 1, n+1)
	d.table[0] = name
	for range n {
		l := d.uint()
		if d.err != nil || l > uint64(len(d.data)-d.at) {
			return nil, errCorrupt
		}
		d.table = append(d.table, string(d.data[d.at:d.at+int(l)]))
		d.at += int(l)
	}
	f = &ast.File{}
	d.value(reflect.ValueOf(f).Elem())
	if d.err != nil || d.at != len(d.data) {
		return nil, errCorrupt
	}
	f.Name = name
	return f, nil
}

type decoder struct {
	data  []byte
	at    int
	table []string
	err   error
}

func (d *decoder) uint() uint64 { return readVarint(d, binary.Uvarint) }
func (d *decoder) int() int64   { return readVarint(d, binary.Varint) }

// readVarint reads one number with read (binary.Uvarint or Varint).
func readVarint[N uint64 | int64](d *decoder, read func([]byte) (N, int)) N {
	n, k := read(d.data[d.at:])
	if k <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.at += k
	return n
}

func (d *decoder) string() string {
	i := d.uint()
	if i >= uint64(len(d.table)) {
		d.err = errCorrupt
		return ""
	}
	return d.table[i]
}

// value reads into v; after the first error it reads nothing more.
func (d *decoder) value(v reflect.Value) {
	if d.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(d.string())
	case reflect.Bool:
		switch d.uint() {
		case 0:
		case 1:
			v.SetBool(true)
		default:
			d.err = errCorrupt
		}
	case reflect.Int:
		v.SetInt(d.int())
	case reflect.Slice:
		n := d.uint()
		if n == 0 {
			return
		}
		// Every element takes a byte at least: a longer slice is corrupt.
		if n-1 > uint64(len(d.data)-d.at) {
			d.err = errCorrupt
			return
		}
		s := reflect.MakeSlice(v.Type(), int(n-1), int(n-1))
		for i := range int(n - 1) {
			d.value(s.Index(i))
		}
		v.Set(s)
	case reflect.Pointer:
		switch d.uint() {
		case 0:
		case 1:
			p := reflect.New(v.Type().Elem())
			d.value(p.Elem())
			v.Set(p)
		default:
			d.err = errCorrupt
		}
	case reflect.Interface:
		n := d.uint()
		if n == 0 {
			return
		}
		if n >= uint64(len(nodeTypes)) || !nodeTypes[n].Implements(v.Type()) {
			d.err = errCorrupt
			return
		}
		p := reflect.New(nodeTypes[n].Elem())
		d.value(p.Elem())
		v.Set(p)
	case reflect.Struct:
		if v.Type() == posType {
			file := d.string()
			line, col := d.int(), d.int()
			v.Set(reflect.ValueOf(source.Pos{File: file, Line: int(line), Col: int(col)}))
			return
		}
		for i := range v.NumField() {
			d.value(v.Field(i))
		}
	default:
		d.err = fmt.Errorf("astcode: cannot read a %v", v.Type())
	}
}
