#!/usr/bin/env bash
# schedlib.sh regenerates bench/sets/schedlib/, schedopt's benchmark set of
# energy-aware scheduling MILPs, from generator seeds, and proves its values.
#
#   scripts/schedlib.sh            regenerate the set: MPS files, schedlib.solu, proofs.tsv, README.md
#   scripts/schedlib.sh --check    regenerate into a temporary directory and compare: the MPS
#                                  files must be byte-identical and every proven value re-proven
#   scripts/schedlib.sh --only NAME ...   (with or without --check) only these instances
#   scripts/schedlib.sh --readme   rewrite README.md from proofs.tsv, nothing else
#
# Each instance is one line of INSTANCES below: name, kind, generator flags. For each,
#   1. schedopt gen KIND FLAGS                  the instance JSON (same flags, same bytes)
#   2. schedopt export --format mps | gzip -9n  NAME.mps.gz, the MILP exactly as solve builds it
#   3. schedopt solve-mps NAME.mps --gap 0 --certify --json
#      the value in the MPS file's own terms: "optimal" with a confirmed certificate (HiGHS's
#      proof at gap 0, the point verified against the model, and a cutoff solve on a second
#      backend that must be infeasible) is written =opt=; a verified point without that
#      proof (time limit) =best=
#   4. schedopt solve INSTANCE.json --gap 0 --json
#      the kind's own objective, with the exact algorithm's value where the kind has one
#      (check.exact): both are recorded in proofs.tsv next to the MPS value.
# The objective of an exported MPS file is the kind's objective (constant included), so
# the three values agree; the script stops if they differ by more than 1e-9 relative.
#
# Environment: SCHEDOPT (default: build ./cmd/schedopt into a temporary directory),
# PROOF_LIMIT (time limit of a proof, default 600s), OPEN_LIMIT (time limit of the
# instances marked open, default 120s).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/sets/schedlib"
PROOF_LIMIT=${PROOF_LIMIT:-600s}
OPEN_LIMIT=${OPEN_LIMIT:-120s}

# name | kind | flags | class (proof: solved with PROOF_LIMIT; open: with OPEN_LIMIT, =opt= only if
# proven within it, otherwise =best=)
INSTANCES='
dltflat-m4-s1            | dlt-flat   | --m 4 --seed 1                                                           | proof
dltflat-m16-s2           | dlt-flat   | --m 16 --seed 2                                                          | proof
dltflat-m64-s3           | dlt-flat   | --m 64 --seed 3                                                          | proof
dltflat-mem-m8-s4        | dlt-flat   | --m 8 --memory 1 --seed 4                                                | proof
dltflat-mem-m32-s5       | dlt-flat   | --m 32 --memory 1 --seed 5                                               | proof
dltsingle-m5-s1          | dlt-single | --m 5 --seed 1                                                           | proof
dltsingle-v20k-m10-s2    | dlt-single | --m 10 --V 20000 --S 30 --seed 2                                         | proof
dltsingle-v50k-m20-s3    | dlt-single | --m 20 --V 50000 --C 0.004 --rho 2000 --seed 3                           | proof
dltsingle-energy-m10-s1  | dlt-single | --m 10 --objective min-energy --deadline 1000 --seed 1                   | proof
dltmulti-m3n4-s1         | dlt-multi  | --m 3 --n 4 --seed 1                                                     | proof
dltmulti-m4n5-s2         | dlt-multi  | --m 4 --n 5 --seed 2                                                     | proof
dltmulti-m5n6-s3         | dlt-multi  | --m 5 --n 6 --seed 3                                                     | proof
dltmulti-m6n8-s4         | dlt-multi  | --m 6 --n 8 --seed 4                                                     | proof
dltmulti-energy-m3n4-s1  | dlt-multi  | --m 3 --n 4 --objective min-energy --deadline 5000 --seed 1              | proof
dltmulti-m10n12-s1       | dlt-multi  | --m 10 --n 12 --seed 1                                                   | open
dltmulti-m20n12-s2       | dlt-multi  | --m 20 --n 12 --seed 2                                                   | open
dltmulti-m7n10-s5        | dlt-multi  | --m 7 --n 10 --seed 5                                                    | open
dltmulti-energy-m5n6-s1  | dlt-multi  | --m 5 --n 6 --objective min-energy --deadline 800 --seed 1               | open
stencil-2x2x2-cpugpu     | stencil    | --nx 2 --ny 2 --nz 2 --config cpu-gpu --seed 1                           | proof
stencil-4x2x2-cpugpu     | stencil    | --nx 4 --ny 2 --nz 2 --config cpu-gpu --seed 1                           | proof
stencil-4x4x2-2cpu2gpu   | stencil    | --nx 4 --ny 4 --nz 2 --config 2cpu-2gpu --seed 2                         | proof
stencil-4x4x4-ij-cpucpu  | stencil    | --nx 4 --ny 4 --nz 4 --periodic ij --config cpu-cpu --seed 3             | proof
stencil-cuboid-cpugpu    | stencil    | --grid cuboid --config cpu-gpu --seed 1                                  | open
stencil-sphere-2cpu2gpu  | stencil    | --grid sphere --config 2cpu-2gpu --seed 1                                | proof
workload-linear-n20      | workload   | --profile linear --points 30 --n 20 --objective min-energy --seed 1     | proof
workload-linear-n40-time | workload   | --profile linear --points 60 --n 40 --objective min-time --seed 2       | proof
workload-dgemm-p3        | workload   | --profile dgemm --p 3 --points 40 --n 2048 --objective min-energy --seed 1 | proof
workload-fft-p4          | workload   | --profile fft --p 4 --points 40 --objective min-total-energy --static-power 50 --seed 1 | proof
workload-dgemm-p5        | workload   | --profile dgemm --p 5 --points 450 --objective min-energy --seed 1     | proof
workload-identical-p8    | workload   | --profile identical --p 8 --points 60 --n 240 --objective min-energy --seed 1 | proof
partition-i7titan-sa     | partition  | --platform i7+titan --app sa                                             | proof
partition-i7750-la-chunks8-energy | partition | --platform i7+750 --app la --split chunks --chunks 8 --objective min-energy | proof
partition-i3titan-da-chunks64-energy | partition | --platform i3+titan --app da --split chunks --chunks 64 --objective min-energy | proof
partition-random-p3q6-s1 | partition  | --random --processors 3 --portions 6 --split mixed --seed 1             | proof
partition-random-p4q12-s2 | partition | --random --processors 4 --portions 12 --split mixed --seed 2            | proof
partition-random-p6q24-s3 | partition | --random --processors 6 --portions 24 --split mixed --seed 3            | proof
'

log() { printf 'schedlib: %s\n' "$*" >&2; }

# write_readme DIR: README.md of the set, its instance table from DIR/proofs.tsv.
write_readme() {
  local dir=$1
  {
    cat <<'HEAD'
# schedlib: energy-aware scheduling MILPs with proven optima

MPS exports (gzip, free MPS) of instances of schedopt's six problem kinds, from easy to
open, with `schedlib.solu` in MIPLIB's format: `=opt= NAME VALUE` for values proven
optimal, `=best= NAME VALUE` for the best verified value of an open instance. As far as
we know no other public benchmark of energy-aware scheduling MILPs with proven optima
exists. Every file is generated from a seed by `scripts/schedlib.sh`, which also proves
the values; `go test ./bench/sets/schedlib` checks that every `.solu` name has a file
and every file reads, and `go test -tags schedlib -timeout 2h ./bench/sets/schedlib`
proves every value again from the files alone (HiGHS command line at gap 0, the point
checked in exact rational arithmetic by package `ratcheck`).

## The kinds

| kind | model (docs/spec.md) | objective of the MPS file |
|---|---|---|
| `dlt-flat` | divisible load on a heterogeneous star with flat memory: the LP (2.5)-(2.9) of seed 004 | makespan [s] |
| `dlt-single` | one-installment divisible load with hierarchical memory: the ILP (5.1)-(5.11) of seed 004 | makespan [s], or energy [J] under a deadline |
| `dlt-multi` | multi-installment divisible load with hierarchical memory: the MIP (6.6)-(6.28) of seed 004 | makespan [s], or energy [J] under a deadline |
| `stencil` | stencil block grids mapped on CPUs and GPUs with communication rounds: the ILP (6.1)-(6.15) of seed 001 | energy [J] under the generated deadline |
| `workload` | a workload distributed over processors with discrete time/energy profiles (seeds 000, 003): the ILP of ref §1.9 | makespan [s], dynamic or total energy [J] |
| `partition` | PeaPaw roofline partitioning on CPU+GPU platforms: the MILP of seed 002 | makespan [s] or energy [J] |

The objective of each MPS file is the kind's objective as `schedopt solve` reports it,
constant included (the MPS RHS on the objective row is minus the constant, as HiGHS,
CBC and schedopt read it; GLPK reads it with the other sign). The script checks, for
every proven instance, that the MPS optimum, the kind's optimum and, where the kind has
one, its exact algorithm's value agree within 1e-9 relative.

## How the values were proven

For every instance, `schedopt solve-mps NAME.mps --gap 0 --certify` solved the exported
file: "optimal" with a confirmed certificate means HiGHS proved optimality at gap 0,
the point was verified against the model, and a cutoff solve on a second backend (CBC)
just below the value was infeasible. Those values are `=opt=`. Instances marked open
were given a time limit; their value is the verified point HiGHS had then (`=best=`).
`schedopt solve INSTANCE --gap 0` solved the instance as its kind (the same MILP; its
objective is the kind's evaluator's recomputation from the decoded schedule, so it may
differ from the MPS value in the last digits, or, at a time limit, be a better schedule
than the MILP's objective says), and where the kind has an exact algorithm its value is
in the table too. `proofs.tsv` holds every value and certificate.

| instance | kind | generator flags (`schedopt gen KIND ...`) | `.solu` | value (MPS) | `schedopt solve` | exact algorithm |
|---|---|---|---|---|---|---|
HEAD
    awk -F'\t' 'NR > 1 { alg = $9 == "" ? "—" : $9 " = " $10; printf "| %s | %s | `%s` | =%s= | %s | %s %s | %s |\n", $1, $2, $3, $11, $5, $7, $8, alg }' "$dir/proofs.tsv"
    cat <<'TAIL'

## Regenerating

    scripts/schedlib.sh                 # regenerate everything (files, .solu, proofs.tsv, this README)
    scripts/schedlib.sh --check         # regenerate into a temporary directory: same bytes, same values
    scripts/schedlib.sh --only NAME ... # one or a few instances

The generators are deterministic (same flags and seed, same instance) and the MPS
writer is byte for byte reproducible, so `--check` compares the files' bytes.
TAIL
  } > "$dir/README.md"
}

check=""
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --readme) write_readme "$out"; exit 0 ;;
    --only) shift; while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do only+=("$1"); shift; done; continue ;;
    *) log "unknown argument $1"; exit 2 ;;
  esac
  shift
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${SCHEDOPT:-}" ]; then
  (cd "$root" && go build -o "$tmp/schedopt" ./cmd/schedopt)
  SCHEDOPT="$tmp/schedopt"
fi
command -v jq >/dev/null || { log "error: jq is needed (scripts/setup.sh installs it)"; exit 1; }

dest="$out"
[ -n "$check" ] && dest="$tmp/set"
mkdir -p "$dest"

# rel_diff A B: |A − B| / max(1, |B|)
rel_diff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b; if (s < 1) s = 1; printf "%.3g", d / s }'; }
agrees() { awk -v d="$1" 'BEGIN { exit !(d <= 1e-9) }'; }

new_proofs="$tmp/proofs.new"
: > "$new_proofs"
fail=0

while IFS='|' read -r name kind flags class; do
  name=$(echo "$name" | xargs); kind=$(echo "$kind" | xargs); flags=$(echo "$flags" | xargs); class=$(echo "$class" | xargs)
  [ -z "$name" ] && continue
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then continue; fi
  log "$name: $kind $flags"
  # shellcheck disable=SC2086 # the flags are words
  "$SCHEDOPT" gen "$kind" $flags -o "$tmp/$name.json" 2>/dev/null
  "$SCHEDOPT" export "$tmp/$name.json" --format mps -o "$tmp/$name.mps" 2>/dev/null
  gzip -9nc "$tmp/$name.mps" > "$dest/$name.mps.gz"
  limit=$PROOF_LIMIT
  [ "$class" = open ] && limit=$OPEN_LIMIT
  mps=$(nice -n 10 "$SCHEDOPT" solve-mps "$tmp/$name.mps" --gap 0 --certify --time-limit "$limit" --threads 1 --json 2>/dev/null || true)
  mst=$(jq -r '.status' <<<"$mps"); mobj=$(jq -r '.objective' <<<"$mps")
  cert=$(jq -r '.certificate.method // ""' <<<"$mps"); confirmed=$(jq -r '.certificate.confirmed // false' <<<"$mps")
  kres=$(nice -n 10 "$SCHEDOPT" solve "$tmp/$name.json" --gap 0 --time-limit "$limit" --threads 1 --json 2>/dev/null || true)
  kst=$(jq -r '.status' <<<"$kres"); kobj=$(jq -r '.objective' <<<"$kres")
  xalg=$(jq -r '.check.exact.algorithm // ""' <<<"$kres"); xobj=$(jq -r '.check.exact.objective // ""' <<<"$kres")
  verdict=""
  if [ "$mst" = optimal ] && [ "$confirmed" = true ]; then
    verdict=opt
  elif [ "$mst" = optimal ] || [ "$mst" = feasible ]; then
    verdict=best
  else
    log "error: $name: solve-mps status $mst"; fail=1; continue
  fi
  # The kind's optimum and the exact algorithm's must be the MPS value (same objective).
  if [ "$kst" = optimal ] && [ "$verdict" = opt ] && ! agrees "$(rel_diff "$kobj" "$mobj")"; then
    log "error: $name: kind objective $kobj differs from the MPS objective $mobj"; fail=1
  fi
  if [ -n "$xobj" ] && [ "$verdict" = opt ] && ! agrees "$(rel_diff "$xobj" "$mobj")"; then
    log "error: $name: exact objective $xobj differs from the MPS objective $mobj"; fail=1
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$flags" "$mst" "$mobj" "$cert" "$kst" "$kobj" "$xalg" "$xobj" "$verdict" >> "$new_proofs"
  log "$name: =$verdict= $mobj (kind: $kst $kobj${xobj:+, exact $xobj})"
done <<<"$INSTANCES"

# The set's files in INSTANCES order: this run's lines, and (with --only) the others'
# lines from the set as it was.
{
  printf 'name\tkind\tflags\tmps_status\tmps_objective\tcertificate\tkind_status\tkind_objective\texact_algorithm\texact_objective\tverdict\n'
  while IFS='|' read -r name _; do
    name=$(echo "$name" | xargs); [ -z "$name" ] && continue
    line=$(awk -F'\t' -v n="$name" '$1 == n' "$new_proofs")
    [ -z "$line" ] && [ -z "$check" ] && [ -f "$out/proofs.tsv" ] && line=$(awk -F'\t' -v n="$name" '$1 == n' "$out/proofs.tsv")
    if [ -n "$line" ]; then printf '%s\n' "$line"; fi
  done <<<"$INSTANCES"
} > "$dest/proofs.tsv.tmp"
{
  echo "# schedlib: energy-aware scheduling MILPs exported by schedopt (scripts/schedlib.sh)."
  echo "# =opt= values are proven (HiGHS at gap 0, point verified, cutoff solve on a second"
  echo "# backend infeasible; see proofs.tsv); =best= values are verified points of open instances."
  awk -F'\t' 'NR > 1 { printf "=%s= %s %s\n", $11, $1, $5 }' "$dest/proofs.tsv.tmp"
} > "$dest/schedlib.solu.tmp"

if [ -z "$check" ]; then
  mv "$dest/schedlib.solu.tmp" "$dest/schedlib.solu"
  mv "$dest/proofs.tsv.tmp" "$dest/proofs.tsv"
  # files of instances no longer listed go
  for f in "$dest"/*.mps.gz; do
    n=$(basename "$f" .mps.gz)
    awk -F'\t' -v n="$n" '$1 == n { found = 1 } END { exit !found }' "$dest/proofs.tsv" || rm -f "$f"
  done
  write_readme "$dest"
  [ "$fail" -eq 0 ] || { log "some values could not be proven or disagree (see above)"; exit 1; }
  log "wrote $dest ($(ls "$dest"/*.mps.gz | wc -l) instances)"
  exit 0
fi

# --check: the files must be the same bytes and every =opt= value the same within 1e-9.
for f in "$dest"/*.mps.gz; do
  if ! cmp -s "$f" "$out/$(basename "$f")"; then
    log "error: $(basename "$f") differs from the one in $out"; fail=1
  fi
done
while read -r tag name value; do
  case "$tag" in '#'*|'') continue ;; esac
  [ "$tag" = "=opt=" ] || continue
  got=$(awk -v n="$name" '$1 == "=opt=" && $2 == n { print $3 }' "$dest/schedlib.solu.tmp")
  if [ -z "$got" ]; then
    [ ${#only[@]} -gt 0 ] && continue
    log "error: $name: not re-proven optimal"; fail=1; continue
  fi
  if ! agrees "$(rel_diff "$got" "$value")"; then
    log "error: $name: re-proven $got, the set says $value"; fail=1
  fi
done < "$out/schedlib.solu"
[ "$fail" -eq 0 ] || exit 1
log "check passed"
