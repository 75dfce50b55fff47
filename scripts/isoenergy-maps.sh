#!/usr/bin/env bash
# isoenergy-maps.sh draws every isoenergy map of seed 004 chapter 4 with
# `schedopt map isoenergy`: the Amdahl/Gustafson maps of §4.1 (Figs. 4.1-4.2) and the
# eleven divisible-load maps of §4.3 (Figs. 4.4-4.14), with the per-figure deviations
# from the reference instance that the thesis states. Each map writes NAME.csv (the
# traced points, level,x,y), NAME.svg / NAME.png (heat map and isolines), NAME.txt
# (the command's summary) and, with GRID=N, NAME-grid.csv (x,y,energy,time on an N×N
# grid); and checks every traced point against the 1024-bit evaluation
# of (4.16) (--verify). The comparison with the thesis is docs/reproduction/isoenergy.md.
#
# Usage: [GRID=N] scripts/isoenergy-maps.sh [BIN] [OUTDIR]
#   BIN defaults to a fresh build of ./cmd/schedopt, OUTDIR to docs/figures/isoenergy.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
out=${2:-docs/figures/isoenergy}
if [ -z "$bin" ]; then
  bin=$(mktemp -d)/schedopt
  go build -o "$bin" ./cmd/schedopt
fi
mkdir -p "$out"
start=$(date +%s.%N)

map() { # map NAME ARGS...: one map; any failure (including --verify) stops the script
  local name=$1; shift
  printf 'isoenergy-maps: %s\n' "$name" >&2
  local grid=()
  [ "${GRID:-0}" -gt 0 ] && grid=(--grid "$GRID")
  "$bin" map isoenergy "$@" "${grid[@]}" --csv "$out/$name.csv" --plot "$out/$name" --verify >"$out/$name.txt"
}

# §4.1: energy laws, relative units (1 = one core running the whole application).
map fig4-1a-amdahl-m-k --model amdahl --x m --y k --set f=0.8 --x-range 1,64 --y-range 1,20 \
  --x-scale linear --y-scale linear --levels 1.5,2,3,5,10,20 --title "Fig. 4.1a: Amdahl's law (m, k), f = 0.8"
map fig4-1b-gustafson-m-k --model gustafson --x m --y k --set f=0.8 --x-range 1,64 --y-range 1,100 \
  --x-scale linear --y-scale log --levels 5,10,20,30,40,50 --title "Fig. 4.1b: Gustafson's law (m, k), f = 0.8"
map fig4-2a-amdahl-f-k --model amdahl --x f --y k --set m=1000 --x-range 0,1 --y-range 1,1000 \
  --x-scale linear --y-scale log --levels 2,5,10,50,100,300,900 --title "Fig. 4.2a: Amdahl's law (f, k), m = 1000"
map fig4-2b-gustafson-f-k --model gustafson --x f --y k --set m=1000 --x-range 0,1 --y-range 1,1000 \
  --x-scale linear --y-scale log --levels 2,5,10,50,100,300,900 --title "Fig. 4.2b: Gustafson's law (f, k), m = 1000"

# §4.3: the divisible-load model (4.16), reference m=1000 a=1E-3 C=1E-8 S=100 V=1E11 k=3 PC=200 PN=50.
map fig4-4-V-C --x V --y C --x-range 1e9,1e15 --y-range 1e-10,1e-2 \
  --levels 2.5e10,1e11,3e11,1e12,3e12,1e13,3e13,1e14 --title "Fig. 4.4: (V, C)"
map fig4-5-PC-PN --x PC --y PN --x-range 1e-1,1e4 --y-range 1,1e9 \
  --levels 1e9,1e10,1e11,1e12,1e13,1e14 --title "Fig. 4.5: (PC, PN)"
map fig4-6-m-PN --x m --y PN --x-range 1,1500 --y-range 1,1e7 \
  --levels 2.1e10,2.2e10,2.4e10,3e10,5e10,1e11,3e11 --title "Fig. 4.6: (m, PN)"
map fig4-7-m-S --x m --y S --x-range 1,1500 --y-range 1,1e5 \
  --levels 2.02e10,2.05e10,2.1e10,2.2e10,2.4e10,2.6e10,2.8e10 --title "Fig. 4.7: (m, S)"
map fig4-8-m-k --x m --y k --x-range 1,1500 --y-range 1,1e3 \
  --levels 2.05e10,2.1e10,2.2e10,2.4e10,2.7e10,3e10 --title "Fig. 4.8: (m, k)"
map fig4-9-m-C-a1e-2 --x m --y C --set a=1e-2 --x-range 1,1500 --y-range 1e-12,1e-1 \
  --levels 2.05e11,2.1e11,2.3e11,3e11,1e12,1e13 --title "Fig. 4.9: (m, C), a = 1E-2"
map fig4-10-m-PC-C1e-2 --x m --y PC --set C=1e-2 --x-range 1,10 --y-range 1e-2,1e4 \
  --levels 5.01e10,5.1e10,6e10,1e11,3e11,1e12,1e13 --title "Fig. 4.10: (m, PC), C = 1E-2"
map fig4-11-PC-V-m10 --x PC --y V --set m=10 --x-range 1e-1,1e4 --y-range 1e2,1e15 \
  --levels 1e8,1e10,1e12,1e14,1e16 --title "Fig. 4.11: (PC, V), m = 10"
map fig4-12-PN-S-k100 --x PN --y S --set k=100 --x-range 1,1e12 --y-range 1e-2,1e3 \
  --levels 2.1e10,1e11,1e12,1e13,2.01e13,1e14,1e15 --title "Fig. 4.12: (PN, S), k = 100"
map fig4-13-PN-a --x PN --y a --x-range 1,1e13 --y-range 1e-4,1e-1 \
  --levels 3e10,1e11,1e12,1e13,1e14,1e15 --title "Fig. 4.13: (PN, a)"
map fig4-14-C-S-a10 --x C --y S --set a=10 --x-range 1e-8,1 --y-range 1e-2,1e7 \
  --levels 2.01e14,2.1e14,3e14,1e15,1e16 --title "Fig. 4.14: (C, S), a = 10"

# Beyond the thesis: limited flat memory, LP (2.5)-(2.9), one certified LP per grid node
# (m = 100, B = 1.002E9 per worker; contoured, so no --verify).
printf 'isoenergy-maps: %s\n' flat-B-C >&2
"$bin" map isoenergy --model flat --x B --y C --x-range 9e8,2e9 --y-range 1e-10,1e-4 --grid 40 \
  --levels 2.1e10,2.3e10,2.7e10,3.5e10,5e10 --csv "$out/flat-B-C.csv" --plot "$out/flat-B-C" >"$out/flat-B-C.txt"
printf 'isoenergy-maps: %s\n' flat-m-B >&2
"$bin" map isoenergy --model flat --x m --y B --x-range 1,100 --y-range 1e9,1e11 --grid 40 --set S=1000 \
  --csv "$out/flat-m-B.csv" --plot "$out/flat-m-B" >"$out/flat-m-B.txt"

end=$(date +%s.%N)
printf 'isoenergy-maps: %d maps in %.1f s -> %s\n' "$(ls "$out"/*.csv | grep -vc -- -grid.csv)" "$(echo "$end - $start" | bc)" "$out" >&2
