// The program part of a LISA litmus test in herd7's syntax (herd's
// lib/LISAParser.mly): the shared table of threads (Table.g4), each
// instruction a mnemonic (r, w, f, rmw, b, mov, ...), its annotations in
// brackets, and its operands. Mnemonics, registers and locations are plain
// names here, which the translator tells apart, so that an unknown
// mnemonic or a misplaced operand is reported as unsupported rather than
// as a syntax error (herd7's lexer makes keywords of r, w, f and b, and
// reads them back as names where a name is expected).
grammar LISA;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : NAME annotations? fenceLabels? operand*
    ;

annotations
    : LBRK (NAME (COMMA NAME)*)? RBRK
    ;

// herd7's f[...] {L1,L2} {L3}: the fence orders the events of the
// instructions with the first labels before those of the second.
fenceLabels
    : LBRACE (NAME (COMMA NAME)*)? RBRACE LBRACE (NAME (COMMA NAME)*)? RBRACE
    ;

operand
    : value (PLUS value)?           # plainOperand
    | LPAR NAME value value RPAR    # opOperand
    ;

value
    : NAME
    | NUM
    | META
    | SYMREG
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

NUM      : '-'? ('0x')? [0-9]+ ;
META     : '&' [a-zA-Z] [a-zA-Z0-9_/\-]* ;
SYMREG   : '%' [a-zA-Z] [a-zA-Z0-9_/\-]* ;
NAME     : [a-zA-Z] [a-zA-Z0-9_/\-]* ;
PLUS     : '+' ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LBRK     : '[' ;
RBRK     : ']' ;
LBRACE   : '{' ;
RBRACE   : '}' ;
LPAR     : '(' ;
RPAR     : ')' ;
