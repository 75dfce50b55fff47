NAME x
ROWS
 N obj
 L c1
COLUMNS
 x obj 1 c9 1
RHS
 rhs c1 1
ENDATA
