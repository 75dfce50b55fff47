#!/usr/bin/env bash
# certcost.sh: what certification costs, per instance, against the raw solver.
#
#   scripts/certcost.sh [-t LIMIT_S] [-b BACKEND] [-x EXTRA_FLAG]... DIR_OR_FILES...
#
# For every .mps, .mps.gz, .lp or .lp.gz given (or found in a directory), runs the
# `highs` program on the file (one thread, the same relative gap 1e-6 and time limit
# as schedopt) and then `schedopt solve-mps FILE --backend highs --threads 1`, back to
# back, and prints one row per instance: the raw program's wall time, schedopt's, their
# ratio, the same for CPU time (user + system: steadier than wall time on a shared
# machine), schedopt's first solve and the solves the certification added, and how the
# status was certified. The last lines give the shifted geometric means (shift 1 s) of
# both and their ratios, and the load (uptime) before and after.
#
# Needs `highs` (scripts/setup.sh builds it into /usr/local/bin) and a schedopt binary
# (SCHEDOPT=path, default: go build into a temporary directory), plus jq. The solve-mps
# flags after -x are passed on (e.g. -x --certify).
set -euo pipefail

limit=60
backend=highs
extra=()
while getopts "t:b:x:" o; do
  case $o in
    t) limit=$OPTARG ;;
    b) backend=$OPTARG ;;
    x) extra+=("$OPTARG") ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,16p' "$0"; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${SCHEDOPT:-}" ]; then
  (cd "$(dirname "$0")/.." && go build -o "$tmp/schedopt" ./cmd/schedopt)
  SCHEDOPT=$tmp/schedopt
fi
printf 'threads = 1\nmip_rel_gap = 1e-6\nmip_abs_gap = 0\ntime_limit = %s\n' "$limit" >"$tmp/highs.opt"

files=()
for a in "$@"; do
  if [ -d "$a" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$a" -maxdepth 1 \( -name '*.mps' -o -name '*.mps.gz' -o -name '*.lp' -o -name '*.lp.gz' \) | sort)
  else
    files+=("$a")
  fi
done

echo "load before: $(uptime)"
printf '| instance | highs s | schedopt s | ratio | highs cpu s | schedopt cpu s | cpu ratio | first solve s | added solves s | status | certified |\n'
printf '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|\n'
sums=$tmp/sums
: >"$sums"
for f in "${files[@]}"; do
  base=$(basename "$f")
  name=${base%.gz}
  plain=$tmp/$name
  case $f in *.gz) gunzip -c "$f" >"$plain" ;; *) cp "$f" "$plain" ;; esac
  /usr/bin/time -o "$tmp/t1" -f "%e %U %S" highs --options_file "$tmp/highs.opt" "$plain" >"$tmp/highs.log" 2>&1 || true
  /usr/bin/time -o "$tmp/t2" -f "%e %U %S" "$SCHEDOPT" solve-mps "$plain" --backend "$backend" --threads 1 \
    --time-limit "${limit}s" --json "${extra[@]}" >"$tmp/out.json" 2>"$tmp/err.log" || true
  read -r raw rawu raws <"$tmp/t1"
  read -r ours oursu ourss <"$tmp/t2"
  rawcpu=$(echo "$rawu + $raws" | bc -l)
  ourcpu=$(echo "$oursu + $ourss" | bc -l)
  first=$(jq -r '[.certificate.solves[]? | select(.purpose == "solve")][0].seconds // "nan"' "$tmp/out.json")
  added=$(jq -r '[.certificate.solves[1:][]?.seconds] | add // 0' "$tmp/out.json")
  status=$(jq -r '.status // "?"' "$tmp/out.json")
  method=$(jq -r '.certificate.method // .message // "?"' "$tmp/out.json" | tr '|' '/')
  printf '| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %.2f | %s | %s |\n' "${name%.*}" "$raw" "$ours" \
    "$(echo "$ours / $raw" | bc -l)" "$rawcpu" "$ourcpu" "$(echo "$ourcpu / ($rawcpu + 0.001)" | bc -l)" \
    "$(printf '%.2f' "$first" 2>/dev/null || echo "$first")" "$added" "$status" "$method"
  echo "$raw $ours $rawcpu $ourcpu" >>"$sums"
done
awk '{ a += log($1 + 1); b += log($2 + 1); c += log($3 + 1); d += log($4 + 1); n++ }
     END { ga = exp(a / n) - 1; gb = exp(b / n) - 1; gc = exp(c / n) - 1; gd = exp(d / n) - 1;
           printf "\nshifted geometric mean (shift 1 s) over %d instances: wall: highs %.3f s, schedopt %.3f s, ratio %.3f; cpu: highs %.3f s, schedopt %.3f s, ratio %.3f\n", n, ga, gb, gb / ga, gc, gd, gd / gc }' "$sums"
echo "load after: $(uptime)"
