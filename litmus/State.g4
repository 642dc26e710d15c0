// The dialect-independent parts of a litmus test: the initial state (the
// text between the braces) and the final part (locations, filter and the
// condition). Shared by every dialect; the program part has its own grammar.
grammar State;

// ---- initial state ----

initBlock
    : SEMI* (initItem (SEMI+ initItem)* SEMI*)? EOF
    ;

initItem
    : ATOMIC? typeName=NAME star=STAR? leftLoc (EQ AMPER? initValue)?   # typedInit
    | star=STAR leftLoc (EQ AMPER? initValue)?                          # untypedPointerInit
    | typeName=NAME arrayName=NAME LBRK NUM RBRK (EQ LCURLY valueList RCURLY)? # arrayInit
    | arrayName=NAME LBRK NUM RBRK EQ initValue                         # arrayCellInit
    | leftLoc (EQ AMPER? initValue)?                                     # plainInit
    ;

initValue
    : value
    | macro=NAME LPAR value RPAR
    | INSTR
    | NOP
    | PROC COLON NAME
    ;

// ---- final part ----

constraints
    : locationsClause? filterClause? constr SEMI? withClause? EOF
    ;

// herd's old form "final (...); with tso: ~exists;": the kinds the test
// expects under named models, which herd7 reads and ignores.
withClause
    : WITH kind (SEMI kind)* SEMI?
    ;

kind
    : NAME COLON (FORALL | EXISTS | NOT EXISTS)
    ;

locationsClause
    : LOCATIONS LBRK (locItem (SEMI locItem)* SEMI?)? RBRK
    ;

locItem
    : condLoc typeName=NAME? STAR?
    | fault
    ;

filterClause
    : FILTER prop
    ;

constr
    : FORALL prop        # forallConstr
    | EXISTS prop        # existsConstr
    | NOT EXISTS prop    # notExistsConstr
    | FINAL prop         # finalConstr
    | LPAR prop RPAR     # bareConstr
    |                    # noConstr
    ;

// Precedence follows herd: not binds tightest, then =>, then /\, then \/.
prop
    : NOT prop                       # notProp
    | <assoc = right> prop IMPLIES prop # impliesProp
    | prop AND prop                  # andProp
    | prop OR prop                   # orProp
    | LPAR prop RPAR                 # parenProp
    | TRUE                           # trueProp
    | FALSE                          # falseProp
    | atom                           # atomProp
    ;

atom
    : condLoc cmp=(EQ | EQEQ | NEQ) condValue   # valueAtom
    | fault                                    # faultAtom
    ;

condValue
    : value
    | LCURLY valueList RCURLY
    | INSTR
    | NOP
    | PROC COLON NAME
    | NUM COLON NAME
    | STAR location
    ;

// A location read by the condition: a register, a memory cell, an array cell.
condLoc
    : leftLoc
    | arrayName=NAME LBRK NUM RBRK
    ;

fault
    : FAULT LPAR PROC (COLON NAME)? (COMMA faultArg)* RPAR
    ;

faultArg
    : NAME (COLON NAME)*
    ;

// ---- shared ----

leftLoc
    : location
    | LBRK globalLoc RBRK
    ;

location
    : proc=(PROC | NUM) COLON (NAME | SYMREG)   # regLocation
    | SYMREG                                    # symbolicRegLocation
    | globalLoc                                 # globalLocation
    ;

globalLoc
    : NAME (COLON tag=NAME)?
    ;

valueList
    : value (COMMA value)*
    ;

value
    : NUM                        # numValue
    | NAME (COLON tag=NAME)?     # symValue
    | NAME LBRK NUM RBRK         # indexedSymValue
    | COLON NAME                 # tagValue
    ;

// ---- tokens ----

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

INSTR    : 'instr:"' ~'"'+ '"' ;
NOP      : 'NOP' | 'nop' ;
TRUE     : 'true' ;
FALSE    : 'false' ;
NOT      : 'not' | '~' ;
EXISTS   : 'exists' ;
FORALL   : 'forall' ;
FINAL    : 'final' ;
WITH     : 'with' ;
LOCATIONS: 'locations' ;
FILTER   : 'filter' ;
FAULT    : 'fault' | 'Fault' ;
ATOMIC   : '_Atomic' ;

NUM      : '-'? [0-9]+ | '0' [xX] [0-9a-fA-F]+ ;
PROC     : 'P' [0-9]+ ;
SYMREG   : '%' NAMECHARS ;
NAME     : NAMECHARS ;

fragment NAMECHARS : [a-zA-Z_.$]+ [a-zA-Z0-9_/.\-]* ;

COMMA    : ',' ;
AMPER    : '&' ;
SEMI     : ';' ;
COLON    : ':' ;
LBRK     : '[' ;
RBRK     : ']' ;
LPAR     : '(' ;
RPAR     : ')' ;
LCURLY   : '{' ;
RCURLY   : '}' ;
EQEQ     : '==' ;
NEQ      : '!=' | '<>' ;
IMPLIES  : '=>' ;
EQ       : '=' ;
AND      : '/\\' ;
OR       : '\\/' ;
STAR     : '*' ;
PLUS     : '+' ;
