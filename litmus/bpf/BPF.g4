// The program part of a BPF litmus test in herd7's syntax: the shared
// table of threads (Table.g4). The instruction forms are herd7's
// (lib/BPFParser.mly); the names of registers and of the atomic functions
// (atomic_fetch_add, xchg_64, ...) are plain names here, which the
// translator checks, so that an unknown one is reported as unsupported
// rather than as a syntax error. Names may hold '-', '.' and '/' as herd7's
// lexer reads them: write r1 - 2, not r1-2.
grammar BPF;

import Table; // the program table: litmus/internal/asmtable/Table.g4

instruction
    : reg ALUOP reg                                             # aluReg
    | reg ALUOP imm                                             # aluImm
    | reg EQUAL reg                                             # movReg
    | reg EQUAL imm                                             # movImm
    | reg EQUAL STAR pointer                                    # load
    | STAR pointer EQUAL reg                                    # store
    | STAR pointer EQUAL imm                                    # storeImm
    | reg EQUAL NAME LPAR pointer RPAR                          # loadFunc
    | NAME LPAR pointer COMMA reg RPAR                          # storeFunc
    | reg EQUAL NAME LPAR pointer COMMA reg RPAR                # fetchFunc
    | reg EQUAL NAME LPAR reg imm COMMA reg RPAR                # xchgFunc
    | reg EQUAL NAME LPAR reg imm COMMA reg COMMA reg RPAR      # cmpxchgFunc
    | LOCK STAR pointer ALUOP reg                               # lockOp
    | GOTO NAME                                                 # goto
    | IF reg COND reg GOTO NAME                                 # ifReg
    | IF reg COND imm GOTO NAME                                 # ifImm
    ;

// pointer is herd7's (uN *)(r + k): a size and an address.
pointer
    : LPAR SIZE STAR RPAR LPAR reg imm RPAR
    ;

reg
    : NAME
    ;

imm
    : NUM
    | MINUS NUM
    | PLUS NUM
    ;

WS       : [ \t\r\n]+ -> skip ;
COMMENT  : '(*' .*? '*)' -> skip ;

SIZE     : 'u8' | 'u16' | 'u32' | 'u64' ;
LOCK     : 'lock' ;
GOTO     : 'goto' ;
IF       : 'if' ;
ALUOP    : '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=' | 's>>=' ;
COND     : '==' | '!=' | '<' | '>=' ;
NUM      : [0-9]+ ;
NAME     : [a-zA-Z] [a-zA-Z0-9_/.\-]* ;
EQUAL    : '=' ;
MINUS    : '-' ;
PLUS     : '+' ;
STAR     : '*' ;
COMMA    : ',' ;
COLON    : ':' ;
SEMI     : ';' ;
PIPE     : '|' ;
LPAR     : '(' ;
RPAR     : ')' ;
