NAME          DIALECTS
OBJSENSE
    MAX
ROWS
 N  COST
 L  LIM 1
 E  EQ
COLUMNS
    X ONE     COST      1.0D0          LIM 1     1.0
    X ONE     EQ        1d0
    MARKER    'MARKER'  'INTORG'
    Y	COST	2.0	EQ	1.0
    S         COST      1              LIM 1     1
RHS
    RHS       LIM 1     1.0D1          EQ        3
RANGES
    RNG       EQ        -2
BOUNDS
 UP BND       X ONE     1e30
 UP BND       Y         -1
 SC BND       S         4
 LO BND       S         2
ENDATA
