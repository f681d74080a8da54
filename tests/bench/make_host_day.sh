#!/usr/bin/env bash
# The many-hosts set (make_hosts_data.py) as two results of the same I/Os,
# for the page's per-host benchmark (scale_page.mjs --hosts, docs/benchmarks.md
# "A cluster host by host"):
#   bench-data/hosts-H-S-by-host.lsr   each host reduced with --keep host,dir
#                                      (its per-host matrix), merged: hosts kept
#   bench-data/hosts-H-S-cluster.lsr   the same logs reduced with --keep dir: cluster-wide
# (H hosts, S seconds).
# Both with histogram levels 1 s, 10 s, 1 min (read by ranges on the page).
# usage: tests/bench/make_host_day.sh [HOSTS] [SECONDS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-$ROOT/build/latscope}
HOSTS=${1:-200}
SECS=${2:-3600}
DATA=${DATA:-$ROOT/bench-data}
LEVELS=1000,10000,60000
SET=$(python3 "$ROOT/tests/bench/make_hosts_data.py" --out "$DATA" --hosts "$HOSTS" --seconds "$SECS")
W=$DATA/host-day-$HOSTS-$SECS
mkdir -p "$W"
for log in "$SET"/hosts_clat_hist.1.log.h*; do
  h=${log##*.}
  [ -s "$W/$h.lsr" ] || nice -n 10 "$BIN" reduce -j 1 --keep host,dir --levels "$LEVELS" "$log" -o "$W/$h.lsr" 2>/dev/null
done
/usr/bin/time -f 'merge: %e s wall, %M KB peak' nice -n 10 "$BIN" merge "$W"/h*.lsr -o "$DATA/hosts-$HOSTS-$SECS-by-host.lsr"
/usr/bin/time -f 'cluster reduce: %e s wall, %M KB peak' nice -n 10 "$BIN" reduce -j 2 --keep dir --levels "$LEVELS" \
  "$SET"/hosts_clat_hist.1.log.h* -o "$DATA/hosts-$HOSTS-$SECS-cluster.lsr"
ls -l "$DATA/hosts-$HOSTS-$SECS-by-host.lsr" "$DATA/hosts-$HOSTS-$SECS-cluster.lsr"
