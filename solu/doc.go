// Package solu reads solution-value files in the MIPLIB format (.solu) and judges a
// solver's answer against them, as the MIPLIB 2017 test scripts do.
//
// A .solu file holds one line per instance: "=opt= NAME VALUE" (the optimum),
// "=best= NAME VALUE" (the best known value), "=inf= NAME" (infeasible), "=feas=
// NAME" (a solution exists, its value is unknown), "=unbd= NAME" (unbounded) or
// "=unkn= NAME" (nothing known). Blank lines and lines starting with '#' are ignored.
//
// Judge turns a result (status, verified objective, sense) into a verdict: ok,
// fail (the answer contradicts the file), better (a verified point better than a
// =best= value), timeout, abort or unknown. The tolerances are those of the MIPLIB
// 2017 scripts (RelTol, AbsTol); see docs/bench.md, "Benchmarking solvers".
package solu
