NAME bounds
ROWS
 N  obj
 L  le
 G  ge
 E  eq
 G  range
 G  range_inexact
 L  range_wide
 N  _free
 L  empty
COLUMNS
    x0  obj  1
    x0  le  1
    x0  ge  1
    x0  eq  1
    x0  range  1
    x0  range_inexact  1
    x0  range_wide  1
    x0  _free  1
    x1  le  1
    x1  ge  1
    x1  eq  1
    x1  range  1
    x1  range_inexact  1
    x1  range_wide  1
    x1  _free  1
    x2  le  1
    x2  ge  1
    x2  eq  1
    x2  range  1
    x2  range_inexact  1
    x2  range_wide  1
    x2  _free  1
    x3  le  1
    x3  ge  1
    x3  eq  1
    x3  range  1
    x3  range_inexact  1
    x3  range_wide  1
    x3  _free  1
    x4  le  1
    x4  ge  1
    x4  eq  1
    x4  range  1
    x4  range_inexact  1
    x4  range_wide  1
    x4  _free  1
    x5  le  1
    x5  ge  1
    x5  eq  1
    x5  range  1
    x5  range_inexact  1
    x5  range_wide  1
    x5  _free  1
    x6  le  1
    x6  ge  1
    x6  eq  1
    x6  range  1
    x6  range_inexact  1
    x6  range_wide  1
    x6  _free  1
    x7  le  1
    x7  ge  1
    x7  eq  1
    x7  range  1
    x7  range_inexact  1
    x7  range_wide  1
    x7  _free  1
    x8  le  1
    x8  ge  1
    x8  eq  1
    x8  range  1
    x8  range_inexact  1
    x8  range_wide  1
    x8  _free  1
    MARKER  'MARKER'  'INTORG'
    x9  le  1
    x9  ge  1
    x9  eq  1
    x9  range  1
    x9  range_inexact  1
    x9  range_wide  1
    x9  _free  1
    x10  le  1
    x10  ge  1
    x10  eq  1
    x10  range  1
    x10  range_inexact  1
    x10  range_wide  1
    x10  _free  1
    x11  le  1
    x11  ge  1
    x11  eq  1
    x11  range  1
    x11  range_inexact  1
    x11  range_wide  1
    x11  _free  1
    x12  le  1
    x12  ge  1
    x12  eq  1
    x12  range  1
    x12  range_inexact  1
    x12  range_wide  1
    x12  _free  1
    x13  le  1
    x13  ge  1
    x13  eq  1
    x13  range  1
    x13  range_inexact  1
    x13  range_wide  1
    x13  _free  1
    x14  le  1
    x14  ge  1
    x14  eq  1
    x14  range  1
    x14  range_inexact  1
    x14  range_wide  1
    x14  _free  1
    x15  le  1
    x15  ge  1
    x15  eq  1
    x15  range  1
    x15  range_inexact  1
    x15  range_wide  1
    x15  _free  1
    x16  le  1
    x16  ge  1
    x16  eq  1
    x16  range  1
    x16  range_inexact  1
    x16  range_wide  1
    x16  _free  1
    x17  le  1
    x17  ge  1
    x17  eq  1
    x17  range  1
    x17  range_inexact  1
    x17  range_wide  1
    x17  _free  1
    x18  le  1
    x18  ge  1
    x18  eq  1
    x18  range  1
    x18  range_inexact  1
    x18  range_wide  1
    x18  _free  1
    MARKER  'MARKER'  'INTEND'
RHS
    RHS  le  10
    RHS  ge  -10
    RHS  eq  0.5
    RHS  range  -1
    RHS  range_inexact  0.1
    RHS  range_wide  3
    RHS  empty  1
RANGES
    RNG  range  3
    RNG  range_inexact  0.19999999999999998
    RNG  range_wide  1e+20
BOUNDS
 LO BND  x1  2
 LO BND  x2  -3
 UP BND  x2  -1
 UP BND  x3  4
 MI BND  x4
 UP BND  x4  5
 MI BND  x5
 UP BND  x5  -2
 FR BND  x6
 FX BND  x7  1.5
 FX BND  x8  0
 LO BND  x9  0
 PL BND  x9
 LO BND  x10  -2
 PL BND  x10
 MI BND  x11
 UP BND  x11  3
 FR BND  x12
 LO BND  x13  0
 UP BND  x13  1
 FX BND  x14  4
 LO BND  x15  -5
 UP BND  x15  7
 BV BND  x16
 FX BND  x17  1
 FX BND  x18  0
ENDATA
