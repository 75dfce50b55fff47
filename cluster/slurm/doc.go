// Package slurm runs a schedopt sweep on a Slurm cluster: one job array whose task i
// of N runs shard i/N of the sweep (schedopt bench --shard i/N) into its own results
// file, and a merge job that depends on the array (afterany), joins the parts into
// the sweep's results file and writes the report.
//
// Scripts are plain, self-contained sbatch scripts (Job.ArrayScript, Job.MergeScript)
// that a user can read, edit and submit by hand. Resubmitting runs only what is
// missing: ReadProgress compares the sweep's plan with the parts per shard
// (bench.ShardStates) and with the array tasks Slurm still holds (squeue, and sacct
// where accounting is enabled), and Progress.ToSubmit lists the array indices that
// still have jobs without a result and no live task. Every task appends one synced
// line per finished job, so a task that is preempted, cancelled or stopped at its time
// limit loses only the jobs it was running; a results file has one writer at a time
// (bench.ErrResultsBusy), and the merge keeps one record per job key.
//
// The package talks to Slurm only through its commands (sbatch, squeue, sacct),
// through a Client whose Run can be replaced in tests; the integration test
// (slurm_integration_test.go, make slurm-test) runs against real slurmctld and slurmd
// daemons started by scripts/slurm-local.sh.
package slurm
