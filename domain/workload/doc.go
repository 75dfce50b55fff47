// Package workload holds the instances and solutions of the kind "workload": a
// data-parallel workload of n granules shared among p processors, each described by a
// discrete table of (size, time, dynamic energy) points (seeds 000 and 003; reference
// 000_003 §1.1–§1.6).
//
// A processor runs exactly one of its points or stays idle (size 0, time 0, energy 0);
// the sizes sum to n. The makespan of a distribution is the largest time of its points
// and its dynamic energy the sum of their energies (the additive hypothesis, seed 000
// eq. 3). Total energy adds static_power × makespan (seed 000 eq. 2).
//
// The package parses and validates instance JSON (bad input is a *domain.FieldError
// naming the JSON path), normalises sizes to granules (their greatest common divisor),
// and evaluates any distribution independently of every model and algorithm.
package workload
