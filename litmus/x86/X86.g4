// The program part of an X86 or X86_64 litmus test in herd7's syntax: the
// shared table of threads (Table.g4). Instructions are parsed
// generically (a mnemonic and operands, or LOCK before one); the
// dialect's translator gives them meaning and operand order (X86: Intel,
// destination first; X86_64: AT&T, destination last), so that an unknown
// mnemonic or an operand form the dialect lacks is reported as
// unsupported rather than as a syntax error.
// "LOCK ;" keeps its semicolon inside the cell, as herd7's grammars read
// it. Memory operands cover both dialects: [x], (x), [EAX], (%rax), and
// X86_64's displacement 8(%rax), indexed form 8(%rax,%rcx,4) and segment
// prefix %cs:(x).
grammar X86;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : LOCK SEMI? instruction                  # lockedInstruction
    | NAME (operand (COMMA operand)*)?        # plainInstruction
    ;

operand
    : IMM                                     # immOperand
    | NUM                                     # immOperand
    | NAME                                    # nameOperand
    | SYMREG                                  # symRegOperand
    | segment? NUM? LBRK (NAME | SYMREG) RBRK # memOperand
    | segment? NUM? LPAR (NAME | SYMREG) RPAR # memOperand
    | segment? disp=NUM? LPAR base=(NAME | SYMREG) COMMA index=(NAME | SYMREG) (COMMA scale=NUM)? RPAR # indexedOperand
    | LBRK NUM RBRK                           # absOperand
    ;

// A segment prefix, %cs: before a memory operand (X86_64).
segment
    : SYMREG COLON
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

LOCK     : [lL][oO][cC][kK] ;
IMM      : '$' '-'? [0-9]+ ;
NUM      : '-'? [0-9]+ ;
NAME     : [a-zA-Z] [a-zA-Z0-9_/.\-]* ;
SYMREG   : '%' [a-zA-Z] [a-zA-Z0-9_/.\-]* ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LBRK     : '[' ;
RBRK     : ']' ;
LPAR     : '(' ;
RPAR     : ')' ;
