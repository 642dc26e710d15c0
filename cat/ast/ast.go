package ast

import (
	"strings"

	"github.com/purr-mcm/purr/source"
)

// Node is any syntax tree node; every node knows where it starts.
type Node interface {
	Position() source.Pos
}

// Expr is an expression: a set, a relation, a tag, a tuple, a function...
// Which one is decided by the evaluator; the parser only knows the syntax.
type Expr interface {
	Node
	exprNode()
}

// Stmt is an instruction of a model.
type Stmt interface {
	Node
	stmtNode()
}

// Cond is the condition of an if: a variant test or a comparison.
type Cond interface {
	Node
	condNode()
}

// Patterns. herd binds a single name or a tuple of names: in Params and
// Names below, exactly one element means a single name, any other number
// (including zero, "()") a tuple. "_" is the wildcard that binds nothing.

// ---------------------------------------------------------------- expressions

// Var is a name: a definition, a parameter, or a predefined set, relation or
// function (builtins such as domain, range, fencerel are plain names here).
type Var struct {
	source.Pos
	Name string
}

// Empty is "0", the empty relation (or set: herd decides by use).
type Empty struct{ source.Pos }

// Universe is "_", the universal set (or relation).
type Universe struct{ source.Pos }

// Tag is a tag constant 'name (Name is without the quote).
type Tag struct {
	source.Pos
	Name string
}

// SetLit is an explicit set {e1, ..., en}; {} is the empty set.
type SetLit struct {
	source.Pos
	Elems []Expr
}

// Tuple is (e1, ..., en) with n >= 2, or () with n = 0.
type Tuple struct {
	source.Pos
	Elems []Expr
}

// BinOp is a binary operator.
type BinOp int

// Binary operators, loosest first.
const (
	Union     BinOp = iota // a | b   (right-associative)
	Add                    // a ++ s  (add an element to a set; right-associative)
	Seq                    // a ; b   (composition; right-associative)
	Diff                   // a \ b   (left-associative)
	Inter                  // a & b   (right-associative)
	Cartesian              // A * B   (non-associative)
)

var binOpText = [...]string{Union: "|", Add: "++", Seq: ";", Diff: "\\", Inter: "&", Cartesian: "*"}

func (op BinOp) String() string { return binOpText[op] }

// Binary is X Op Y. Pos is the operator's position.
type Binary struct {
	source.Pos
	Op   BinOp
	X, Y Expr
}

// UnOp is a unary operator.
type UnOp int

// Unary operators.
const (
	Compl   UnOp = iota // ~r   complement
	Star                // r*   reflexive-transitive closure (also r^*)
	Plus                // r+   transitive closure (also r^+)
	Opt                 // r?   reflexive closure
	Inverse             // r^-1
	ToID                // [S]  identity relation on the set S
)

var unOpText = [...]string{Compl: "~", Star: "*", Plus: "+", Opt: "?", Inverse: "^-1", ToID: "[]"}

func (op UnOp) String() string { return unOpText[op] }

// Unary is Op applied to X. Pos is the operator's position (for postfix
// operators too), and the '[' of [S].
type Unary struct {
	source.Pos
	Op UnOp
	X  Expr
}

// App is the application Fun Arg. Arguments are single values as in herd:
// f(a, b) applies f to the Tuple (a, b); f x y is App{App{f, x}, y}.
type App struct {
	source.Pos
	Fun Expr
	Arg Expr
}

// Fun is a function: fun x -> e, fun (x, y) -> e, or the sugar
// let f(x, y) = e, in which case Name is the bound name ("" otherwise).
type Fun struct {
	source.Pos
	Name   string
	Params []string
	Body   Expr
}

// Binding binds Names (see Patterns) to Value. let f(x) = e binds "f" to a
// Fun with Name "f".
type Binding struct {
	source.Pos
	Names []string
	Value Expr
}

// LetIn is let [rec] b1 and ... and bn in Body.
type LetIn struct {
	source.Pos
	Rec      bool
	Bindings []*Binding
	Body     Expr
}

// TagClause is one arm 'tag -> Body of a match.
type TagClause struct {
	source.Pos
	Tag  string
	Body Expr
}

// Match is match X with 'a -> e || ... || _ -> Default end. Default is nil
// when there is no _ arm.
type Match struct {
	source.Pos
	X       Expr
	Clauses []*TagClause
	Default Expr
}

// MatchSet is match X with {} -> Empty || Elem ++ Rest -> NonEmpty end.
// herd also accepts Pre | Elem ++ Rest -> NonEmpty (Pre is "" when absent).
// Elem, Rest and Pre may be "_".
type MatchSet struct {
	source.Pos
	X          Expr
	Empty      Expr
	Pre        string
	Elem, Rest string
	NonEmpty   Expr
}

// IfExpr is if Cond then Then else Else.
type IfExpr struct {
	source.Pos
	Cond       Cond
	Then, Else Expr
}

// Try is try X with Fallback: Fallback's value when evaluating X fails.
type Try struct {
	source.Pos
	X, Fallback Expr
}

func (*Var) exprNode()      {}
func (*Empty) exprNode()    {}
func (*Universe) exprNode() {}
func (*Tag) exprNode()      {}
func (*SetLit) exprNode()   {}
func (*Tuple) exprNode()    {}
func (*Binary) exprNode()   {}
func (*Unary) exprNode()    {}
func (*App) exprNode()      {}
func (*Fun) exprNode()      {}
func (*LetIn) exprNode()    {}
func (*Match) exprNode()    {}
func (*MatchSet) exprNode() {}
func (*IfExpr) exprNode()   {}
func (*Try) exprNode()      {}

// ---------------------------------------------------------------- conditions

// Variant is "name": true when herd's -variant option names it.
type Variant struct {
	source.Pos
	Name string
}

// Not is not X.
type Not struct {
	source.Pos
	X Cond
}

// And is X && Y.
type And struct {
	source.Pos
	X, Y Cond
}

// Or is X || Y.
type Or struct {
	source.Pos
	X, Y Cond
}

// CompareOp is the operator of a Compare condition.
type CompareOp int

// Comparisons.
const (
	Equal    CompareOp = iota // X = Y
	Subset                    // X subset Y
	MemberOf                  // X in Y
)

var compareOpText = [...]string{Equal: "=", Subset: "subset", MemberOf: "in"}

func (op CompareOp) String() string { return compareOpText[op] }

// Compare is X = Y, X subset Y or X in Y (expression-level if only).
type Compare struct {
	source.Pos
	Op   CompareOp
	X, Y Expr
}

func (*Variant) condNode() {}
func (*Not) condNode()     {}
func (*And) condNode()     {}
func (*Or) condNode()      {}
func (*Compare) condNode() {}

// ---------------------------------------------------------------- statements

// Let is let [rec] b1 and ... and bn. When is set for
// let rec ... when acyclic r as name (a check on the fixpoint).
type Let struct {
	source.Pos
	Rec      bool
	Bindings []*Binding
	When     *Check
}

// CheckKind is what a check tests.
type CheckKind int

// Check kinds.
const (
	Acyclic CheckKind = iota
	Irreflexive
	IsEmpty
)

var checkKindText = [...]string{Acyclic: "acyclic", Irreflexive: "irreflexive", IsEmpty: "empty"}

func (k CheckKind) String() string { return checkKindText[k] }

// CheckMode says what a failed check means.
type CheckMode int

// Check modes.
const (
	Require         CheckMode = iota // plain check: the execution is forbidden
	Flag                             // flag: the execution is flagged, not forbidden
	UndefinedUnless                  // undefined_unless: undefined behaviour
	Assert                           // assert: an error in the test
)

var checkModeText = [...]string{Require: "", Flag: "flag", UndefinedUnless: "undefined_unless", Assert: "assert"}

func (m CheckMode) String() string { return checkModeText[m] }

// Check is [flag|undefined_unless|assert] [~]acyclic|irreflexive|empty X [as Name].
// Negated is the ~ before the kind. Name is "" without as.
type Check struct {
	source.Pos
	Mode    CheckMode
	Negated bool
	Kind    CheckKind
	X       Expr
	Name    string
}

// Show is show a, b, ...
type Show struct {
	source.Pos
	Names []string
}

// ShowAs is show X as Name.
type ShowAs struct {
	source.Pos
	X    Expr
	Name string
}

// Unshow is unshow a, b, ...
type Unshow struct {
	source.Pos
	Names []string
}

// Include is include "Path". In a File from cat.Parse only Path is set. In
// a cat.Model, Resolved is the file found and Stmts its resolved
// statements, or nil when that file was certainly included before on every
// path to here.
// herd includes a file at most once per run: an evaluator keeps the set of
// files already included and skips an Include whose Resolved is in it (an
// include under an if may be expanded at several places).
type Include struct {
	source.Pos
	Path     string
	Resolved string
	Stmts    []Stmt
}

// Procedure is procedure [rec] Name(Params) = Body end.
type Procedure struct {
	source.Pos
	Rec    bool
	Name   string
	Params []string
	Body   []Stmt
}

// Call is call Name Arg [as As]; call p(a, b) passes the Tuple (a, b).
type Call struct {
	source.Pos
	Name string
	Arg  Expr
	As   string
}

// Forall is forall Var in Set do Body end.
type Forall struct {
	source.Pos
	Var  string
	Set  Expr
	Body []Stmt
}

// IfVariant is the instruction if Cond [then] Then [else Else] end.
type IfVariant struct {
	source.Pos
	Cond Cond
	Then []Stmt
	Else []Stmt
}

// StmtClause is one arm 'tag -> Body of an instruction-level match.
type StmtClause struct {
	source.Pos
	Tag  string
	Body []Stmt
}

// MatchStmt is the instruction match X with 'a -> ins || _ -> ins end.
// HasDefault tells whether there is a _ arm (whose body may be empty).
type MatchStmt struct {
	source.Pos
	X          Expr
	Clauses    []*StmtClause
	HasDefault bool
	Default    []Stmt
}

// With is with Var from Set: one evaluation of the rest of the model per
// element of Set, with Var bound to it.
type With struct {
	source.Pos
	Var string
	Set Expr
}

// Enum is the bell declaration enum Name = 'a || 'b ... It also binds,
// for each tag, the set of the events annotated with it, named by TagSet.
type Enum struct {
	source.Pos
	Name string
	Tags []string
}

// TagSet names the set of the events annotated with a bell tag, as herd7
// names it: the tag with its first letter upper-cased ('srcu-lock defines
// Srcu-lock, 'once defines Once).
func TagSet(tag string) string {
	if tag == "" {
		return tag
	}
	return strings.ToUpper(tag[:1]) + tag[1:]
}

// Instructions is the bell declaration instructions Name[Args] (or
// default Name[Args] when Default is set).
type Instructions struct {
	source.Pos
	Default bool
	Name    string
	Args    []Expr
}

// Debug is debug X.
type Debug struct {
	source.Pos
	X Expr
}

func (*Let) stmtNode()          {}
func (*Check) stmtNode()        {}
func (*Show) stmtNode()         {}
func (*ShowAs) stmtNode()       {}
func (*Unshow) stmtNode()       {}
func (*Include) stmtNode()      {}
func (*Procedure) stmtNode()    {}
func (*Call) stmtNode()         {}
func (*Forall) stmtNode()       {}
func (*IfVariant) stmtNode()    {}
func (*MatchStmt) stmtNode()    {}
func (*With) stmtNode()         {}
func (*Enum) stmtNode()         {}
func (*Instructions) stmtNode() {}
func (*Debug) stmtNode()        {}

// ---------------------------------------------------------------- files

// File is one parsed source file, includes not followed.
type File struct {
	Name string // file name as given to cat.Parse
	// Header: herd's optional first line, an architecture name and/or a
	// quoted title. A single name sets both Arch and Title to it.
	Arch, Title string
	CatDep      bool // the catdep option: the model defines dependencies
	Stmts       []Stmt
}
