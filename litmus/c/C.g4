// The program part of a C litmus test in herd7's format: thread functions
// P0(int *x, ...) { ... }. The header, the initial state and the final
// condition are parsed by the dialect-independent litmus layer.
//
// Type names are plain identifiers here; the translator checks them against
// the types herd7 knows, so that an unknown type gets a clear message.
grammar C;

program
    : thread* EOF
    ;

// herd7's macro file (-macros FILE.def): NAME(PARAMS) followed by an
// expression (an expression macro) or a block (a statement macro).
macroFile
    : macroDef* EOF
    ;

macroDef
    : IDENT LPAR (IDENT (COMMA IDENT)*)? RPAR (block | expr)
    ;

thread
    : VOID? PROC LPAR (param (COMMA param)*)? RPAR block
    ;

param
    : typeSpec IDENT
    ;

// Qualifiers and type words, then the pointer stars.
typeSpec
    : typeWord+ pointer*
    ;

typeWord
    : CONST
    | VOLATILE
    | ATOMIC
    | VOID
    | TYPE
    | STRUCT IDENT
    | IDENT
    ;

// A cast names a type purr knows, so that it cannot be read as a
// parenthesised expression.
castType
    : (CONST | VOLATILE | ATOMIC)* (TYPE | VOID | STRUCT IDENT)+ pointer*
    ;

pointer
    : STAR (CONST | VOLATILE)*
    ;

block
    : LCURLY statement* RCURLY
    ;

statement
    : block                                                  # blockStmt
    | typeSpec IDENT (ASSIGN expr)? SEMI                     # declStmt
    | IF LPAR expr RPAR statement (ELSE statement)?          # ifStmt
    | WHILE LPAR expr RPAR statement                         # whileStmt
    | DO statement WHILE LPAR expr RPAR SEMI                 # doStmt
    | FOR LPAR init=forClause? SEMI cond=expr? SEMI step=forClause? RPAR statement # forStmt
    | simple SEMI                                            # simpleStmt
    | SEMI                                                   # skipStmt
    ;

// The first and third clauses of a for statement: a declaration with its
// value, an assignment or a call.
forClause
    : typeSpec IDENT ASSIGN expr                             # forDecl
    | simple                                                 # forSimple
    ;

// A call or an assignment: x = e, C's compound assignments and increments
// (purr's: herd7's C has only =).
simple
    : expr (ASSIGN expr)?                                    # exprSimple
    | expr op=(PLUS_ASSIGN | MINUS_ASSIGN | STAR_ASSIGN | SLASH_ASSIGN | PERCENT_ASSIGN
        | AMPER_ASSIGN | PIPE_ASSIGN | CARET_ASSIGN | SHL_ASSIGN | SHR_ASSIGN) expr # compoundSimple
    | expr op=(INCR | DECR)                                  # postfixSimple
    | op=(INCR | DECR) expr                                  # prefixSimple
    ;

// C precedence, loosest last.
expr
    : primary                                                # primaryExpr
    | op=(STAR | AMPER | MINUS | PLUS | BANG | TILDE) expr   # unaryExpr
    | LPAR castType RPAR expr                                # castExpr
    | expr op=(STAR | SLASH | PERCENT) expr                  # binaryExpr
    | expr op=(PLUS | MINUS) expr                            # binaryExpr
    | expr op=(SHL | SHR) expr                               # binaryExpr
    | expr op=(LT | LE | GT | GE) expr                       # binaryExpr
    | expr op=(EQEQ | NEQ) expr                              # binaryExpr
    | expr op=AMPER expr                                     # binaryExpr
    | expr op=CARET expr                                     # binaryExpr
    | expr op=PIPE expr                                      # binaryExpr
    | expr op=ANDAND expr                                    # binaryExpr
    | expr op=OROR expr                                      # binaryExpr
    | <assoc = right> expr QUESTION expr COLON expr          # condExpr
    ;

primary
    : NUMBER                                                 # numberPrimary
    | IDENT annotations? LPAR expr COMMA atomicOp COMMA expr RPAR # atomicOpPrimary
    | IDENT annotations? LPAR (expr (COMMA expr)*)? RPAR     # callPrimary
    | IDENT annotations                                      # annotatedPrimary
    | IDENT                                                  # namePrimary
    | LPAR expr RPAR                                         # parenPrimary
    ;

// herd's internal Linux forms: __load{once}(...), __fence{mb}; ...
annotations
    : LCURLY annotation (COMMA annotation)* RCURLY
    ;

annotation
    : IDENT (MINUS IDENT)*
    ;

// The operator argument of herd's __atomic_op(X,+,V) and friends.
atomicOp
    : PLUS | MINUS | AMPER TILDE | AMPER | PIPE | CARET
    ;

IF       : 'if' ;
ELSE     : 'else' ;
WHILE    : 'while' ;
CONST    : 'const' ;
VOLATILE : 'volatile' ;
ATOMIC   : '_Atomic' ;
VOID     : 'void' ;
STRUCT   : 'struct' ;
// The type names of herd7's C dialect (and the 128-bit integers herd's
// tests use: herd 7.57 itself rejects int128_t, as its test C07 records).
TYPE
    : 'char' | 'short' | 'int' | 'long' | 'signed' | 'unsigned' | '_Bool' | 'bool'
    | 'int8_t' | 'uint8_t' | 'int16_t' | 'uint16_t' | 'int32_t' | 'uint32_t'
    | 'int64_t' | 'uint64_t' | '__int128' | '__int128_t' | '__uint128_t'
    | 'int128_t' | 'uint128_t' | 'intptr_t' | 'uintptr_t'
    | 'atomic_bool' | 'atomic_char' | 'atomic_schar' | 'atomic_uchar'
    | 'atomic_short' | 'atomic_ushort' | 'atomic_int' | 'atomic_uint'
    | 'atomic_long' | 'atomic_ulong' | 'atomic_llong' | 'atomic_ullong'
    | 'atomic_intptr_t' | 'atomic_uintptr_t'
    | 'atomic_t' | 'spinlock_t' | 'mtx_t'
    ;
// Loops herd7 does not know: purr's, for programs with loops (break and
// continue are names in herd's C, as in tests that use a register called
// continue: the translator takes them as statements inside a loop).
FOR      : 'for' ;
DO       : 'do' ;
// Statements herd7 and purr do not know; reserved so that errors can name
// them.
SWITCH   : 'switch' ;
RETURN   : 'return' ;
GOTO     : 'goto' ;

PROC     : 'P' [0-9]+ ;
IDENT    : [A-Za-z_] [A-Za-z_0-9]* ;
NUMBER   : '0' [xX] [0-9a-fA-F]+ | [0-9]+ ;

LPAR     : '(' ;
RPAR     : ')' ;
LCURLY   : '{' ;
RCURLY   : '}' ;
LBRK     : '[' ;
RBRK     : ']' ;
COMMA    : ',' ;
SEMI     : ';' ;
COLON    : ':' ;
QUESTION : '?' ;
ASSIGN   : '=' ;
PLUS_ASSIGN    : '+=' ;
MINUS_ASSIGN   : '-=' ;
STAR_ASSIGN    : '*=' ;
SLASH_ASSIGN   : '/=' ;
PERCENT_ASSIGN : '%=' ;
AMPER_ASSIGN   : '&=' ;
PIPE_ASSIGN    : '|=' ;
CARET_ASSIGN   : '^=' ;
SHL_ASSIGN     : '<<=' ;
SHR_ASSIGN     : '>>=' ;
INCR     : '++' ;
DECR     : '--' ;
EQEQ     : '==' ;
NEQ      : '!=' ;
LE       : '<=' ;
GE       : '>=' ;
SHL      : '<<' ;
SHR      : '>>' ;
LT       : '<' ;
GT       : '>' ;
ANDAND   : '&&' ;
OROR     : '||' ;
PLUS     : '+' ;
MINUS    : '-' ;
STAR     : '*' ;
SLASH    : '/' ;
PERCENT  : '%' ;
AMPER    : '&' ;
PIPE     : '|' ;
CARET    : '^' ;
BANG     : '!' ;
TILDE    : '~' ;
DOT      : '.' ;
ARROW    : '->' ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;
// Anything else is one bad character: the parser reports it.
OTHER         : . ;
