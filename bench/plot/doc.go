// Package plot draws the figures of sweeps with gonum/plot, to SVG and PNG: run time
// vs number of machines on log axes (seed 004, Fig. 6.9) and solution quality vs run
// time (Fig. 6.10), from a sweep's records. Single results (trade-off curves, Gantt
// charts) and the shared styling live in package figure.
package plot
