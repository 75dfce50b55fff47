// Package dltmulti defines the heterogeneous multi-installment divisible-load problem with
// hierarchical memory of seed 004, chapter 6 (the `dlt-multi` instance kind): the
// instance and solution types with their JSON form, input validation with field errors,
// the lower bounds of §6.4, and an independent evaluator.
//
// The evaluator is an event simulation of a decoded schedule (a sequence of messages,
// each with its receiving machine, size and start time). It recomputes the schedule
// length and every energy term of (6.4)-(6.5) from the domain formulas (3.1)-(3.2) and
// (6.1)-(6.3), never from a MILP model, and reports each violated rule: overlapping
// messages on the originator's link, a machine receiving before its startup S_i can have
// elapsed, a machine receiving a chunk while its memory still holds the previous one
// (computing it), computations ending after T, a load that does not sum to V, and a
// deadline or energy limit that is exceeded.
//
// The package also evaluates the same schedules under the chapter 5 energy accounting
// of §5.2.1 (all machines woken at time 0, waiting at P^I, originator at P^N until its
// last send), which the homogeneous fixed-chunk heuristics SSC, SCU, SCO and GSS use;
// the thesis's closed formulas (5.13)-(5.15) are wrong when N_f = 0, so it simulates.
package dltmulti
