#!/bin/bash
# Parse speed of HdrHistogram interval logs (docs/formats-hdr.md). From the
# repo root:
#
#   tests/bench/bench_hlog.sh [repeats]
#
# 1. writes bench-data/hlog/ (gitignored): tests/fixtures/hdr-processor/
#    sig3-tagged.hlog (written by HdrHistogram's own HistogramLogWriter: 3
#    significant digits, tags read/write, 48 intervals) with its interval
#    lines replayed `repeats` times (default 2000), timestamps shifted by 24 s
#    per copy, into 4 files: every payload is a real Java-written one;
# 2. builds build-bench/ (tests/bench/CMakeLists.txt, Release);
# 3. runs latscope_bench (best of 3 parses, one thread: base64 + zlib inflate
#    + V2 decode of every interval) and prints MB/s and intervals/s of CPU time.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=${BENCH_DATA:-$ROOT/bench-data}/hlog
BUILD=${BENCH_BUILD:-$ROOT/build-bench}
REPEATS=${1:-2000}
SRC="$ROOT/tests/fixtures/hdr-processor/sig3-tagged.hlog"
mkdir -p "$DATA"
for k in 1 2 3 4; do
  out="$DATA/host$k.hlog"
  [ -s "$out" ] && [ "$(cat "$out.repeats" 2>/dev/null)" = "$REPEATS" ] && continue
  awk -v n="$REPEATS" -F, 'BEGIN{OFS=","}
    /^#|^"/ {print; next}
    {l[++m]=$0}
    END{for (c=0; c<n; c++) for (i=1; i<=m; i++) {
      split(l[i], f, ","); j = (f[1] ~ /^Tag=/) ? 2 : 1;
      f[j] = sprintf("%.3f", f[j] + 24*c); s = f[1];
      for (x=2; x in f; x++) s = s "," f[x]; print s }}' "$SRC" > "$out"
  echo "$REPEATS" > "$out.repeats"
done
cmake -S "$ROOT/tests/bench" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" -j2 --target latscope_bench > /dev/null
cat "$DATA"/*.hlog > /dev/null  # into the page cache
intervals=$(cat "$DATA"/*.hlog | grep -vc '^[#"]')
result=$("$BUILD/latscope_bench" --repeat 3 --label hlog "$DATA"/*.hlog | grep '^RESULT')
echo "$result"
echo "$result" | awk -v n="$intervals" '{printf "HdrHistogram logs: %d files, %.1f MB, %d intervals: %.0f MB/s wall, %.0f MB/s CPU, %.0f k intervals/s CPU\n", $3, $5/1e6, n, $7, $9, n/$8/1e3}'
