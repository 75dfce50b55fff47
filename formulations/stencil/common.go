package stencil

import (
	"errors"
	"fmt"
	"math"
	"sort"

	dom "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/model"
)

// ColouringBlock selects how rounds are modelled.
type ColouringBlock int

// Colouring blocks.
const (
	// ColourClasses is the thesis's block (6.7)-(6.8): y[{p,k},c], z[c], c ∈ C.
	ColourClasses ColouringBlock = iota
	// Matchings counts the rounds given to each maximal matching of the processors.
	Matchings
)

// Options tune a formulation. The zero value is the corrected model with the thesis's
// colour-class block and a colour set from ColourBound.
type Options struct {
	Colouring ColouringBlock
	// Literal builds the colouring block as printed in the thesis (and its ZIMPL code):
	// y indexed by ordered pairs, so that Σ z only reaches Δ(M). ArcSlot only.
	Literal bool
	// Colours overrides the size of the colour set (0: ColourBound).
	Colours int
	// NoSymmetry leaves out the symmetry breaking between identical processors.
	NoSymmetry bool
	// Loads, when it has one entry per processor, fixes the cells on each processor:
	// the restricted model of one load vector in the search of exact/stencil. With
	// symmetry breaking on, identical processors must be given non-increasing loads.
	// Compact only.
	Loads []float64
	// MinCutCells, when it has one entry per processor, says that the arcs with
	// exactly one end on processor p carry at least MinCutCells[p] cells (both
	// directions counted): with Loads fixed, twice the face cells of the grid's
	// isoperimetric bound (exact/gridcut). Compact adds it as a row over the cut
	// indicators, which lifts the LP bound of a restricted model to the combinatorial
	// one. The caller vouches for its validity. Compact only.
	MinCutCells []float64
}

// ErrBadStart is returned by SetStart for a mapping or schedule the model cannot hold.
var ErrBadStart = errors.New("stencil: start does not fit the model")

// pairIndex enumerates processor pairs: unordered p < k, or ordered p ≠ k.
type pairIndex struct {
	pairs []dom.Pair
	index map[dom.Pair]int
}

func newPairs(m int, ordered bool) pairIndex {
	pi := pairIndex{index: map[dom.Pair]int{}}
	for p := 0; p < m; p++ {
		for k := 0; k < m; k++ {
			if p == k || (!ordered && k < p) {
				continue
			}
			pi.index[dom.Pair{p, k}] = len(pi.pairs)
			pi.pairs = append(pi.pairs, dom.Pair{p, k})
		}
	}
	return pi
}

// timeScale returns the model's time unit per second: 1/deadline, so that ts ∈ [0, 1].
// The objective is in J and cannot be scaled; measuring time in deadlines keeps the
// idle-power coefficients P^idle·t^d of the order of the other energy terms instead of
// P^idle/10⁸, which solvers drop below their 1e-7 cost tolerances.
func timeScale(deadline float64) float64 { return 1 / deadline }

// cellUnit returns the gcd of the task sizes (1 when all are zero): loads are counted
// in these units, which keeps the coefficients of (6.6) small.
func cellUnit(in *dom.Instance) float64 {
	var g int64
	for _, t := range in.Tasks {
		g = gcd(g, int64(math.Round(t.Cells)))
	}
	if g == 0 {
		return 1
	}
	return float64(g)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int64) int64 {
	if a == 0 || b == 0 {
		return max(a, b)
	}
	return a / gcd(a, b) * b
}

// capacity returns the most cells processor p can hold within memory and deadline.
func capacity(in *dom.Instance, p int) float64 {
	pr := in.Processors[p]
	c := math.Min(pr.MemoryCells, in.Deadline*(1+dom.TimeTol)/pr.TimePerCell)
	c = math.Min(c, in.TotalCells())
	// Loads are whole multiples of the gcd of the task sizes.
	u := cellUnit(in)
	return math.Floor(c/u+1e-9) * u
}

// DegreeBounds returns, per processor, an upper bound on its weighted degree in M over
// every mapping that meets the deadline and the memories: the fractional-knapsack
// bound of the tasks' heaviest possible incident traffic within the processor's
// capacity, and the same bound summed over the other processors.
func DegreeBounds(in *dom.Instance) []int64 {
	m := len(in.Processors)
	own := make([]float64, m)
	for p := 0; p < m; p++ {
		// w_u: the most quanta task u on p can put on p's bundles.
		w := make([]float64, len(in.Tasks))
		for _, a := range in.Arcs {
			best, bestIn := 0.0, 0.0
			for k := 0; k < m; k++ {
				if k != p {
					best = math.Max(best, float64(in.Multiplicity(a, p, k)))
					bestIn = math.Max(bestIn, float64(in.Multiplicity(a, k, p)))
				}
			}
			w[a.From] += best
			w[a.To] += bestIn
		}
		own[p] = knapsack(in, w, capacity(in, p))
	}
	out := make([]int64, m)
	for p := range out {
		others := 0.0
		for k := range own {
			if k != p {
				others += own[k]
			}
		}
		out[p] = int64(math.Floor(math.Min(own[p], others) + 1e-9))
	}
	return out
}

// knapsack returns the fractional-knapsack optimum of values w with weights cells_u
// within capacity c.
func knapsack(in *dom.Instance, w []float64, c float64) float64 {
	idx := make([]int, len(w))
	for i := range idx {
		idx[i] = i
	}
	ratio := func(u int) float64 {
		if in.Tasks[u].Cells == 0 {
			return math.Inf(1)
		}
		return w[u] / in.Tasks[u].Cells
	}
	sort.SliceStable(idx, func(i, j int) bool { return ratio(idx[i]) > ratio(idx[j]) })
	total := 0.0
	for _, u := range idx {
		cu := in.Tasks[u].Cells
		if cu <= c {
			total += w[u]
			c -= cu
			continue
		}
		total += w[u] * c / cu
		break
	}
	return total
}

// ColourBound returns an upper bound on the chromatic index of M over all mappings
// that meet the deadline: min(⌊3U/2⌋ (Shannon), U + μ (Vizing), ⌊deadline/round_time⌋)
// where U bounds every weighted degree (DegreeBounds) and μ every bundle.
func ColourBound(in *dom.Instance) int {
	d := DegreeBounds(in)
	var u, mu int64
	for p := range d {
		u = max(u, d[p])
		for k := p + 1; k < len(d); k++ {
			mu = max(mu, min(d[p], d[k]))
		}
	}
	byDeadline := int64(math.Floor(in.Deadline*(1+dom.TimeTol)/in.RoundTime + 1e-9))
	return int(min(3*u/2, u+mu, byDeadline))
}

// MaximalMatchings returns the maximal matchings of the complete graph on m vertices
// (at most one vertex left unmatched), each as a list of pairs p < k.
func MaximalMatchings(m int) [][]dom.Pair {
	var out [][]dom.Pair
	used := make([]bool, m)
	var rec func(cur []dom.Pair, skipped bool)
	rec = func(cur []dom.Pair, skipped bool) {
		first := -1
		for v := 0; v < m; v++ {
			if !used[v] {
				first = v
				break
			}
		}
		if first < 0 {
			out = append(out, append([]dom.Pair(nil), cur...))
			return
		}
		used[first] = true
		for k := first + 1; k < m; k++ {
			if !used[k] {
				used[k] = true
				rec(append(cur, dom.Pair{first, k}), skipped)
				used[k] = false
			}
		}
		// first may stay unmatched once, when m is odd.
		if !skipped && m%2 == 1 {
			rec(cur, true)
		}
		used[first] = false
	}
	rec(nil, false)
	return out
}

// symmetricGroups returns the pairs (p, q), p < q, of consecutive identical processors.
func symmetricGroups(in *dom.Instance) [][2]int {
	var out [][2]int
	m := len(in.Processors)
	for p := 0; p < m; p++ {
		for q := p + 1; q < m; q++ {
			if in.Interchangeable(p, q) {
				out = append(out, [2]int{p, q})
				break // chain p < q < r through consecutive members
			}
		}
	}
	return out
}

// colouring holds the variables of either colouring block.
type colouring struct {
	block     ColouringBlock
	literal   bool
	pairs     pairIndex
	K         int
	y         [][]model.Var // [pair][c]
	z         []model.Var
	matchings [][]dom.Pair
	n         []model.Var
	rounds    model.Expr // Σ z or Σ n
}

// addColouring adds the colouring block: for each bundle (pair index i) mult[i] is its
// multiplicity expression; every processor talks to one partner per round; the rounds
// times the round time fit in ts (scaled by tscale).
func addColouring(m *model.Model, in *dom.Instance, opt Options, mult []model.Expr, pairs pairIndex, ts model.Var, tscale float64) (*colouring, error) {
	np := len(in.Processors)
	K := opt.Colours
	if K <= 0 {
		K = ColourBound(in)
	}
	c := &colouring{block: opt.Colouring, literal: opt.Literal, pairs: pairs, K: K}
	switch opt.Colouring {
	case ColourClasses:
		c.z = make([]model.Var, K)
		for j := range c.z {
			c.z[j] = m.AddBinary(fmt.Sprintf("z[%d]", j))
			c.rounds.Add(c.z[j], 1)
		}
		c.y = make([][]model.Var, len(pairs.pairs))
		for i, pr := range pairs.pairs {
			if mult[i].Len() == 0 {
				continue // no mapping puts traffic on this pair
			}
			c.y[i] = make([]model.Var, K)
			var cover model.Expr
			for j := 0; j < K; j++ {
				c.y[i][j] = m.AddBinary(fmt.Sprintf("y[%d,%d,%d]", pr[0], pr[1], j))
				cover.Add(c.y[i][j], 1)
			}
			// (6.7): the bundle gets at least its multiplicity in colours.
			e := mult[i].Clone()
			e.AddExpr(cover, -1)
			m.AddConstr(e, model.LE, 0, fmt.Sprintf("colours[%d,%d]", pr[0], pr[1]))
		}
		// (6.8): at each processor each colour at most once, and only used colours.
		for p := 0; p < np; p++ {
			for j := 0; j < K; j++ {
				var e model.Expr
				for i, pr := range pairs.pairs {
					if c.y[i] != nil && (pr[0] == p || (!opt.Literal && pr[1] == p)) {
						e.Add(c.y[i][j], 1)
					}
				}
				if e.Len() == 0 {
					continue
				}
				e.Add(c.z[j], -1)
				m.AddConstr(e, model.LE, 0, fmt.Sprintf("proper[%d,%d]", p, j))
			}
		}
		// Colour symmetry: used colours come first.
		for j := 0; j+1 < K; j++ {
			var e model.Expr
			e.Add(c.z[j], 1).Add(c.z[j+1], -1)
			m.AddConstr(e, model.GE, 0, fmt.Sprintf("zorder[%d]", j))
		}
	case Matchings:
		if opt.Literal {
			return nil, errors.New("stencil: the literal model has only the colour-class block")
		}
		c.matchings = MaximalMatchings(np)
		c.n = make([]model.Var, len(c.matchings))
		for j := range c.matchings {
			c.n[j] = m.AddInteger(0, float64(K), fmt.Sprintf("n[%d]", j))
			c.rounds.Add(c.n[j], 1)
		}
		for i, pr := range pairs.pairs {
			e := mult[i].Clone()
			for j, mt := range c.matchings {
				for _, q := range mt {
					if q == pr {
						e.Add(c.n[j], -1)
					}
				}
			}
			m.AddConstr(e, model.LE, 0, fmt.Sprintf("cover[%d,%d]", pr[0], pr[1]))
		}
		m.AddConstr(c.rounds, model.LE, float64(K), "rounds_bound")
	default:
		return nil, fmt.Errorf("stencil: unknown colouring block %d", opt.Colouring)
	}
	// (6.12): communication time within the makespan.
	e := c.rounds.Clone()
	for i := range e.Coefs {
		e.Coefs[i] *= in.RoundTime * tscale
	}
	e.Add(ts, -1)
	m.AddConstr(e, model.LE, 0, "comm_time")
	return c, nil
}

// decode reads the round schedule from solver values, keeping only bundles with
// traffic under the decoded mapping (mu) and dropping empty rounds.
func (c *colouring) decode(x []float64, mu [][]int64) (schedule [][]dom.Pair, modelRounds int) {
	on := func(v model.Var) bool { return x[v] > 0.5 }
	switch c.block {
	case ColourClasses:
		for j := 0; j < c.K; j++ {
			if !on(c.z[j]) {
				continue
			}
			modelRounds++
			var round []dom.Pair
			seen := map[dom.Pair]bool{}
			for i, pr := range c.pairs.pairs {
				q := dom.Pair{min(pr[0], pr[1]), max(pr[0], pr[1])}
				if c.y[i] != nil && on(c.y[i][j]) && mu[q[0]][q[1]] > 0 && !seen[q] {
					seen[q] = true
					round = append(round, q)
				}
			}
			schedule = append(schedule, round)
		}
	case Matchings:
		for j, mt := range c.matchings {
			k := int(math.Round(x[c.n[j]]))
			modelRounds += k
			var round []dom.Pair
			for _, q := range mt {
				if mu[q[0]][q[1]] > 0 {
					round = append(round, q)
				}
			}
			for r := 0; r < k; r++ {
				schedule = append(schedule, round)
			}
		}
	}
	// Drop rounds in which nobody exchanges and rounds beyond what the bundles need.
	left := make(map[dom.Pair]int64)
	for p := range mu {
		for k := p + 1; k < len(mu); k++ {
			left[dom.Pair{p, k}] = mu[p][k]
		}
	}
	var out [][]dom.Pair
	for _, round := range schedule {
		var keep []dom.Pair
		for _, q := range round {
			if left[q] > 0 {
				left[q]--
				keep = append(keep, q)
			}
		}
		if len(keep) > 0 {
			out = append(out, keep)
		}
	}
	return out, modelRounds
}

// start sets the colouring block's MIP start from a schedule.
func (c *colouring) start(m *model.Model, schedule [][]dom.Pair) error {
	switch c.block {
	case ColourClasses:
		if len(schedule) > c.K {
			return fmt.Errorf("%w: %d rounds, %d colours", ErrBadStart, len(schedule), c.K)
		}
		for j := 0; j < c.K; j++ {
			m.SetStart(c.z[j], b2f(j < len(schedule)))
			in := map[dom.Pair]bool{}
			if j < len(schedule) {
				for _, q := range schedule[j] {
					in[dom.Pair{min(q[0], q[1]), max(q[0], q[1])}] = true
				}
			}
			for i, pr := range c.pairs.pairs {
				if c.y[i] == nil {
					continue
				}
				q := dom.Pair{min(pr[0], pr[1]), max(pr[0], pr[1])}
				m.SetStart(c.y[i][j], b2f(in[q]))
			}
		}
	case Matchings:
		count := make([]int, len(c.matchings))
		for r, round := range schedule {
			j := c.containing(round)
			if j < 0 {
				return fmt.Errorf("%w: round %d is not a matching", ErrBadStart, r)
			}
			count[j]++
		}
		for j := range c.n {
			m.SetStart(c.n[j], float64(count[j]))
		}
	}
	return nil
}

// containing returns a maximal matching that contains round, or −1.
func (c *colouring) containing(round []dom.Pair) int {
	for j, mt := range c.matchings {
		ok := true
		for _, q := range round {
			q = dom.Pair{min(q[0], q[1]), max(q[0], q[1])}
			found := false
			for _, e := range mt {
				if e == q {
					found = true
					break
				}
			}
			if !found {
				ok = false
				break
			}
		}
		if ok {
			return j
		}
	}
	return -1
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
