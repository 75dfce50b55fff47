// Package schedlib is schedopt's benchmark set of energy-aware scheduling MILPs: MPS
// exports (gzip) of instances of the six kinds, with schedlib.solu (MIPLIB's format)
// giving their proven optima (=opt=) or best known values (=best=). The files are data;
// this package holds only the tests that check them: every .solu name has a file and
// every file parses (always), and, with the build tag schedlib, every value is proven
// again from the files alone by the HiGHS command line (package cmdsolver) and the
// exact checker (package ratcheck). scripts/schedlib.sh regenerates the set from
// generator seeds; README.md lists the instances and how their values were proven.
package schedlib
