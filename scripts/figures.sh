#!/usr/bin/env bash
# figures.sh draws the example figures of `make run` from the bundled instances:
# energy vs schedule length trade-off curves (dlt-single, dlt-multi), the Pareto front
# of a workload instance, and the Gantt chart of a decoded dlt-multi schedule.
# Usage: scripts/figures.sh BIN OUTDIR
set -euo pipefail
bin=$1
out=$2
note() { printf 'figures: %s\n' "$*" >&2; }

fig() { # fig NAME ARGS...: run one figure command; a failure is reported, not fatal
  local name=$1; shift
  if "$bin" "$@" >"$out/$name.txt" 2>"$out/$name.log"; then
    note "$name: ok"
  else
    note "$name: FAILED (see $out/$name.log)"
  fi
}

[ -f instances/dlt-single-table5.1-minenergy.json ] &&
  fig front_dlt_single front instances/dlt-single-table5.1-minenergy.json --steps 8 --plot "$out/front_dlt_single"
[ -f instances/dlt-multi-tiny-m2-n3-energy.json ] &&
  fig front_dlt_multi front instances/dlt-multi-tiny-m2-n3-energy.json --steps 8 --time-limit 20s --plot "$out/front_dlt_multi"
[ -f instances/workload-fig10.json ] &&
  fig pareto_workload front instances/workload-fig10.json --plot "$out/pareto_workload"
[ -f instances/dlt-multi-sec5.2.2.json ] &&
  fig gantt_dlt_multi solve instances/dlt-multi-sec5.2.2.json --time-limit 30s --gap 0.01 --no-check --plot "$out/gantt_dlt_multi"
exit 0
