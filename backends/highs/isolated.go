package highs

import (
	"context"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/worker"
	"github.com/schedopt/schedopt/model"
)

// workerEnv marks a process started by an Isolated solver's pool: the package's init
// serves solves and exits before main runs.
const workerEnv = "SCHEDOPT_HIGHS_WORKER"

func init() {
	worker.ServeIfWorker(workerEnv, New().Solve)
}

// Isolated is the HiGHS backend with every solve in a worker process (package
// worker), for programs that live long and solve much: a sweep, a service, the
// library. HiGHS 1.10 consults neither its clock nor the interrupt callback inside
// sub-MIPs (backends/testdata/highs-1.10-time-limit-overrun.mps runs 26 s past a 5 s
// limit), and later versions still loop on some models (HiGHS issue 2226); in this
// process such a solve can only be abandoned and keeps a core busy until it returns,
// while a worker is killed. Workers are reused, so the process start (about 40 ms) is
// paid once per concurrent solve. Close ends the idle workers.
type Isolated struct {
	pool *worker.Pool
}

// NewIsolated returns a HiGHS backend that solves in worker processes.
func NewIsolated() *Isolated {
	return &Isolated{pool: &worker.Pool{Env: workerEnv, Name: "HiGHS " + version()}}
}

// Name returns "highs": the backend is HiGHS, wherever it runs.
func (*Isolated) Name() string { return "highs" }

// PresolvesByDefault reports true, as for Solver.
func (*Isolated) PresolvesByDefault() bool { return true }

// SolvesInChildProcess reports true (certify.Isolated).
func (*Isolated) SolvesInChildProcess() bool { return true }

// Solve solves m with HiGHS in a worker process. A solve that overruns its time limit
// by worker.KillGrace, or whose context ends, is stopped: its worker is asked to stop
// and killed after worker.StopGrace.
func (s *Isolated) Solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	if res, done, err := backends.Precheck(ctx, "highs", "HiGHS "+version(), m, opts); done {
		return res, err
	}
	return s.pool.Solve(ctx, m, opts)
}

// Close ends the idle workers. Solves after Close fail.
func (s *Isolated) Close() error { return s.pool.Close() }
