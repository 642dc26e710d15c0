// The program part of a MIPS litmus test: the shared table of threads
// (Table.g4), whose instructions are parsed generically (a mnemonic and
// operands, as herd7's lib/MIPSParser.mly writes them); the translator
// gives them meaning, so that an unknown mnemonic is reported as
// unsupported rather than as a syntax error.
grammar MIPS;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : NAME (operand (COMMA operand)*)?
    ;

operand
    : NUM? LPAR (REG | SYMREG) RPAR   # memOperand
    | NUM                  # immOperand
    | REG                  # regOperand
    | NAME                 # nameOperand
    | SYMREG               # symRegOperand
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

NUM      : '-'? [0-9]+ | '-'? '0' [xX] [0-9a-fA-F]+ ;
REG      : '$' [a-zA-Z0-9_]+ ;
NAME     : [a-zA-Z_] [a-zA-Z0-9_.]* ;
SYMREG   : '%' [a-zA-Z_] [a-zA-Z0-9_]* ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LPAR     : '(' ;
RPAR     : ')' ;
