#!/bin/bash
# Native speed and memory benchmark (docs/benchmarks.md). From the repo root:
#
#   tests/bench/run_bench.sh
#
# 1. generates the sets if missing (tests/bench/make_bench_data.py, ~2.1 GB in
#    bench-data/, gitignored): 32 files x 1 h and 32 files x 0.5 h of 1 s
#    windows; the 8- and 16-file sets are the first 8 / 16 files of the 1 h
#    set (the generator makes file i the same whatever --files says);
# 2. builds build-bench/ (Release) from tests/bench/CMakeLists.txt;
# 3. runs latscope_bench on each set (best of 3 parses; MB/s of log text per
#    core, query times, model size, peak RSS) and prints a table;
# 4. runs fio's fio-histo-log-pctiles.py on a 6-file subset of the 1 h set
#    (one file per replayed fixture: the whole set would need ~2.5 min and
#    ~9 GB of RAM per run in Python) and latscope_bench on the same 6 files;
# 5. /usr/bin/time -v of the CLI (`latscope pctiles`) on the whole 1 h set;
#
# Environment: BENCH_DATA (default <repo>/bench-data), BENCH_BUILD (default
# <repo>/build-bench), QUICK=1 (small sets: 8 files x 10 min, for a smoke run).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=${BENCH_DATA:-$ROOT/bench-data}
BUILD=${BENCH_BUILD:-$ROOT/build-bench}
GEN="$ROOT/tests/bench/make_bench_data.py"
OUT="$BUILD/bench-results.txt"

if [ "${QUICK:-0}" = 1 ]; then
  FILES=8; LONG=600; SHORT=300
else
  FILES=32; LONG=3600; SHORT=1800
fi

gen() {  # files seconds -> prints the set's directory
  local dir="$DATA/f$1_s$2"
  if [ ! -f "$dir/.complete" ]; then
    echo "generating $dir ..." >&2
    /usr/bin/python3 "$GEN" --out "$DATA" --files "$1" --seconds "$2" >/dev/null
  fi
  echo "$dir"
}
BIG=$(gen "$FILES" "$LONG")
HALF=$(gen "$FILES" "$SHORT")

echo "building $BUILD ..." >&2
cmake -S "$ROOT/tests/bench" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j2 >/dev/null

exec > >(tee "$OUT")
echo "# latscope benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: CPU-time rates are the per-core figures)"

# Warm the page cache so the timings are the parser's, not the disk's.
cat "$BIG"/* "$HALF"/* >/dev/null

# Sets for the scaling table: the first N files of the long set, in the
# generator's order (file i is job i/8+1 on host 10.0.0.(i%8+1), 8 hosts).
first_files() {
  local i
  for ((i = 0; i < $1; i++)); do echo "$BIG/bench_clat_hist.$((i / 8 + 1)).log.10.0.0.$((i % 8 + 1))"; done | tr '\n' ' '
}
q=$((FILES / 4)); h=$((FILES / 2))
declare -a LABELS=("${q}f_${LONG}s" "${h}f_${LONG}s" "${FILES}f_${SHORT}s" "${FILES}f_${LONG}s")
declare -a SETS=("$(first_files $q)" "$(first_files $h)" "$HALF" "$BIG")
RESULTS=()
for i in "${!SETS[@]}"; do
  echo
  echo "## latscope_bench ${LABELS[$i]}"
  # shellcheck disable=SC2086  # word splitting of the file list is intended
  r=$("$BUILD/latscope_bench" --repeat 3 --label "${LABELS[$i]}" ${SETS[$i]})
  echo "$r" | grep -v '^RESULT'
  RESULTS+=("$(echo "$r" | grep '^RESULT')")
done

echo
echo "## Scaling (MB = 10^6 bytes; MB/s per core from CPU time, wall MB/s in brackets)"
printf '%-10s %5s %8s %8s %9s %9s %9s %9s %13s %9s %7s %7s\n' set files "text MB" windows "model MB" "varint MB" "peak RSS" "RSS/text" "parse MB/s" "finish %" "q all" "q host"
for r in "${RESULTS[@]}"; do
  # RESULT label files windows bytes parse_s mbps cpu_s cpu_mbps q_all q_host used cap
  #        peak_kb rss_kb compact finish_cpu
  echo "$r" | awk '{printf "%-10s %5d %8.1f %8d %9.1f %9.1f %9.1f %9.2f %6.0f [%4.0f] %8.0f%% %6.2fs %6.2fs\n",
    $2, $3, $5/1e6, $4, $12/1e6, $16/1e6, $14*1024/1e6, $14*1024/$5, $9, $7, 100*$17/$8, $10, $11}'
done
echo "(model MB: Series windows+bins+counts as stored; varint MB: the same windows varint-coded;"
echo " finish %: share of the parse CPU spent in finish(), i.e. repair detection, repair, window building)"

echo
echo "## fio-histo-log-pctiles.py vs latscope on the same subset"
PY=$(mktemp --suffix=.py)
trap 'rm -f "$PY"' EXIT
zcat /usr/share/doc/fio/fio-histo-log-pctiles.py.gz >"$PY"
SUB=$(first_files 6)
SUBBYTES=$(cat $SUB | wc -c)
echo "subset: $(echo $SUB | wc -w) files, $((SUBBYTES / 1000000)) MB: $(for f in $SUB; do basename "$f"; done | tr '\n' ' ')"
# shellcheck disable=SC2086
/usr/bin/time -f '%e %U %S %M' -o "$BUILD/py.time" /usr/bin/python3 "$PY" $SUB >"$BUILD/py.out"
read -r pe pu ps pm <"$BUILD/py.time"
# shellcheck disable=SC2086
sr=$("$BUILD/latscope_bench" --repeat 3 --label subset $SUB | grep '^RESULT')
awk -v b="$SUBBYTES" -v pe="$pe" -v pu="$pu" -v ps="$ps" -v pm="$pm" -v r="$sr" 'BEGIN {
  split(r, f, " ");
  printf "%-28s %10s %10s %12s\n", "", "CPU MB/s", "wall MB/s", "peak RSS MB";
  printf "%-28s %10.1f %10.1f %12.0f\n", "fio-histo-log-pctiles.py", b/1e6/(pu+ps), b/1e6/pe, pm*1024/1e6;
  printf "%-28s %10.1f %10.1f %12.0f\n", "latscope parse (engine)", f[9], f[7], f[14]*1024/1e6;
  printf "speed-up per core: %.0fx\n", f[9] / (b/1e6/(pu+ps));
}'
echo "(the script's output, $(grep -c '^ *[0-9]' "$BUILD/py.out") quanta, is in $BUILD/py.out)"

echo
echo "## CLI: /usr/bin/time -v $BUILD/latscope pctiles <whole ${FILES}f_${LONG}s set>"
/usr/bin/time -v "$BUILD/latscope" pctiles "$BIG"/bench_clat_hist.* >"$BUILD/cli.csv" 2>"$BUILD/cli.time" || {
  echo "latscope pctiles failed:" >&2; cat "$BUILD/cli.time" >&2; exit 1; }
grep -E "Elapsed|Maximum resident|User time|System time" "$BUILD/cli.time" | sed 's/^\s*//'
echo "rows: $(($(wc -l <"$BUILD/cli.csv") - 1)); last row: $(tail -1 "$BUILD/cli.csv")"

echo
echo
echo "results written to $OUT"
