// Package cbc is schedopt's own cgo binding to CBC 2.10 (Debian coinor-libcbc-dev
// 2.10.8, found through pkg-config "cbc"). It implements backends.Solver.
//
// # One call per solve
//
// Solve creates a Cbc_Model, passes the whole model with one Cbc_loadProblem call,
// marks the integer columns (Cbc_setInteger) and the sense (Cbc_setObjSense: 1 min,
// −1 max), sets every option it controls, passes the MIP start, runs Cbc_solve, copies
// the results into Go memory and deletes the model before returning. CBC takes the
// matrix by columns: the model's CSR arrays are transposed into C scratch arrays with
// one counting pass (O(nnz), no maps), infinite bounds become ±COIN_DBL_MAX (DBL_MAX,
// CBC's infinity), and CBC copies everything during the call. The C interface has no
// objective offset, so the model's constant is added to the objective and the bound
// here. Measured hand-off (BenchmarkPass, 10^6 nonzeros): 42 to 80 ns and 0.25 Go
// heap bytes per nonzero (HiGHS's Highs_passMip: 39 ns in the same run).
//
// Cbc_solve does two different things. A model with integer columns goes to
// CbcMain1, the code of the cbc command: the options become its command line
// (Cbc_setParameter appends "-name value"), so a MIP gets CBC's default
// preprocessing, cuts and heuristics. A model without integer columns goes straight to
// Clp's initialSolve, which reads none of those parameters.
//
// # Options
//
//	Options      CBC
//	RelGap       Cbc_setAllowableFractionGap and -ratioGap, always (also 0)
//	AbsGap       Cbc_setAllowableGap and -allowableGap, always (also 0)
//	TimeLimit    Cbc_setMaximumSeconds and -seconds, with -timeMode elapsed (CBC
//	             counts CPU seconds by default), plus the watcher below
//	Threads      -threads n for n ≥ 2; 0 and 1 run CBC's serial code (its default)
//	Seed         -randomCbcSeed and -randomSeed for seeds ≠ 0, folded into 1..2^31−1;
//	             0 keeps CBC's fixed default seeds (CBC reads 0 as "time of day")
//	Log          nil: log level 0 and every message dropped; set: level 1, every
//	             message to the writer (see below)
//	Presolve     PresolveOff: -preprocess off and -presolve off for MIPs, the Osi
//	             hints OsiDoPresolveInInitial/InResolve off for LPs
//
// CBC's relative gap is |incumbent − bound| / max(|incumbent|, |bound|) (a looser
// scale than backends.RelativeGap's |incumbent| when the bound is larger in
// magnitude), and CBC prunes with a cutoff increment it derives from the objective
// (0.9999 when every objective coefficient is integral on integer columns): both are
// CBC's own proof rules. -threads n is CBC's opportunistic parallel search, which is
// not reproducible from run to run; on the suite's small models it was slower than
// the serial search (4,000 against 79,000 nodes in one second on two shared cores),
// and CBC's deterministic mode (100+n) slower still (445 nodes).
//
// # What the C interface cannot do: shim.cpp
//
// CBC 2.10's C interface has no way to stop a solve, prints its log to stdout, cannot
// tell an infeasible LP from an unbounded one, and lets CbcMain1 install a SIGINT
// handler that it never removes. Coin_C_defines.h publishes the layout of Cbc_Model
// to C++ callers, so one small C++ file reaches the CbcModel and the Clp solver behind
// the handle and, before Cbc_solve:
//
//   - installs StopCbc, a CbcEventHandler that answers "stop" to every branch-and-cut
//     event (every node, every root cut pass, every heuristic pass) once the control
//     block's flag is set, except to the events that announce a solution, which are
//     never refused. Not every caller obeys the answer (the root cut loop and some
//     heuristics ignore it), so the handler also does what CBC's own Ctrl-C handler
//     does, sayEventHappened, and spends the model's time limit
//     (setMaximumSeconds(1e-9)), which those places check and sub-MIPs inherit: the
//     run then ends as on a time limit. CBC clones the handler into the model
//     CbcMain1 searches and into the sub-MIPs of its heuristics;
//   - installs StopClp, a ClpEventHandler that ends the simplex at its next iteration
//     once the flag is set (rules below); Clp clones it into every copy of the LP
//     solver, so it reaches the initial LP, preprocessing and the root LP;
//   - replaces CBC's and Clp's message handlers by two LogHandlers whose print() hands
//     each formatted message to the writer through log.go's exported function and a
//     runtime/cgo.Handle, or drops it when Options.Log is nil, and sets CbcMain1's
//     noPrinting; silent solves of every kind write nothing to file descriptor 1
//     (TestSilentSolvesWriteNothingToStdout);
//   - switches off CbcMain1's SIGINT handler (CbcSolverUsefulData.useSignalHandler_)
//     and Clp's (ClpSolve special option 2), and restores the SIGINT disposition the
//     process had with sigaction afterwards whatever CBC did: a handler installed
//     with signal() replaces the Go runtime's, has no SA_ONSTACK, and would swallow
//     every later interrupt (TestInterruptStillReachesGo fails without this);
//   - catches every C++ exception, which would otherwise abort the process, and
//     returns its text as an error.
//
// Neither event handler calls into Go; both read the control block atomically.
// Everything is freed deterministically: the event handlers are copied by CBC and Clp
// and deleted with their models by Cbc_deleteModel; the message handlers live in the
// control block (calloc, freed by schedopt_cbc_ctl_free after Cbc_deleteModel and
// after the watcher has exited); the transposition's scratch arrays are freed before
// the load returns. No Go pointer is kept by C beyond a call.
//
// # One solve at a time, on one thread
//
// CbcMain1 reads its command line through global variables (CbcOrClpRead_mode and
// friends) and switches global printing state, and the SIGINT disposition is
// process-wide, so CBC solves must not overlap: 64 random MIPs solved five times each
// from 8 goroutines without serialisation ended with a different status, objective or
// node count than their serial solve in 17 to 21 of 320 solves, and CbcMain1 printed
// "No match for off" to stdout (it had read another solve's command line). Hence
// every CBC call is made by one worker goroutine locked to its OS thread. Concurrent
// Solve calls from many goroutines are safe (the conformance suite and
// TestConcurrentSolvesWithStops run them under -race) and take turns; a solve waiting
// for its turn honours its context and time limit (TestQueuedSolveHonoursItsLimits).
// The single thread also keeps glibc from spreading CBC's allocations over one malloc
// arena per calling thread: with calls from arbitrary threads the resident size grew
// from 17 MB to 112 MB over 4,000 small solves; with the worker it levels off at
// about 47 MB (46.4 MB after 2,000 and 47.0 MB after 6,000 mixed solves: MIPs, LPs,
// logs, MIP starts, time limits and cancellations). Valgrind finds 640 bytes
// definitely lost inside Clp's presolve and nothing that grows with the number of
// solves.
//
// # Cancellation and the deadline
//
// A watcher goroutine (backends.Watch) sets the control block's flag when ctx is done
// or Options.TimeLimit has elapsed. CBC's own -seconds is set too, to the earlier of
// the time limit and ctx's deadline, because CBC checks it in places no event
// reaches (heuristics, cut loops). StopCbc stops the search at its next event; StopClp
// cuts LPs short as follows:
//
//   - before CBC's top-level search has started (no node, cut pass or end-of-search
//     event of the top-level model yet) and before CBC has acknowledged the stop: at
//     once. This covers the initial LP, preprocessing, the feasibility pump and the
//     root LP, which can take seconds;
//   - afterwards, LPs run to the end after a deadline, and for at most 0.3 s
//     (SCHEDOPT_CBC_LP_GRACE_NS) after a cancellation. Node LPs left alone keep the
//     bound valid; CBC's postprocessing, which maps the incumbent back through
//     preprocessing with LPs on the original model, needs them finished.
//
// Measured (two cores shared with other work). On the suite's market-split models
// (50 and 60 binaries), 20 cancellations between 20 and 300 ms into the solve
// returned after 1 to 150 ms (most within 20 ms), and 10 time limits between 20 and
// 290 ms overran by 1 to 150 ms, each with the incumbent. On a facility-location MIP
// with 90,000 rows and columns (60 binaries; its initial LP takes 2 to 6 s of wall
// time) cancellations during the initial LP, preprocessing and the feasibility pump
// returned after 0.08 to 0.7 s. A cancellation after the feasibility pump had found
// an incumbent returned after 0.6 s without it: CBC's postprocessing spends about
// half a second before its first LP iteration, which no handler reaches, and the LP
// after it was cut short. A deadline at the same moment kept the incumbent and
// returned 2.5 to 4.8 s late, the time that postprocessing LP takes. A pure LP (Clp
// alone) stopped within 7 to 35 ms.
//
// A run the watcher stopped is never reported with a proof: the status is TimeLimit
// (deadline) or Interrupted (ctx), whatever CBC claims. An incumbent is kept only if
// model.Verify accepts it, since a postprocessing LP may have been cut short; the bound
// is dropped (NaN) if any LP was cut short, because CBC then derives bounds from
// unfinished LPs (a stop in the initial LP made CBC report a bound of 7e13 for a model
// whose optimum is 1,700). CBC stopping on its own -seconds is TimeLimit, or
// Interrupted when the limit it hit was ctx's deadline.
//
// # Status mapping
//
//	MIPs (CbcMain1)                                   backends.Status
//	stopped by the watcher (deadline / ctx)           TimeLimit / Interrupted
//	Cbc_isAbandoned or Cbc_status 2                   NumericalError
//	Cbc_isProvenOptimal with a solution               Optimal (only this one)
//	Cbc_isContinuousUnbounded or secondary status 7   Unbounded with a solution,
//	                                                  InfeasibleOrUnbounded without
//	Cbc_isProvenInfeasible without a solution         Infeasible
//	Cbc_isSecondsLimitReached or secondary status 4   TimeLimit (Interrupted if ctx's)
//	others (node or solution limit, status −1, …)     Other
//
//	LPs (Clp status)                                  backends.Status
//	0 optimal                                         Optimal
//	1 primal infeasible                               Infeasible
//	2 dual infeasible, at a primal feasible point     Unbounded
//	2 dual infeasible, otherwise                      InfeasibleOrUnbounded
//	4 stopped on errors                               NumericalError
//	5 stopped by the event handler                    TimeLimit / Interrupted
//	others                                            Other
//
// The C interface answers Cbc_isProvenInfeasible for both Clp statuses 1 and 2 of an
// LP, so the shim reads Clp's status. HasSolution for a MIP is Cbc_bestSolution being
// non-NULL (a time limit may come with or without an incumbent); for an LP it is Clp
// status 0. Objective is Cbc_getObjValue plus the model's constant. Bound is
// Cbc_getBestPossibleObjValue plus the constant for MIPs, NaN when CBC has none
// (magnitude ≥ 1e30), when the model is infeasible, or when an unfinished search
// reports the incumbent itself (CBC returns min(bound, incumbent), so a stop before the
// root bound exists would read as gap 0); for an LP solved to optimality it is the
// objective. Gap is backends.RelativeGap(Objective, Bound); Nodes is Cbc_getNodeCount.
// Values are returned as CBC gives them, unrounded.
//
// # MIP starts
//
// The set entries of Model.Start (NaN entries are left out) go to Cbc_setMIPStartI,
// which passes them to CbcMain1 by column name. CBC's header says only the non-zero
// integer values need to be given and continuous columns are computed, so CBC may
// read integer columns missing from a partial start as 0; a start it cannot complete
// to a feasible point is ignored (the suite's partial and infeasible starts still end
// optimal). CBC's log says "MIPStart provided solution with cost …" when it used one.
// LPs take no start.
package cbc
