// The program part of an ARM (AArch32) litmus test: the shared table of
// threads (Table.g4), whose instructions are parsed generically (a
// mnemonic and operands, as herd7's lib/ARMParser.mly writes them); the
// translator gives them meaning, so that an unknown mnemonic is reported
// as unsupported rather than as a syntax error.
grammar ARM;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : NAME (operand (COMMA operand)*)?
    ;

operand
    : LBRK base=(NAME | SYMREG) (COMMA offset)? RBRK   # memOperand
    | imm                              # immOperand
    | NAME                             # nameOperand
    | SYMREG                           # symRegOperand
    ;

offset
    : (NAME | SYMREG)   # regOffset
    | imm               # immOffset
    ;

imm
    : HASH? NUM
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

NUM      : '-'? [0-9]+ | '-'? '0' [xX] [0-9a-fA-F]+ ;
NAME     : [a-zA-Z_] [a-zA-Z0-9_.]* ;
SYMREG   : '%' [a-zA-Z_] [a-zA-Z0-9_]* ;
HASH     : '#' ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LBRK     : '[' ;
RBRK     : ']' ;
