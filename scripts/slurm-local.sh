#!/usr/bin/env bash
# slurm-local.sh starts and stops a private single-node Slurm cluster on this machine,
# for the Slurm integration test (make slurm-test) and for trying `schedopt bench
# --slurm` without a cluster. It needs slurm-wlm and munge (scripts/setup.sh installs
# them) and root.
#
#   scripts/slurm-local.sh start     # munged, slurmctld, slurmd; waits until the node is idle
#   eval "$(scripts/slurm-local.sh env)"   # SLURM_CONF for sbatch, squeue, sacct, scancel
#   scripts/slurm-local.sh status
#   scripts/slurm-local.sh stop      # cancels the cluster's jobs, stops the daemons by their pid files
#
# Everything lives in one private directory (SCHEDOPT_SLURM_DIR, default
# /tmp/schedopt-slurm): its own munge key and socket, slurm.conf, state, spool, logs
# and pid files. The daemons listen on non-default ports (SCHEDOPT_SLURMCTLD_PORT,
# default 16817, and SCHEDOPT_SLURMD_PORT, default 16818), so a machine's own Slurm or
# munge, if any, is never touched. Only processes named in this directory's pid files
# are ever signalled.
set -euo pipefail

DIR=${SCHEDOPT_SLURM_DIR:-/tmp/schedopt-slurm}
CTLD_PORT=${SCHEDOPT_SLURMCTLD_PORT:-16817}
SLURMD_PORT=${SCHEDOPT_SLURMD_PORT:-16818}
CONF=$DIR/slurm.conf
SOCKET=$DIR/munge/munge.socket

log() { printf 'slurm-local: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# alive PIDFILE: the pid file names a running process.
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# port_busy PORT: something listens on the TCP port (state 0A; connections in
# TIME_WAIT from an earlier run do not count).
port_busy() {
  local hex
  hex=$(printf ':%04X' "$1")
  awk -v p="$hex" 'FNR > 1 && substr($2, length($2) - 4) == p && $4 == "0A" {found = 1} END {exit !found}' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# stop_pidfile NAME PIDFILE: TERM the process of the pid file, KILL it after 10 s.
stop_pidfile() {
  local name=$1 pf=$2 pid i
  if ! alive "$pf"; then
    rm -f "$pf"
    return 0
  fi
  pid=$(cat "$pf")
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name (pid $pid) did not stop in 10 s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pf"
  log "stopped $name (pid $pid)"
}

write_conf() {
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(awk '/^MemTotal:/ {m = int($2 / 1024) - 1024; if (m < 256) m = 256; print m}' /proc/meminfo)
  cat > "$CONF" <<CONF
# A private single-node cluster written by scripts/slurm-local.sh.
ClusterName=schedopt-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/slurmd-%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=10
Waittime=0
SchedulerParameters=sched_interval=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  [ "$(id -u)" -eq 0 ] || die "run as root (the private cluster runs its daemons as root)"
  for b in munged slurmctld slurmd sinfo; do
    command -v "$b" >/dev/null || die "no $b on PATH; install slurm-wlm and munge (scripts/setup.sh)"
  done
  mkdir -p "$DIR"/{munge,state,spool,log,run}
  chmod 700 "$DIR" "$DIR/munge"
  if alive "$DIR/run/slurmctld.pid" && alive "$DIR/run/slurmd.pid" && alive "$DIR/munge/munged.pid"; then
    log "already running in $DIR"
  else
    stop_daemons
    for p in "$CTLD_PORT" "$SLURMD_PORT"; do
      port_busy "$p" && die "TCP port $p is in use; set SCHEDOPT_SLURMCTLD_PORT / SCHEDOPT_SLURMD_PORT"
    done
    if [ ! -s "$DIR/munge/munge.key" ]; then
      dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
    fi
    chmod 400 "$DIR/munge/munge.key"
    munged --force --socket="$SOCKET" --key-file="$DIR/munge/munge.key" \
      --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/log/munged.log" \
      --seed-file="$DIR/munge/munged.seed"
    write_conf
    # -c: a fresh cluster, without the jobs of an earlier run.
    SLURM_CONF=$CONF slurmctld -c -f "$CONF"
    SLURM_CONF=$CONF slurmd -f "$CONF"
  fi
  local i
  for i in $(seq 1 60); do
    if SLURM_CONF=$CONF sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
      log "node $(hostname -s) up in $DIR (slurmctld port $CTLD_PORT, slurmd port $SLURMD_PORT)"
      log "use it with: export SLURM_CONF=$CONF"
      return 0
    fi
    sleep 0.5
  done
  log "the node did not come up in 30 s; last lines of the logs:"
  tail -n 5 "$DIR"/log/*.log >&2 || true
  stop_daemons
  exit 1
}

stop_daemons() {
  stop_pidfile slurmd "$DIR/run/slurmd.pid"
  stop_pidfile slurmctld "$DIR/run/slurmctld.pid"
  stop_pidfile munged "$DIR/munge/munged.pid"
}

stop() {
  if [ -f "$CONF" ] && alive "$DIR/run/slurmctld.pid"; then
    # Cancel the private cluster's jobs first, so no job step outlives its slurmd.
    local jobs i
    jobs=$(SLURM_CONF=$CONF squeue -h -o '%A' 2>/dev/null | sort -u | tr '\n' ' ' || true)
    if [ -n "${jobs// /}" ]; then
      # shellcheck disable=SC2086
      SLURM_CONF=$CONF scancel $jobs 2>/dev/null || true
      for i in $(seq 1 40); do
        [ -z "$(SLURM_CONF=$CONF squeue -h -o '%A' 2>/dev/null)" ] && break
        sleep 0.5
      done
    fi
  fi
  stop_daemons
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env) printf 'export SLURM_CONF=%q\n' "$CONF" ;;
  status)
    for pf in "$DIR/munge/munged.pid" "$DIR/run/slurmctld.pid" "$DIR/run/slurmd.pid"; do
      if alive "$pf"; then echo "$(basename "$pf" .pid): running (pid $(cat "$pf"))"; else echo "$(basename "$pf" .pid): stopped"; fi
    done
    if alive "$DIR/run/slurmctld.pid"; then SLURM_CONF=$CONF sinfo; fi
    ;;
  *) echo "usage: $0 start|stop|env|status   (private dir: $DIR)" >&2; exit 2 ;;
esac
