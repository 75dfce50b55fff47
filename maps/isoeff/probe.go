package isoeff

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	fdm "github.com/schedopt/schedopt/formulations/dltmulti"
	kdm "github.com/schedopt/schedopt/kinds/dltmulti"
	"github.com/schedopt/schedopt/solve"
)

// Reference returns the machine of §5.2.4: a_1 = 0.109 s/MB, a_2 = 4.132 s/MB,
// b_2 = −27109 s (so ρ = b_2/(a_1 − a_2) = 6738.5 MB, printed 6739), C = 5 ms/MB,
// O = 75 ms, S = 25.4 s. The energy parameters do not enter (5.17)-(5.26); they are
// those of the kinds/dltmulti tests so that the evaluator has a complete machine.
func Reference() dm.Machine {
	const a1, a2, b2 = 0.109, 4.132, -27109.0
	return dm.Machine{A1: a1, A2: a2, K1: 13, K2: 294, Rho: b2 / (a1 - a2),
		C: 0.005, O: 0.075, S: 25.4, PI: 6, PN: 91, PS: 101}
}

// Instance returns the min-time dlt-multi instance of m copies of mc, n messages and
// load V.
func Instance(mc dm.Machine, m, n int, V float64) *dm.Instance {
	in := &dm.Instance{Kind: dm.Kind, Name: fmt.Sprintf("isoeff-m%d-n%d-V%g", m, n, V), V: V, N: n, Objective: dm.MinTime}
	for range m {
		in.Machines = append(in.Machines, mc)
	}
	return in
}

// SingleTime is T(1, 1, V) = S + O + C·V + max{a_1·V, a_2·V + b_2}, the length of
// processing V on one machine in one message (§5.2.4).
func SingleTime(mc dm.Machine, V float64) float64 {
	return mc.S + mc.O + mc.C*V + mc.Tau(V)
}

// Efficiency is E(m, n, V) = T(1, 1, V) / (m · T(m, n, V)) (§5.2.4) for T = T(m, n, V).
func Efficiency(mc dm.Machine, m int, V, T float64) float64 {
	return SingleTime(mc, V) / (float64(m) * T)
}

// Probe is one solve of (5.17)-(5.26) at (m, n, V).
type Probe struct {
	M, N int
	V    float64
	// T is the schedule length: the evaluator's makespan of the decoded schedule
	// (never the model's T column).
	T float64
	// E is the efficiency at T.
	E float64
	// Status is the certified status: "optimal", or "feasible"/"time_limit" with a
	// solution whose T is only an upper bound (then E is a lower bound).
	Status string
	// Gap is the relative MIP gap of the solution (0 when proven optimal at gap 0).
	Gap float64
	// Bound is a proven lower bound on T(m, n, V) when the probe's solver reports one
	// (SeqBBProbe); 0 when unknown.
	Bound    float64
	Schedule dm.Schedule
	Seconds  float64
}

// ProbeFunc solves one probe.
type ProbeFunc func(ctx context.Context, m, n int, V float64) (Probe, error)

// MIPConfig says how MIPProbe solves.
type MIPConfig struct {
	Machine   dm.Machine
	Backend   string        // a MILP backend name of solve.NewSolver ("highs")
	TimeLimit time.Duration // per probe; 0 for none
	Gap       float64       // relative MIP gap; 0 proves optimality
	Threads   int           // per probe; 0 means 1
}

// MIPProbe returns a ProbeFunc that builds (5.17)-(5.26) for the probe and solves it
// with solve.SolveModel under the certification policy of solve.NewPolicy(backend,
// false). The decoder simulates the schedule with dltmulti.Evaluate; a probe whose
// schedule the evaluator rejects, or that ends without a solution, is an error. Tiny
// probes (m^n·2^n <= kinds/dltmulti.ExactMaxCases) are cross-checked against the
// sequence enumeration of the §6 model, which has the same optimum on identical
// machines. Each call builds its own solver, so calls may run concurrently.
func MIPProbe(cfg MIPConfig) ProbeFunc {
	return func(ctx context.Context, m, n int, V float64) (Probe, error) {
		p := Probe{M: m, N: n, V: V}
		solver, err := solve.NewSolver(cfg.Backend)
		if err != nil {
			return p, fmt.Errorf("isoeff: %w", err)
		}
		policy, err := solve.NewPolicy(cfg.Backend, false)
		if err != nil {
			return p, fmt.Errorf("isoeff: %w", err)
		}
		threads := cfg.Threads
		if threads == 0 {
			threads = 1
		}
		req := solve.Request{Backend: cfg.Backend, Solver: solver, Policy: policy,
			Options: backends.Options{TimeLimit: cfg.TimeLimit, RelGap: cfg.Gap, Threads: threads}}
		in := Instance(cfg.Machine, m, n, V)
		var sched dm.Schedule
		formulate := func() (*solve.Formulated, error) {
			h, err := fdm.BuildHomogeneous(in)
			if err != nil {
				return nil, err
			}
			return &solve.Formulated{Model: h.Model, Decode: func(x []float64) (any, solve.EvaluatorCheck, error) {
				sched = DecodeHomogeneous(h, x)
				r := dm.Evaluate(in, sched, dm.EvalOptions{})
				return dm.NewSolution(in, sched, r), solve.EvaluatorCheck{OK: r.OK(), Objective: r.Objective,
					MaxViolation: r.MaxViolation, Message: r.Worst()}, nil
			}}, nil
		}
		exact := (&kdm.Problem{Inst: in}).Exact
		res, err := solve.SolveModel(ctx, "dlt-multi-homogeneous", in.Name, formulate, req, exact)
		if err != nil {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: %w", m, n, V, err)
		}
		p.Status, p.Seconds = res.Status, res.Seconds.Build+res.Seconds.Solve
		if res.Check.Evaluator == nil || res.Objective == nil {
			if err := ctx.Err(); err != nil {
				return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: %w", m, n, V, err)
			}
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: status %s without a solution: %s", m, n, V, res.Status, res.Message)
		}
		if res.Status == solve.StatusError || !res.Check.Evaluator.OK {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: status %s: %s", m, n, V, res.Status, res.Message)
		}
		if ec := res.Check.Exact; ec != nil && !ec.Agree && ec.Algorithm != "error" {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: the sequence enumeration disagrees (%s)", m, n, V, res.Check.Exact.Message)
		}
		if res.Gap != nil {
			p.Gap = *res.Gap
		}
		p.Schedule = sched
		p.T = res.Check.Evaluator.Objective
		p.E = Efficiency(cfg.Machine, m, V, p.T)
		return p, nil
	}
}

// DecodeHomogeneous reads the schedule of a solution x of (5.17)-(5.26): message j goes
// to the machine with the largest x_ij, its size is Σ_i α_ij, it starts at t_j.
func DecodeHomogeneous(h *fdm.Homogeneous, x []float64) dm.Schedule {
	in := h.In
	s := dm.Schedule{Messages: make([]dm.Message, in.N)}
	for j := range in.N {
		best, size := 0, 0.0
		for i := range in.M() {
			if x[h.X[i][j]] > x[h.X[best][j]] {
				best = i
			}
			size += x[h.Alpha[i][j]]
		}
		s.Messages[j] = dm.Message{Machine: best, Size: math.Max(size, 0), Start: x[h.Tj[j]]}
	}
	return s
}
