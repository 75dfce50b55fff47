//go:build dltmultifig611 || dltmultitable63

package dltmulti

import "sort"

// quartiles returns the lower quartile, the median and the upper quartile of v
// (nearest rank; v is sorted in place).
func quartiles(v []float64) (q1, q2, q3 float64) {
	sort.Float64s(v)
	at := func(p float64) float64 { return v[int(p*float64(len(v)-1)+0.5)] }
	return at(0.25), at(0.5), at(0.75)
}
