// Package cmdsolver runs installed command-line MILP solvers (HiGHS's highs, CBC's
// cbc, GLPK's glpsol) on a model file as benchmark backends, so that schedopt's
// certified backends can be compared with the raw programs on the same file, limit,
// gap and threads.
//
// An Adapter is the one thing that differs between programs: the program's name, a
// command template (how the file, time limit, gap, threads and solution path are
// passed, with an options file where the program takes one) and a parser from its
// solution file and log to an Answer in the status taxonomy of package backends.
// Adapter.Solve does the rest the same way for every program:
//
//   - a .gz file is handed over as it is when the program reads gzip (all three do:
//     checked with HiGHS 1.10, CBC 2.10 and GLPK 5.0), otherwise decompressed into
//     the work directory first;
//   - the relative gap is always passed (the absolute gap is set to 0 where the
//     program has one), so no solver's default gap decides when "optimal" is said;
//     threads are passed where the program takes them (glpsol has one thread);
//   - the program runs in its own process group; at the time limit plus KillGrace,
//     or when the context ends, the whole group is killed, so the limit holds even for
//     a program deaf to its own;
//   - the wall time and the child's peak resident memory (rusage Maxrss) are
//     recorded, with the program's version and the tail of its output.
//
// Statuses follow backends: Optimal only when the program says it proved optimality
// within the requested gap; a relaxation found unbounded without a feasible point is
// InfeasibleOrUnbounded; a stop on the limit is TimeLimit, with the incumbent's values
// when the program reports one. Each parser's documentation lists its program's
// status words.
//
// # Adding a solver
//
// Write one Adapter value in adapters.go and add it to the table adapters returns:
//
//	&Adapter{
//		Name: "mysolver", Program: "mysolver", ReadsGzip: false,
//		VersionArgs: []string{"--version"}, Version: func(out string) string { ... },
//		Command: func(inv Invocation) []string {
//			return []string{inv.File, "--time", seconds(inv.TimeLimit),
//				"--gap", fmt.Sprint(inv.Gap), "--threads", fmt.Sprint(inv.Threads),
//				"--solution", inv.Solution}
//		},
//		Parse: ParseMySolver, // solution file + log tail → Answer
//	}
//
// then give the parser a fuzz target (fuzz_test.go) and the adapter a row in the
// table of TestSolve, which runs it on small generated models (optimal, infeasible,
// unbounded, time limit) and checks status, objective and values. The program must
// be installed by scripts/setup.sh.
package cmdsolver
