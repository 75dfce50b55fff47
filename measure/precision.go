package measure

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Precision is CALACCURACY of seed 000 (Alg. 6) without its final comparison: the
// half-width of the Student-t confidence interval relative to the sample mean,
//
//	|t⁻¹(cl, reps−1)| · sd / sqrt(reps) / |mean|,
//
// where t⁻¹(cl, ν) is the cl-quantile of Student's t with ν degrees of freedom (the
// seed's gsl_cdf_tdist_Pinv(cl, reps−1), taken literally: the one-sided quantile) and
// sd the sample standard deviation (gsl_stats_sd, divisor reps−1). The reference
// reconstructs the seed's garbled fraction as clOut·reps/ΣArray, which is this.
//
// Fewer than two samples have no precision: +Inf. Samples that are all equal have
// precision 0, also when their mean is 0 (a time-only profile's energies); a mean of
// 0 with spread gives +Inf.
func Precision(cl float64, xs []float64) float64 {
	if len(xs) < 2 {
		return math.Inf(1)
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	return precisionOf(cl, len(xs), mean, sd)
}

// precisionOf is Precision from the count, mean and sample standard deviation, so
// that MeanUsingTTest can keep running statistics instead of rereading its samples.
func precisionOf(cl float64, n int, mean, sd float64) float64 {
	if n < 2 {
		return math.Inf(1)
	}
	if sd == 0 {
		return 0
	}
	if mean == 0 {
		return math.Inf(1)
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	half := math.Abs(t.Quantile(cl)) * sd / math.Sqrt(float64(n))
	return half / math.Abs(mean)
}

// running holds Welford's running mean and sum of squared deviations of one series.
type running struct {
	n    int
	mean float64
	m2   float64
	sum  float64
}

func (r *running) add(x float64) {
	r.n++
	r.sum += x
	d := x - r.mean
	r.mean += d / float64(r.n)
	r.m2 += d * (x - r.mean)
}

// sd is the sample standard deviation (divisor n−1), 0 below two samples.
func (r *running) sd() float64 {
	if r.n < 2 || r.m2 <= 0 {
		return 0
	}
	return math.Sqrt(r.m2 / float64(r.n-1))
}

func (r *running) precision(cl float64) float64 { return precisionOf(cl, r.n, r.mean, r.sd()) }

// Accurate is CALACCURACY of seed 000 (Alg. 6): whether the sample mean of xs is
// within precision eps at confidence level cl (Precision(cl, xs) < eps).
func Accurate(cl float64, xs []float64, eps float64) bool {
	return Precision(cl, xs) < eps
}
