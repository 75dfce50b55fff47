NAME sample
OBJSENSE
    MAX
ROWS
 N  obj
 L  cap
 G  win
 E  c2
COLUMNS
    x  obj  3
    x  cap  2
    x  c2  1
    y  obj  -1
    y  cap  2
    MARKER  'MARKER'  'INTORG'
    z  obj  1
    z  win  1
    z  c2  -1
    b  obj  2
    b  win  -4
    MARKER  'MARKER'  'INTEND'
    x4  win  1
RHS
    RHS  cap  8
    RHS  win  -1
    RHS  c2  1
    RHS  obj  -1.5
RANGES
    RNG  win  3.5
BOUNDS
 MI BND  y
 UP BND  y  10
 LO BND  z  -2
 UP BND  z  3
 BV BND  b
 FR BND  x4
ENDATA
