NAME my_model_v2
ROWS
 N  obj
 L  obj_2
 G  c1
 L  c1_2
 G  cap
 L  cap_lo
COLUMNS
    x_1__2_  obj  1
    x_1__2_  obj_2  1
    x_1__2_  c1  1
    x_1__2_  c1_2  1
    x_1__2_  cap  1
    x_1__2_  cap_lo  1
    x_1__2__2  obj  1
    x_1__2__2  obj_2  1
    x_1__2__2  c1  1
    x_1__2__2  c1_2  1
    x_1__2__2  cap  1
    x_1__2__2  cap_lo  1
    x2  obj  1
    x2  obj_2  1
    x2  c1  1
    x2  c1_2  1
    x2  cap  1
    x2  cap_lo  1
    x2_2  obj  1
    x2_2  obj_2  1
    x2_2  c1  1
    x2_2  c1_2  1
    x2_2  cap  1
    x2_2  cap_lo  1
    _free  obj  1
    _free  obj_2  1
    _free  c1  1
    _free  c1_2  1
    _free  cap  1
    _free  cap_lo  1
    _3d  obj  1
    _3d  obj_2  1
    _3d  c1  1
    _3d  c1_2  1
    _3d  cap  1
    _3d  cap_lo  1
    _nergie  obj  1
    _nergie  obj_2  1
    _nergie  c1  1
    _nergie  c1_2  1
    _nergie  cap  1
    _nergie  cap_lo  1
RHS
    RHS  obj_2  5
    RHS  c1  1
    RHS  c1_2  6
    RHS  cap  2
    RHS  cap_lo  7
RANGES
    RNG  cap  2
BOUNDS
 UP BND  x_1__2_  1
 UP BND  x_1__2__2  1
 UP BND  x2  1
 UP BND  x2_2  1
 UP BND  _free  1
 UP BND  _3d  1
 UP BND  _nergie  1
ENDATA
