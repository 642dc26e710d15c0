// The program part of a Power litmus test: the shared table of threads
// (Table.g4), whose instructions are parsed generically (a mnemonic and
// operands, as herd7's lib/PPCParser.mly writes them); the translator
// gives them meaning, so that an unknown mnemonic is reported as
// unsupported rather than as a syntax error.
grammar PPC;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : NAME (operand (COMMA operand)*)?
    ;

operand
    : NUM LPAR NAME RPAR    # memOperand
    | NUM                   # immOperand
    | NAME                  # nameOperand
    | SYMREG                # symRegOperand
    | STRING                # stringOperand
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

NUM      : '-'? [0-9]+ ;
NAME     : [a-zA-Z_] [a-zA-Z0-9_.]* ;
SYMREG   : '%' [a-zA-Z_] [a-zA-Z0-9_]* ;
STRING   : '"' ~["\n]* '"' ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LPAR     : '(' ;
RPAR     : ')' ;
