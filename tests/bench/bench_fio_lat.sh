#!/bin/bash
# Parse speed of fio per-I/O latency logs (docs/formats-fio-lat.md). From the
# repo root:
#
#   tests/bench/bench_fio_lat.sh [repeats]
#
# 1. writes bench-data/fio_lat/ (gitignored): the four real per-I/O logs of
#    tests/fixtures/fio-s1 (16,000 I/Os each over 20 s), each replayed
#    `repeats` times (default 180: one hour) with its timestamps shifted by
#    20 s per copy, so every line is a real fio line;
# 2. builds build-bench/ (tests/bench/CMakeLists.txt, Release);
# 3. runs latscope_bench (best of 3 parses, one thread) and prints MB/s and
#    I/O records/s of CPU time (exact values kept: the default budget holds
#    them all up to 32 Mi I/Os).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=${BENCH_DATA:-$ROOT/bench-data}/fio_lat
BUILD=${BENCH_BUILD:-$ROOT/build-bench}
REPEATS=${1:-180}
mkdir -p "$DATA"
for f in "$ROOT"/tests/fixtures/fio-s1/s1_clat.*.log.*; do
  out="$DATA/$(basename "$f")"
  [ -s "$out" ] && [ "$(cat "$out.repeats" 2>/dev/null)" = "$REPEATS" ] && continue
  awk -v n="$REPEATS" -F', ' 'BEGIN{OFS=", "} {l[NR]=$0; t[NR]=$1; r[NR]=substr($0, length($1)+3)}
    END{for (k=0; k<n; k++) for (i=1; i<=NR; i++) print t[i]+20000*k, r[i]}' "$f" > "$out"
  echo "$REPEATS" > "$out.repeats"
done
cmake -S "$ROOT/tests/bench" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" -j2 --target latscope_bench > /dev/null
cat "$DATA"/s1_clat.* > /dev/null  # into the page cache
lines=$(cat "$DATA"/s1_clat.*.log.127.0.0.? | wc -l)
result=$("$BUILD/latscope_bench" --repeat 3 --label fio_lat "$DATA"/s1_clat.*.log.127.0.0.? | grep '^RESULT')
echo "$result"
echo "$result" | awk -v lines="$lines" '{printf "fio per-I/O logs: %d files, %.1f MB, %d I/O lines: %.0f MB/s wall, %.0f MB/s CPU, %.2f M records/s CPU\n", $3, $5/1e6, lines, $7, $9, lines/$8/1e6}'
