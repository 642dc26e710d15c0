// The program part of a RISC-V litmus test: the shared table of threads
// (Table.g4), whose instructions are parsed generically (a mnemonic and
// operands, as herd7's lib/RISCVParser.mly writes them); the translator
// gives them meaning, so that an unknown mnemonic is reported as
// unsupported rather than as a syntax error.
grammar RISCV;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : NAME (operand (COMMA operand)*)?
    ;

operand
    : NUM? LPAR NAME RPAR   # memOperand
    | NUM                   # immOperand
    | NAME                  # nameOperand
    | SYMREG                # symRegOperand
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

NUM      : '-'? [0-9]+ | '-'? '0' [xX] [0-9a-fA-F]+ ;
NAME     : [a-zA-Z_] [a-zA-Z0-9_.]* ;
SYMREG   : '%' [a-zA-Z_] [a-zA-Z0-9_]* ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LPAR     : '(' ;
RPAR     : ')' ;
