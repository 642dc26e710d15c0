package cat

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/purr-mcm/purr/cat/ast"
	"github.com/purr-mcm/purr/source"
)

// stripPos returns a deep copy of v's tree with every Pos zeroed, for
// comparing trees up to positions.
func stripPos(v any) any {
	rv := reflect.ValueOf(v)
	out := reflect.New(rv.Type()).Elem()
	copyNoPos(out, rv)
	return out.Interface()
}

var posType = reflect.TypeOf(source.Pos{})

func copyNoPos(dst, src reflect.Value) {
	if src.Type() == posType {
		return
	}
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		n := reflect.New(src.Type().Elem())
		copyNoPos(n.Elem(), src.Elem())
		dst.Set(n)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		n := reflect.New(src.Elem().Type()).Elem()
		copyNoPos(n, src.Elem())
		dst.Set(n)
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				copyNoPos(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyNoPos(n.Index(i), src.Index(i))
		}
		dst.Set(n)
	default:
		dst.Set(src)
	}
}

// sexpr shows an expression's tree shape, for precedence tests.
func sexpr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Var:
		return e.Name
	case *ast.Empty:
		return "0"
	case *ast.Universe:
		return "_"
	case *ast.Tag:
		return "'" + e.Name
	case *ast.SetLit:
		return "{" + list(e.Elems) + "}"
	case *ast.Tuple:
		return "(tuple " + list(e.Elems) + ")"
	case *ast.Binary:
		return fmt.Sprintf("(%s %s %s)", e.Op, sexpr(e.X), sexpr(e.Y))
	case *ast.Unary:
		return fmt.Sprintf("(%s %s)", e.Op, sexpr(e.X))
	case *ast.App:
		return fmt.Sprintf("(app %s %s)", sexpr(e.Fun), sexpr(e.Arg))
	case *ast.Fun:
		return fmt.Sprintf("(fun %s %s)", strings.Join(e.Params, ","), sexpr(e.Body))
	case *ast.LetIn:
		return fmt.Sprintf("(let %d %s)", len(e.Bindings), sexpr(e.Body))
	case *ast.IfExpr:
		return fmt.Sprintf("(if %s %s %s)", ast.String(e.Cond), sexpr(e.Then), sexpr(e.Else))
	case *ast.Try:
		return fmt.Sprintf("(try %s %s)", sexpr(e.X), sexpr(e.Fallback))
	}
	return ast.String(e)
}

func list(es []ast.Expr) string {
	var s []string
	for _, e := range es {
		s = append(s, sexpr(e))
	}
	return strings.Join(s, " ")
}

func typeString(v any) string { return fmt.Sprintf("%T", v) }
