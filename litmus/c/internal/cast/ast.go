package cast

import (
	"strings"

	"github.com/purr-mcm/purr/source"
)

// Node is any node of the tree; its position is where it starts.
type Node interface {
	Position() source.Pos
}

// Program is the program part of a test: its thread functions in order.
type Program struct {
	Threads []*Thread
}

// Thread is a thread function "P0(int *x, ...) { ... }".
type Thread struct {
	source.Pos        // of the name
	Name       string // "P0"
	Params     []*Param
	Body       *BlockStmt
	// BodyText is the text between the braces exactly as written, which
	// herd7's hash of the test reads.
	BodyText string
}

// Param is a thread parameter: a register holding a location's address.
type Param struct {
	Type *TypeSpec
	Name *Ident
}

// TypeSpec is a declared type: qualifiers and type words, then pointers.
type TypeSpec struct {
	source.Pos
	Words    []*TypeWord
	Pointers int // the number of stars
}

// WordKind says what a type word is.
type WordKind int

const (
	Const    WordKind = iota // const
	Volatile                 // volatile
	Atomic                   // _Atomic
	Void                     // void
	BaseType                 // one of the type names herd7 knows: int, atomic_int, ...
	Struct                   // struct NAME
	Unknown                  // any other identifier
)

// TypeWord is one word of a TypeSpec.
type TypeWord struct {
	source.Pos
	Kind WordKind
	Name string // as written; for Struct the structure's name
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// BlockStmt is "{ ... }".
type BlockStmt struct {
	source.Pos
	Stmts []Stmt
}

// DeclStmt declares a register, "int r = e;" (Init nil without "= e").
type DeclStmt struct {
	source.Pos
	Type *TypeSpec
	Name string
	Init Expr
	Text string // as written, spaces collapsed, no final ";"
}

// IfStmt is "if (Cond) Then else Else" (Else nil without else).
type IfStmt struct {
	source.Pos
	Cond       Expr
	Then, Else Stmt
	CondText   string // as written, spaces collapsed
}

// WhileStmt is "while (Cond) Body".
type WhileStmt struct {
	source.Pos
	Cond     Expr
	Body     Stmt
	CondText string // as written, spaces collapsed
}

// DoStmt is "do Body while (Cond);".
type DoStmt struct {
	source.Pos
	Body     Stmt
	Cond     Expr
	CondText string // as written, spaces collapsed
}

// ForStmt is "for (Init; Cond; Step) Body"; Init, Cond and Step are nil
// when left out.
type ForStmt struct {
	source.Pos
	Init       Stmt // a declaration, an assignment or a call
	Cond       Expr
	Step       Stmt // an assignment or a call
	Body       Stmt
	HeaderText string // "for (...)" as written, spaces collapsed
}

// ExprStmt is an expression as a statement, "f(x);".
type ExprStmt struct {
	source.Pos
	X    Expr
	Text string // as written, spaces collapsed, no final ";"
}

// AssignStmt is "LHS = RHS;".
type AssignStmt struct {
	source.Pos
	LHS, RHS Expr
	Text     string // as written, spaces collapsed, no final ";"
}

// EmptyStmt is ";".
type EmptyStmt struct {
	source.Pos
}

func (*BlockStmt) stmt()  {}
func (*DeclStmt) stmt()   {}
func (*IfStmt) stmt()     {}
func (*WhileStmt) stmt()  {}
func (*DoStmt) stmt()     {}
func (*ForStmt) stmt()    {}
func (*ExprStmt) stmt()   {}
func (*AssignStmt) stmt() {}
func (*EmptyStmt) stmt()  {}

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Ident is a name: a register, a parameter, NULL, a memory order.
type Ident struct {
	source.Pos
	Name string
}

// Number is an integer literal as written: 42, 0x2a.
type Number struct {
	source.Pos
	Text string
}

// CallExpr is a call "f(a, b)", herd's internal forms with annotations
// "__load{once}(*x)" and "__fence{mb}" (no parentheses), and the operator
// form "__atomic_op(x, +, v)".
type CallExpr struct {
	source.Pos // of the name
	Name       string
	Annots     []string // the annotations as written, "srcu-lock"; nil for none
	Args       []Expr
	Op         string     // the operator argument of the operator form, else ""
	OpPos      source.Pos // of Op
	Parens     bool       // false for name{annotations} alone
}

// ParenExpr is "(X)".
type ParenExpr struct {
	source.Pos
	X Expr
}

// CastExpr is "(Type) X".
type CastExpr struct {
	source.Pos
	Type     string // the type's words as written, without spaces
	Pointers int    // the number of stars of the type
	X        Expr
}

// UnaryExpr is "Op X": Op is one of * & - + ! ~.
type UnaryExpr struct {
	source.Pos
	Op string
	X  Expr
}

// BinaryExpr is "X Op Y"; its position is X's.
type BinaryExpr struct {
	source.Pos
	X     Expr
	Op    string
	OpPos source.Pos
	Y     Expr
}

// CondExpr is "Cond ? X : Y".
type CondExpr struct {
	source.Pos
	Cond, X, Y Expr
}

func (*Ident) expr()      {}
func (*Number) expr()     {}
func (*CallExpr) expr()   {}
func (*ParenExpr) expr()  {}
func (*CastExpr) expr()   {}
func (*UnaryExpr) expr()  {}
func (*BinaryExpr) expr() {}
func (*CondExpr) expr()   {}

// MacroFile is a herd7 macro file (-macros FILE.def).
type MacroFile struct {
	Defs []*MacroDef
}

// MacroDef is "NAME(PARAMS) body": an expression macro (Expr) or a
// statement macro (Block).
type MacroDef struct {
	source.Pos // of the name
	Name       string
	Params     []*Ident
	Expr       Expr
	Block      *BlockStmt
}

// Text is e's tokens run together without spaces, as messages quote an
// expression: "atomic_load_explicit(x,memory_order_relaxed)".
func Text(e Expr) string {
	var b strings.Builder
	writeText(&b, e)
	return b.String()
}

func writeText(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Ident:
		b.WriteString(e.Name)
	case *Number:
		b.WriteString(e.Text)
	case *CallExpr:
		b.WriteString(e.Name)
		if e.Annots != nil {
			b.WriteString("{" + strings.Join(e.Annots, ",") + "}")
		}
		if !e.Parens {
			return
		}
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			writeText(b, a)
			if i == 0 && e.Op != "" {
				b.WriteString("," + e.Op)
			}
		}
		b.WriteByte(')')
	case *ParenExpr:
		b.WriteByte('(')
		writeText(b, e.X)
		b.WriteByte(')')
	case *CastExpr:
		b.WriteString("(" + e.Type + ")")
		writeText(b, e.X)
	case *UnaryExpr:
		b.WriteString(e.Op)
		writeText(b, e.X)
	case *BinaryExpr:
		writeText(b, e.X)
		b.WriteString(e.Op)
		writeText(b, e.Y)
	case *CondExpr:
		writeText(b, e.Cond)
		b.WriteByte('?')
		writeText(b, e.X)
		b.WriteByte(':')
		writeText(b, e.Y)
	}
}
