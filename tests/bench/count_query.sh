#!/bin/sh
# Instructions of the page's heaviest query, counted: the per-host
# percentiles at 1 s without bands (what the page asks when the lines are
# too dense for bands), run natively under callgrind with only
# Engine::query counted. Unlike a time, the count is the same from run to
# run, so an engine change worth a few percent shows on a machine whose
# wall times wander by a third (docs/benchmarks.md, "Counting a query").
#
#   tests/bench/count_query.sh [DIR] [QUANTUM_MS]
#
# DIR defaults to bench-data/hosts200_s3600 (made by make_hosts_data.py if
# missing). Prints the count; the per-function profile stays in
# build-bench/query.callgrind (callgrind_annotate reads it).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build="${BENCH_BUILD:-$root/build-bench}"
data="${1:-$root/bench-data/hosts200_s3600}"
quantum="${2:-1000}"

command -v valgrind >/dev/null 2>&1 || {
  echo "count_query.sh: valgrind not found (apt-get install -y valgrind)" >&2
  exit 1
}
if [ ! -e "$data" ] && [ "$data" = "$root/bench-data/hosts200_s3600" ]; then
  python3 "$root/tests/bench/make_hosts_data.py" --out "$root/bench-data" >/dev/null
fi
cmake -S "$root/tests/bench" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target latscope_bench >/dev/null

out="$build/query.callgrind"
valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='latscope::Engine::query*' \
  "$build/latscope_bench" --query-only --quantum "$quantum" "$data" 2>"$build/query.valgrind" |
  grep -v '^$' || true
refs=$(sed -n 's/.*I *refs: *//p' "$build/query.valgrind")
[ -n "$refs" ] || {
  cat "$build/query.valgrind" >&2
  exit 1
}
echo "instructions in Engine::query: $refs ($(basename "$data"), by host, ${quantum} ms quanta, no bands)"
echo "per function: callgrind_annotate $out"
