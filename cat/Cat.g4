// The Cat language of herd7 7.57 (memory models and bell files).
//
// Operator precedence, loosest first, as herd7 parses it:
//   |  (right)   ++ (right)   ; (right)   \ (left)   & (right)
//   *  (cartesian, non-associative) with postfix * + ? and prefix ~
//   ^-1 ^+ ^* (postfix, tightest), then application  f x  and atoms.
//   A bare postfix -1 ("r -1") is at the level of + and ?.
// The non-associative level is parsed flat (prodExpr: a primary and its
// suffixes) and checked when the AST is built, so that the grammar stays LL.
grammar Cat;

// ---------------------------------------------------------------- parser

model
    : header options topInstruction* EOF
    ;

header
    : NAME (NAME | STRING)?
    | STRING
    |
    ;

// herd7's model options: catdep, and withco, withoutco, withinit,
// withoutinit (whether herd enumerates coherence orders, and has initial
// writes when it does).
options
    : (CATDEP | WITHCO | WITHOUTCO | WITHINIT | WITHOUTINIT)*
    ;

topInstruction
    : enumDecl
    | instruction
    ;

enumDecl
    : ENUM NAME EQ ALT? TAG (ALT TAG)*
    ;

instruction
    : letInstr
    | matchInstr
    | checkInstr
    | showAsInstr
    | showInstr
    | unshowInstr
    | includeInstr
    | procedureInstr
    | callInstr
    | debugInstr
    | forallInstr
    | withInstr
    | eventsInstr
    | ifInstr
    ;

letInstr
    : LET REC? bindings (WHEN checkTest)? IN?
    ;

matchInstr
    : MATCH expr WITH ALT? insClauses END
    ;

insClauses
    : insClause (ALT insClause)* (ALT UNDERSCORE ARROW instruction*)?
    | UNDERSCORE ARROW instruction*
    ;

insClause
    : TAG ARROW instruction*
    ;

checkInstr
    : checkMode? checkTest
    ;

checkMode
    : UNDEFINED_UNLESS
    | FLAG
    | ASSERT
    ;

checkTest
    : COMP? (ACYCLIC | IRREFLEXIVE | EMPTY) expr (AS NAME)?
    ;

showAsInstr
    : SHOW base AS NAME
    ;

showInstr
    : SHOW NAME (COMMA NAME)*
    ;

unshowInstr
    : UNSHOW NAME (COMMA NAME)*
    ;

includeInstr
    : INCLUDE STRING
    ;

procedureInstr
    : PROCEDURE REC? NAME (LPAR formals? RPAR | pat0) EQ instruction* END
    ;

callInstr
    : CALL NAME simple (AS NAME)?
    ;

debugInstr
    : DEBUG expr
    ;

forallInstr
    : FORALL NAME IN expr DO instruction* END
    ;

withInstr
    : WITH NAME FROM expr
    ;

eventsInstr
    : (INSTRUCTIONS | DEFAULT) NAME LBRAC (base (COMMA base)*)? RBRAC
    ;

ifInstr
    : IF variantCond THEN? instruction* (ELSE instruction*)? END
    ;

bindings
    : binding (AND binding)*
    ;

binding
    : NAME LPAR formals? RPAR EQ expr
    | NAME pat0 EQ expr
    | LPAR formals? RPAR EQ expr
    | pat0 (COMMA pat0)* EQ expr
    ;

formals
    : pat0 (COMMA pat0)*
    ;

pat0
    : NAME
    | UNDERSCORE
    ;

expr
    : LET REC? bindings IN expr                           # letExpr
    | FUN (pat0 | LPAR formals? RPAR) ARROW expr          # funExpr
    | TRY expr WITH expr                                  # tryExpr
    | IF cond THEN expr ELSE expr                         # ifExpr
    | MATCH expr WITH ALT? (tagClauses | setClauses) END  # matchExpr
    | base (COMMA base)*                                  # tupleExpr
    ;

tagClauses
    : tagClause (ALT tagClause)* (ALT UNDERSCORE ARROW expr)?
    | UNDERSCORE ARROW expr
    ;

tagClause
    : TAG ARROW expr
    ;

setClauses
    : emptyClause ALT elemClause
    | elemClause ALT emptyClause
    ;

emptyClause
    : LACC RACC ARROW expr
    ;

elemClause
    : pat0 (BAR pat0)? PLUSPLUS pat0 ARROW expr
    ;

cond
    : variantCond
    | expr (EQ | SUBSET | IN) expr
    ;

variantCond
    : variantAnd (ALT variantAnd)*
    ;

variantAnd
    : variantAtom (LAND variantAtom)*
    ;

variantAtom
    : NOT variantAtom
    | STRING
    | LPAR variantCond RPAR
    ;

// base: every expression except the keyword-led forms and bare tuples.
// The binary operators are parsed flat (fewer parse-tree nodes: this is the
// hot path) and grouped by precedence when the AST is built (parse.go).
base
    : prodExpr ((BAR | PLUSPLUS | SEMI | BACKSLASH | AMP) prodExpr)*
    ;

prodExpr
    : COMP prodExpr
    | primary suffix*
    ;

// A star followed by something that starts an operand is the cartesian
// product (herd7 shifts there); otherwise it is the reflexive-transitive
// closure.
suffix
    : HAT INV
    | HAT PLUS
    | HAT STAR
    | INV                // "r -1": herd's lexer makes "-1" a token
    | PLUS
    | OPT
    | STAR primary?
    ;

primary
    : simple
    | NAME arg*
    ;

arg
    : NAME
    | simple
    ;

simple
    : ZERO                                  # zeroSimple
    | TAG                                   # tagSimple
    | LACC (base (COMMA base)*)? RACC       # setSimple
    | UNDERSCORE                            # universeSimple
    | LPAR RPAR                             # unitSimple
    | LPAR expr RPAR                        # parenSimple
    | BEGIN expr END                        # beginSimple
    | LBRAC expr RBRAC                      # idSimple
    ;

// ----------------------------------------------------------------- lexer

// Keywords come before NAME: at equal length the first rule wins.
LET              : 'let';
REC              : 'rec';
AND              : 'and';
WHEN             : 'when';
ACYCLIC          : 'acyclic';
IRREFLEXIVE      : 'irreflexive';
EMPTY            : 'empty';
SUBSET           : 'subset';
SHOW             : 'show';
UNSHOW           : 'unshow';
AS               : 'as';
FUN              : 'fun';
IN               : 'in';
UNDEFINED_UNLESS : 'undefined_unless';
FLAG             : 'flag';
ASSERT           : 'assert';
INCLUDE          : 'include';
VARIANT          : 'variant';
BEGIN            : 'begin';
END              : 'end';
PROCEDURE        : 'procedure';
CALL             : 'call';
ENUM             : 'enum';
DEBUG            : 'debug';
MATCH            : 'match';
WITH             : 'with';
FORALL           : 'forall';
FROM             : 'from';
DO               : 'do';
TRY              : 'try';
IF               : 'if';
THEN             : 'then';
ELSE             : 'else';
CATDEP           : 'catdep';
WITHCO           : 'withco';
WITHOUTCO        : 'withoutco';
WITHINIT         : 'withinit';
WITHOUTINIT      : 'withoutinit';
INSTRUCTIONS     : 'instructions';
DEFAULT          : 'default';
NOT              : 'not';

LPAR       : '(';
RPAR       : ')';
LACC       : '{';
RACC       : '}';
LBRAC      : '[';
RBRAC      : ']';
UNDERSCORE : '_';
ZERO       : '0';
ALT        : '||';
BAR        : '|';
LAND       : '&&';
AMP        : '&';
STAR       : '*';
COMP       : '~';
PLUSPLUS   : '++';
PLUS       : '+';
HAT        : '^';
INV        : '-1';
BACKSLASH  : '\\';
OPT        : '?';
EQ         : '=';
SEMI       : ';';
COMMA      : ',';
ARROW      : '->';

STRING : '"' ~'"'* '"';
TAG    : '\'' NAME_BODY;
NAME   : NAME_BODY;

fragment NAME_BODY : '_'? [a-zA-Z] [a-zA-Z0-9_.\-]* '\''?;

WS           : [ \t\r\n]+ -> skip;
LINE_COMMENT : ('//' | '#') ~'\n'* -> skip;

// Block comments (* ... *) nest, as in herd7. They are blanked out before
// lexing (see comments.go): herd ends a comment at the first *) that closes
// its outermost (*, which an ANTLR lexer rule cannot say without predicates.
