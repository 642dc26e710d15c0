// The program section every assembly dialect shares (imported by its
// grammar): a table whose first row names the threads (P0 | P1 ;) and
// whose other rows hold one cell per thread, each cell optional labels and
// at most one instruction. The single-thread vertical form (P0; then one
// instruction a line) is the same table with one column. The importing
// grammar defines instruction and the NAME token; ReadTable reads the
// table from any of their parse trees.
parser grammar Table;

program
    : SEMI* header row* EOF
    ;

header
    : procName (PIPE procName)* SEMI
    ;

procName
    : NAME
    ;

row
    : cell (PIPE cell)* SEMI
    ;

cell
    : label* instruction?
    ;

label
    : NAME COLON
    ;
