* Hand-written file exercising the MPS rules ReadMPS documents. Expected values
* are worked out by hand in TestReadMPSSemantics.
NAME          SEMANTICS
OBJSENSE MAXIMIZE
ROWS
 N  COST
 E  EPOS
 E  ENEG
 L  LRNG
 G  GRNG
 E  EZERO
 N  FREE
 L  PLAIN
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    I1        COST         1.0   EPOS         1.0
    I2        LRNG         2.0
    MARKER                 'MARKER'                 'INTEND'
    X1        COST        -2.5   ENEG         1.0
    X1        GRNG         1.0   FREE         3.0
    X2        PLAIN        1.0   EZERO        0.0
    X3        GRNG        -1.0
    X4        COST         0.0
    X5        PLAIN        1.0
    B1        COST         4.0   EPOS        -1.0
    N1        EZERO        1.0
RHS
    EPOS         2.0   ENEG         3.0
    LRNG         4.0   GRNG        -1.0
    EZERO        5.0   COST         7.5
    FREE        99.0
RANGES
    EPOS         1.5   ENEG        -2.0
    LRNG        -3.0   GRNG         2.0
    EZERO        0.0
BOUNDS
 UP           I2            10.0
 UP           X1            -1.0
 LO           X2            -3.0
 UP           X2            -1.0
 MI           X3
 UP           X3             2.0
 FR           X4
 PL           X5
 BV           B1
 LI           N1             2.0
 UI           N1             8.0
ENDATA
