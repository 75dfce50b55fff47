NAME x
ROWS
 N obj
 L c1
COLUMNS
 x obj 1 c1 NaN
RHS
 rhs c1 1
ENDATA
