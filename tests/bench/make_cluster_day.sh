#!/usr/bin/env bash
# A cluster day as one result with several resolutions, made
# from the 200-host hour of tests/bench/make_hosts_data.py: the hour reduced
# 24 times, each shifted by k hours (--offset per host), the 24 hours merged
# into a day, and that day merged HOSTS_X times with itself (the counts of
# HOSTS_X x 200 hosts; merging adds histograms, so the file has the cells
# and bins of a real merged day and the counts of the bigger cluster).
# Written with levels 1 s, 10 s, 1 min (docs/result-format.md "Several
# resolutions"), labels kept: dir (the cluster's answer; per-host questions
# go to ClickHouse, docs/cluster-merge.md).
#
#   tests/bench/make_cluster_day.sh [HOUR_DIR] [OUT.lsr]
#
# Defaults: bench-data/hosts200_s3600 (generated when missing) and
# bench-data/cluster-day.lsr; HOSTS_X=10 (2,000 hosts), BIN=build/latscope.
# Prints the sizes. Not part of the test suite.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/build/latscope}
HOUR=${1:-}
OUT=${2:-$ROOT/bench-data/cluster-day.lsr}
HOSTS_X=${HOSTS_X:-10}
[ -x "$BIN" ] || { echo "make_cluster_day.sh: $BIN missing (build it first)" >&2; exit 1; }
if [ -z "$HOUR" ]; then HOUR=$(python3 "$ROOT/tests/bench/make_hosts_data.py" --out "$ROOT/bench-data" | tail -n 1); fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

hosts=$(ls "$HOUR" | sed -n 's/.*\.log\.\(h[0-9]*\)$/\1/p')
for k in $(seq 0 23); do
  offs=()
  for h in $hosts; do offs+=(--offset "$h=$((k * 3600000))"); done
  "$BIN" reduce --quantum 1000 --keep dir "${offs[@]}" "$HOUR"/* -o "$W/hour$k.lsr" 2>/dev/null
done
"$BIN" merge "$W"/hour*.lsr -o "$W/day.lsr" 2>/dev/null
copies=()
for i in $(seq 1 "$HOSTS_X"); do copies+=("$W/day.lsr"); done
"$BIN" merge --levels 1000,10000,60000 "${copies[@]}" -o "$OUT"
echo "make_cluster_day.sh: $OUT: $(wc -c <"$OUT") bytes ($(wc -c <"$W/day.lsr") bytes for the day at 1 s alone), from $(du -sb "$HOUR" | cut -f1) bytes of logs x 24 h"
