// The program part of an AArch64 litmus test: the shared table of threads
// (Table.g4), whose instructions are parsed generically (a mnemonic and
// operands); the translator gives them meaning, so that an unknown
// mnemonic is reported as unsupported rather than as a syntax error.
grammar AArch64;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : NAME (operand (COMMA operand)*)?
    ;

operand
    : HASH? NUM                            # immOperand
    | NAME HASH? NUM                       # shiftOperand
    | NAME SYMREG?                         # nameOperand
    | SYMREG                               # symRegOperand
    | LBRK operand (COMMA operand)* RBRK BANG? # memOperand
    | DOT NUM                              # relOperand
    | DOT PLUS NUM                         # relOperand
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;
LINE_COMMENT : '//' ~[\n]* -> skip ;

NUM      : '-'? [0-9]+ | '-'? '0' [xX] [0-9a-fA-F]+ ;
NAME     : [a-zA-Z_] [a-zA-Z0-9_.]* | '.' [a-zA-Z_] [a-zA-Z0-9_.]* ;
SYMREG   : '%' [a-zA-Z_] [a-zA-Z0-9_]* ;
HASH     : '#' ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LBRK     : '[' ;
RBRK     : ']' ;
BANG     : '!' ;
DOT      : '.' ;
PLUS     : '+' ;
