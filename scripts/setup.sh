#!/usr/bin/env bash
# setup.sh installs everything schedopt needs on a fresh Debian bookworm machine:
# build tools, pkg-config, cmake, lp_solve and CBC (Debian packages), slurm-wlm and munge
# (for the Slurm integration test), chromium (the headless browser the test of the
# HTML report renders it in) and HiGHS (built from
# Debian's trixie source package, because bookworm ships none). It is idempotent and
# returns quickly when everything is already in place.
set -euo pipefail

HIGHS_VERSION=1.10.0
HIGHS_DEB_VERSION=1.10.0+ds-1
HIGHS_ORIG=highs_1.10.0+ds.orig.tar.xz
HIGHS_SHA256=5964fc1ca4f0b23dd45987bbed1838f2e570e96aa624635ac63d277152b6c94a

log() { printf 'setup: %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
  command -v sudo >/dev/null || { log "error: run as root, or install sudo"; exit 1; }
fi

# Go is not a Debian package here (bookworm's golang is far older than go.mod asks):
# it must be on PATH already. Say so up front rather than after the HiGHS build.
go_want=$(awk '$1=="go" {print $2; exit}' "$(dirname "$0")/../go.mod")
if ! command -v go >/dev/null; then
  log "error: no go on PATH; install the Go toolchain >= $go_want (official release tarball) and add its bin/ to PATH"
  exit 1
fi
go_have=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$go_want" "$go_have" | sort -V | head -n1)" != "$go_want" ]; then
  log "note: go $go_have is older than go.mod's $go_want; go will try to fetch a newer toolchain (GOTOOLCHAIN)"
fi

need_pkgs=()
# python3-pulp is only for scripts/pulp-compare.sh (the PuLP side of docs/benchmarks.md);
# glpk-utils (glpsol) is the cmd:glpsol backend of package cmdsolver; jq reads JSON results in
# scripts/schedlib.sh; chromium and a font only for the test that renders report.html
# (bench/htmlreport).
for p in build-essential pkg-config cmake liblpsolve55-dev lp-solve coinor-libcbc-dev coinor-cbc glpk-utils jq xz-utils ca-certificates python3-pulp chromium fonts-dejavu-core; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    need_pkgs+=("$p")
  fi
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing Debian packages: ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

# Slurm and munge for `make slurm-test`, which starts its own private daemons
# (scripts/slurm-local.sh). The packages' own services are not started on install: a
# temporary policy-rc.d refuses them, so the machine's services are left as they were.
slurm_pkgs=()
for p in slurm-wlm munge; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    slurm_pkgs+=("$p")
  fi
done
if [ ${#slurm_pkgs[@]} -gt 0 ]; then
  log "installing Debian packages: ${slurm_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  policy_made=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod 755 /usr/sbin/policy-rc.d
    policy_made=1
  fi
  status=0
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${slurm_pkgs[@]}" >/dev/null; } || status=$?
  if [ -n "$policy_made" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
  [ "$status" -eq 0 ] || { log "error: installing ${slurm_pkgs[*]} failed"; exit "$status"; }
fi

if pkg-config --atleast-version="$HIGHS_VERSION" highs 2>/dev/null; then
  log "HiGHS $(pkg-config --modversion highs) already installed"
  exit 0
fi

log "building HiGHS $HIGHS_VERSION from Debian's source package (takes about 7 minutes on 2 cores)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A private apt configuration with a trixie deb-src entry that reuses the URI of the
# machine's own Debian source list, so no host name lives in this repository.
# Only a stanza (or line) for the machine's own Debian release counts, so that a
# third-party repository listed first is never taken for the Debian mirror.
codename=$( (. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}") 2>/dev/null || true)
codename=${codename:-bookworm}
uri=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  u=$(awk -v cn="$codename" 'BEGIN {RS=""}
    $0 ~ ("Suites:[^\n]*" cn) && $0 !~ /security/ {
      if (match($0, /URIs:[ \t]*[^ \t\n]+/)) { s = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", s); print s; exit }
    }' "$f")
  if [ -n "$u" ]; then uri=$u; break; fi
done
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
  uri=$(awk -v cn="$codename" '$1=="deb" && $0 !~ /security/ && $0 ~ cn {for(i=2;i<=NF;i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list)
fi
if [ -z "$uri" ]; then
  log "error: cannot find a Debian mirror URI in /etc/apt/sources.list(.d)"
  exit 1
fi
mkdir -p "$work/apt/lists/partial" "$work/apt/archives/partial" "$work/apt/sources.list.d"
cat > "$work/apt/sources.list" <<SRC
deb-src [trusted=yes] $uri trixie main
SRC
aptopts=(-o "Dir::Etc::SourceList=$work/apt/sources.list"
         -o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
         -o "Dir::State::Lists=$work/apt/lists"
         -o "Dir::Cache::Archives=$work/apt/archives"
         -o "Acquire::AllowInsecureRepositories=true"
         -o "APT::Get::AllowUnauthenticated=true")
$SUDO apt-get "${aptopts[@]}" update -qq || log "warning: apt-get update for trixie sources reported errors"
(cd "$work" && apt-get "${aptopts[@]}" source --download-only "highs=$HIGHS_DEB_VERSION" >/dev/null 2>&1) \
  || log "note: apt-get source reported errors; judging by the verified tarball"
if [ ! -f "$work/$HIGHS_ORIG" ]; then
  log "error: $HIGHS_ORIG was not downloaded"
  exit 1
fi
echo "$HIGHS_SHA256  $work/$HIGHS_ORIG" | sha256sum -c --quiet - || { log "error: checksum mismatch for $HIGHS_ORIG"; exit 1; }

mkdir -p "$work/src"
tar -xf "$work/$HIGHS_ORIG" -C "$work/src" --strip-components=1
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DFAST_BUILD=ON \
  -DBUILD_TESTING=OFF -DBUILD_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX=/usr/local >/dev/null
cmake --build "$work/build" --parallel "$(nproc)" >/dev/null
$SUDO cmake --install "$work/build" >/dev/null
$SUDO ldconfig
pkg-config --atleast-version="$HIGHS_VERSION" highs || { log "error: HiGHS installed but pkg-config cannot find it (PKG_CONFIG_PATH?)"; exit 1; }
log "HiGHS $(pkg-config --modversion highs) installed"
