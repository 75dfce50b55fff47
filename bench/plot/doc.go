// Package plot draws schedopt's figures with gonum/plot, to SVG and PNG: energy vs
// schedule length trade-off curves and Pareto fronts, run time vs number of machines
// on log axes (seed 004, Fig. 6.9), solution quality vs run time (Fig. 6.10), and Gantt
// charts of decoded schedules (startup, communication, computation and idle per
// machine).
//
// Every figure has labelled axes with units and a legend. A file name ending in .svg
// or .png gives that one format; a name without extension gives both.
package plot
