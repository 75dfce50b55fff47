package cbc

import (
	"context"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/worker"
	"github.com/schedopt/schedopt/model"
)

// workerEnv marks a process started to solve with CBC (package worker): the package's
// init serves the solve and exits before main runs. Every binary that links this
// package (schedopt, and the test binaries) can therefore be its own CBC worker, with
// no second program to install.
const workerEnv = "SCHEDOPT_CBC_WORKER"

func init() {
	worker.ServeIfWorker(workerEnv, NewInProcess().Solve)
}

// solveInChild solves m in a new worker process, which ends after the solve (CBC and
// Clp keep static state, and a failed assertion in them aborts the process). A
// worker that dies ends the solve as a NumericalError naming the cause; a cancelled
// context, or a solve past its limit by worker.KillGrace, stops the worker within
// worker.StopGrace, keeping the incumbent it reports; nothing outlives the call.
func solveInChild(ctx context.Context, name string, m *model.Model, opts backends.Options) (backends.Result, error) {
	p := &worker.Pool{Env: workerEnv, Name: name, Fresh: true}
	defer p.Close()
	return p.Solve(ctx, m, opts)
}
