// Package mapplot draws isoenergy maps: a filled heat map of the energy on a grid
// (log colour scale, infeasible configurations in grey), the traced isolines over it,
// each labelled with its energy level, and a colour bar. Figures are written as SVG and
// PNG with gonum/plot.
//
// Logarithmic axes are drawn in log10 coordinates with decade tick labels, so the heat
// map's cells, the isolines and the ticks agree exactly; lines along the discrete
// processor number m are drawn as steps, as in the thesis's figures.
package mapplot
