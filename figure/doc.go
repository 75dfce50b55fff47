// Package figure draws schedopt's figures of single results with gonum/plot, to SVG
// and PNG: energy vs schedule length trade-off curves and Pareto fronts, and Gantt
// charts of decoded schedules (startup, communication, computation and idle per
// machine). It also holds the styling every figure shares (size, fonts, colours,
// logarithmic ticks), which bench/plot's sweep figures use too.
//
// Every figure has labelled axes with units and a legend. A file name ending in .svg
// or .png gives that one format; a name without extension gives both.
package figure
