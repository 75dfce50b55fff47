#!/usr/bin/env bash
# pulp-compare.sh: build and write the same MIP with PuLP and with `schedopt export`, in
# one run, and print the ratio of their times and peak memory (issue 17; the numbers are
# in docs/benchmarks.md, "PuLP side by side").
#
# The model is the MIP (6.6)-(6.28) of seed 004 §6 on the instance
#   schedopt gen dlt-multi --m M --n 12 --seed 1 --objective min-energy --deadline 1000
# (M = 1000: 86,019 columns, 260,043 rows, 1,076,048 nonzeros, a 54 MB MPS file).
# scripts/pulp-compare.py builds it in PuLP the way a PuLP user writes it, from the same
# instance JSON.
#
# Steps:
#   1. check that both sides build the same model: at CHECK_M machines (default 10),
#      every row, column, bound, integrality, objective and coefficient is compared; at
#      M, the counts of columns, rows and nonzeros;
#   2. time `schedopt export INSTANCE --format mps -o FILE` RUNS times (default 5; the
#      whole process: reading the JSON, the MIP-start heuristics, building, writing)
#      and PuLP's build + writeMPS PULP_RUNS times (default 1; timed inside Python, so
#      the interpreter's start, `import pulp` and the JSON read are not counted);
#   3. print the medians and the ratios, wall and CPU (user+sys), and the peak RSS of
#      each process, with the load average before and after;
#   4. at M = 1000, also run the Go benchmark of the same build + write
#      (BenchmarkDLTBuildWriteMPS/nnz=1e6 in model/dltbench_test.go: what PuLP's timed
#      part does, without reading the instance or the MIP-start heuristics) and print
#      PuLP's time over it. GO_BENCH=0 skips it.
#
# Usage: scripts/pulp-compare.sh [M]
# Environment: SCHEDOPT (a schedopt binary; default: built from this checkout),
#   RUNS, PULP_RUNS, CHECK_M, KEEP (keep the work directory), PYTHON (default
#   /usr/bin/python3: PuLP 2.6 is the Debian package python3-pulp, see scripts/setup.sh).
set -euo pipefail

M=${1:-1000}
RUNS=${RUNS:-5}
PULP_RUNS=${PULP_RUNS:-1}
CHECK_M=${CHECK_M:-10}
PYTHON=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; else echo "work directory: $work"; fi

if ! "$PYTHON" -c 'import pulp' 2>/dev/null; then
  echo "pulp-compare: $PYTHON cannot import pulp (install the Debian package python3-pulp)" >&2
  exit 1
fi
if [ ! -x /usr/bin/time ]; then
  echo "pulp-compare: /usr/bin/time (GNU time) is needed for the peak RSS" >&2
  exit 1
fi
bin=${SCHEDOPT:-}
if [ -z "$bin" ]; then
  bin=$work/schedopt
  (cd "$root" && go build -o "$bin" ./cmd/schedopt)
fi
export SCHEDOPT_NO_LIMITS=1

gen() { # gen M FILE
  "$bin" gen dlt-multi --m "$1" --n 12 --seed 1 --objective min-energy --deadline 1000 -o "$2" 2>/dev/null
}

# 1. Same model.
gen "$CHECK_M" "$work/small.json"
"$bin" export "$work/small.json" --format mps -o "$work/small.mps" 2>/dev/null
"$PYTHON" "$here/pulp-compare.py" build "$work/small.json" "$work/small.pulp.mps" >/dev/null
echo "== same model at m = $CHECK_M"
"$PYTHON" "$here/pulp-compare.py" compare "$work/small.pulp.mps" "$work/small.mps"

gen "$M" "$work/inst.json"

# counts FILE: columns, rows and nonzeros of a free MPS file (objective entries and
# markers excluded).
counts() {
  awk '/^ROWS/{s=1; next} /^COLUMNS/{s=2; next} /^(RHS|RANGES|BOUNDS|ENDATA)/{s=0}
       s==1 && $1=="N" && obj=="" {obj=$2; next}
       s==1 {r++}
       s==2 && $2!="'"'"'MARKER'"'"'" {if ($1!=last) {c++; last=$1}; for (i=2; i<NF; i+=2) if ($i!=obj) n++}
       END {printf "%d columns, %d rows, %d nonzeros", c, r, n}' "$1"
}

# timed FILE CMD...: runs CMD under GNU time; appends "wall cpu rss_mb" to FILE.
timed() {
  local out=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>&1
  awk '{printf "%.3f %.3f %.1f\n", $1, $2+$3, $4/1024}' "$work/time" >>"$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB"
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# 2. Time both, interleaved.
: >"$work/go.txt"
: >"$work/pulp.txt"
: >"$work/pulp.json"
# Each run writes a new file: replacing an existing 54 MB file costs either side
# 10-40 ms more on ext4 (the old blocks are freed, and a replaced file is flushed).
for ((r = 0; r < RUNS; r++)); do
  rm -f "$work/go.mps"
  timed "$work/go.txt" "$bin" export "$work/inst.json" --format mps -o "$work/go.mps"
  if ((r < PULP_RUNS)); then
    rm -f "$work/pulp.mps"
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
      "$PYTHON" "$here/pulp-compare.py" build "$work/inst.json" "$work/pulp.mps" >>"$work/pulp.json"
    awk '{printf "%.3f %.3f %.1f\n", $1, $2+$3, $4/1024}' "$work/time" >>"$work/pulp.txt"
  fi
done
echo "== load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== model at m = $M"
echo "schedopt: $(counts "$work/go.mps"), $(stat -c %s "$work/go.mps") bytes"
echo "PuLP:     $(counts "$work/pulp.mps"), $(stat -c %s "$work/pulp.mps") bytes"
if [ "$(counts "$work/go.mps")" != "$(counts "$work/pulp.mps")" ]; then
  echo "pulp-compare: the two files have different sizes" >&2
  exit 1
fi

gw=$(cut -d' ' -f1 "$work/go.txt" | median)
gc=$(cut -d' ' -f2 "$work/go.txt" | median)
gm=$(cut -d' ' -f3 "$work/go.txt" | median)
pw=$("$PYTHON" -c 'import json,sys; print(sorted(json.loads(l)["total_s"] for l in open(sys.argv[1]))[0])' "$work/pulp.json")
pc=$("$PYTHON" -c 'import json,sys; print(sorted(json.loads(l)["total_cpu_s"] for l in open(sys.argv[1]))[0])' "$work/pulp.json")
pbw=$(cut -d' ' -f1 "$work/pulp.txt" | median)
pm=$(cut -d' ' -f3 "$work/pulp.txt" | median)
echo "== times (medians of $RUNS schedopt runs; best of $PULP_RUNS PuLP runs)"
echo "schedopt export (whole process):   wall $gw s, cpu $gc s, peak RSS $gm MB   [runs: $(cut -d' ' -f1 "$work/go.txt" | tr '\n' ' ')s wall]"
echo "PuLP build + writeMPS (in Python):  wall $pw s, cpu $pc s   (whole process: wall $pbw s, peak RSS $pm MB)"
awk -v gw="$gw" -v gc="$gc" -v gm="$gm" -v pw="$pw" -v pc="$pc" -v pm="$pm" 'BEGIN {
  printf "ratio PuLP build+write / schedopt export: %.0fx wall, %.0fx cpu, %.1fx peak RSS\n", pw/gw, pc/gc, pm/gm }'

# 4. The Go benchmark of build + write alone (same instance at M = 1000).
if [ "$M" = 1000 ] && [ "${GO_BENCH:-1}" != 0 ] && command -v go >/dev/null; then
  (cd "$root" && go test -run '^$' -bench 'DLTBuildWriteMPS/nnz=1e6$' -benchtime 10x -count 3 ./model/) >"$work/bench.txt"
  bw=$(awk '/^BenchmarkDLTBuildWriteMPS/ {print $3/1e9}' "$work/bench.txt" | median)
  bc=$(awk '/^BenchmarkDLTBuildWriteMPS/ {for (i=1; i<NF; i++) if ($(i+1)=="cpu-ms/op") print $i/1e3}' "$work/bench.txt" | median)
  echo "== load average after the Go benchmark: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Go benchmark build + WriteMPS (BenchmarkDLTBuildWriteMPS/nnz=1e6, median of 3x10): wall $bw s, cpu $bc s"
  awk -v bw="$bw" -v bc="$bc" -v pw="$pw" -v pc="$pc" 'BEGIN {
    printf "ratio PuLP build+write / Go build+write: %.0fx wall, %.0fx cpu\n", pw/bw, pc/bc }'
fi
