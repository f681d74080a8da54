#!/usr/bin/env bash
# Scale benchmark: N hosts x T hours of fio histogram
# logs, end to end, as a cluster would run it (docs/cluster-merge.md):
#   1. generate: tests/bench/make_bench_data.py --per-host-dirs, real fio
#      records replayed (client/server defect included), one folder per host;
#   2. reduce: `latscope reduce -j 2 --keep host,dir` per host, one result
#      per host (hosts one after the other here; on a cluster they run at once);
#   3. merge: `latscope merge` of the hosts' results;
#   4. ClickHouse: two 18.16 servers (tests/clickhouse/servers.sh), each
#      host's result exported as the long table and inserted into a shard
#      (odd hosts shard 1, even shard 2), the documented cluster-wide sum
#      through the Distributed table, read back by `latscope pctiles` and
#      compared with pctiles of the merge (sanity: the same figures);
#   5. the page: the merged result and ClickHouse's answer opened in
#      Chromium through the page's engine (tests/bench/scale_page.mjs): time
#      to the first answer, to regrouping by host, to a 10 s quantum.
# Prints per-stage rates, sizes, peak memory (/usr/bin/time -f %M), and the
# extrapolation to 2,000 hosts x 24 h with the measured rates.
#
# usage: tests/bench/scale_bench.sh [path/to/latscope]   (a Release build; default build/latscope)
# Environment: HOSTS (200), HOURS (1), JOBS per host (1), DATA (default
# <repo>/bench-data, gitignored; the set is deleted at the end unless
# KEEP_DATA=1), WASM_DIR (default web/public/wasm), SKIP_CH=1, SKIP_PAGE=1,
# CH_HOSTS (default HOSTS): the ClickHouse stage on the first CH_HOSTS hosts
# only (its inserts run at a few MB/s of TSV here; the extrapolation scales
# its rates), compared with a merge of the same hosts.
# Needs about HOSTS x JOBS x 44 MB per hour of disk for the logs, and as much
# again transiently for the long tables. Not part of the test suite; no
# timing is asserted.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$(dirname "${1:-$ROOT/build/latscope}")" && pwd)/$(basename "${1:-$ROOT/build/latscope}")
[ -x "$BIN" ] || { echo "latscope binary $BIN missing (build it first)"; exit 1; }
HOSTS=${HOSTS:-200} HOURS=${HOURS:-1} JOBS=${JOBS:-1}
SECS=$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 }')
DATA=${DATA:-$ROOT/bench-data}
WASM_DIR=${WASM_DIR:-$ROOT/web/public/wasm}
KEEP_LABELS=host,dir
SET=$DATA/f$((HOSTS * JOBS))_s${SECS}_h$HOSTS
W=$DATA/scale-work
OUT=$DATA/scale-results.txt
TIME=/usr/bin/time
mkdir -p "$W"
exec > >(tee "$OUT")

# shellcheck source=tests/clickhouse/servers.sh
source "$ROOT/tests/clickhouse/servers.sh"
cleanup() {
  stop_servers
  if [ "${KEEP_DATA:-0}" != 1 ]; then rm -rf "$SET" "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
rate() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", (s > 0 ? b / 1e6 / s : 0) }'; }
peak_mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k * 1024 / 1e6 }'; }
timed() {  # file cmd... : /usr/bin/time's "wall user sys maxrss_kb" into file
  local f=$1
  shift
  "$TIME" -f '%e %U %S %M' -o "$f" "$@"
}

echo "# latscope scale benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $HOSTS hosts x $HOURS h x $JOBS job(s), $BIN"

# --- 1. generate -------------------------------------------------------------
t0=$(now)
timed "$W/gen.time" python3 "$ROOT/tests/bench/make_bench_data.py" --out "$DATA" \
  --files $((HOSTS * JOBS)) --hosts "$HOSTS" --seconds "$SECS" --per-host-dirs >/dev/null
t1=$(now)
LOG_BYTES=$(find "$SET" -type f -name 'bench_clat_hist.*' -printf '%s\n' | awk '{ s += $1 } END { print s }')
GEN_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
echo "generate: $(mb "$LOG_BYTES") MB of logs in $(printf %.1f "$GEN_S") s ($(rate "$LOG_BYTES" "$GEN_S") MB/s, each distinct file generated once and copied)"

# --- 2. reduce, host by host ----------------------------------------------------
mkdir -p "$W/results"
RED_WALL=0 RED_CPU=0 RED_PEAK=0 RED_MAX=0
for d in "$SET"/*/; do
  h=$(basename "$d")
  timed "$W/reduce.time" "$BIN" reduce -j 2 --keep "$KEEP_LABELS" "$d"bench_clat_hist.* -o "$W/results/$h.lsr" 2>"$W/reduce.err" ||
    { echo "reduce of $h failed:"; cat "$W/reduce.err"; exit 1; }
  read -r e u s m <"$W/reduce.time"
  RED_WALL=$(awk -v a="$RED_WALL" -v b="$e" 'BEGIN { print a + b }')
  RED_CPU=$(awk -v a="$RED_CPU" -v b="$u" -v c="$s" 'BEGIN { print a + b + c }')
  RED_MAX=$(awk -v a="$RED_MAX" -v b="$e" 'BEGIN { print (b > a ? b : a) }')
  [ "$m" -gt "$RED_PEAK" ] && RED_PEAK=$m
done
LSR_BYTES=$(find "$W/results" -name '*.lsr' -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "reduce: $HOSTS hosts in $(printf %.1f "$RED_WALL") s wall ($(awk -v n="$HOSTS" -v s="$RED_WALL" 'BEGIN { printf "%.2f", n / s }') hosts/s," \
  "$(rate "$LOG_BYTES" "$RED_WALL") MB/s of logs; CPU $(printf %.1f "$RED_CPU") s = $(rate "$LOG_BYTES" "$RED_CPU") MB/s per core);" \
  "slowest host $(printf %.2f "$RED_MAX") s; results $(mb "$LSR_BYTES") MB ($(awk -v a="$LOG_BYTES" -v b="$LSR_BYTES" 'BEGIN { printf "%.1f", a / b }')x smaller);" \
  "peak RSS $(peak_mb "$RED_PEAK") MB"

# --- 3. latscope merge -------------------------------------------------------------
timed "$W/merge.time" "$BIN" merge "$W"/results/*.lsr -o "$W/merged.lsr" 2>"$W/merge.err" || { cat "$W/merge.err"; exit 1; }
read -r MERGE_S mu ms MERGE_PEAK <"$W/merge.time"
MERGED_BYTES=$(stat -c %s "$W/merged.lsr")
echo "merge: $HOSTS results in $MERGE_S s ($(rate "$LSR_BYTES" "$MERGE_S") MB/s of results, $(awk -v n="$HOSTS" -v s="$MERGE_S" 'BEGIN { printf "%.0f", n / s }') hosts/s;" \
  "CPU $(awk -v a="$mu" -v b="$ms" 'BEGIN { print a + b }') s); merged $(mb "$MERGED_BYTES") MB; peak RSS $(peak_mb "$MERGE_PEAK") MB"
timed "$W/pct.time" "$BIN" pctiles "$W/merged.lsr" >"$W/merged.csv" 2>/dev/null
read -r PCT_S _ _ PCT_PEAK <"$W/pct.time"
echo "pctiles of the merge (all hosts together): $PCT_S s, peak RSS $(peak_mb "$PCT_PEAK") MB, $(($(wc -l <"$W/merged.csv") - 1)) quanta"

# --- 4. ClickHouse -----------------------------------------------------------------
if [ "${SKIP_CH:-0}" != 1 ]; then
  ch_install
  ch_start_two "$W/ch"
  schema='(t_ms Int64, quantum_ms Int64, dir String, host String, kind String, layout String, extreme UInt8, bin UInt32, count Decimal(38, 28))'
  for ch in ch1 ch2; do
    $ch -q "CREATE DATABASE IF NOT EXISTS latscope"
    $ch -q "CREATE TABLE latscope.bins_local $schema ENGINE = MergeTree ORDER BY (quantum_ms, t_ms, host, dir, kind, layout, extreme, bin)"
    $ch -q "CREATE TABLE latscope.bins AS latscope.bins_local ENGINE = Distributed(latscope_two_shards, latscope, bins_local, cityHash64(host))"
  done
  # Each host exports its long table (what it would send); timed per host.
  mkdir -p "$W/tsv"
  EXP_WALL=0 EXP_PEAK=0
  CH_HOSTS=${CH_HOSTS:-$HOSTS}
  CH_RESULTS=()
  for r in "$W"/results/*.lsr; do [ ${#CH_RESULTS[@]} -lt "$CH_HOSTS" ] && CH_RESULTS+=("$r"); done
  CH_REF=$W/merged.csv
  if [ "$CH_HOSTS" -lt "$HOSTS" ]; then
    echo "ClickHouse stage on the first $CH_HOSTS of $HOSTS hosts"
    "$BIN" merge "${CH_RESULTS[@]}" -o "$W/merged_ch.lsr" 2>/dev/null
    "$BIN" pctiles "$W/merged_ch.lsr" >"$W/merged_ch.csv" 2>/dev/null
    CH_REF=$W/merged_ch.csv
  fi
  for r in "${CH_RESULTS[@]}"; do
    h=$(basename "$r" .lsr)
    timed "$W/export.time" "$BIN" export --format tsv --keep "$KEEP_LABELS" "$r" -o "$W/tsv/$h.tsv" 2>"$W/export.err" || { cat "$W/export.err"; exit 1; }
    read -r e _ _ m <"$W/export.time"
    EXP_WALL=$(awk -v a="$EXP_WALL" -v b="$e" 'BEGIN { print a + b }')
    [ "$m" -gt "$EXP_PEAK" ] && EXP_PEAK=$m
  done
  TSV_BYTES=$(find "$W/tsv" -name '*.tsv' -printf '%s\n' | awk '{ s += $1 } END { print s }')
  echo "export: $CH_HOSTS long tables in $(printf %.1f "$EXP_WALL") s ($(rate "$TSV_BYTES" "$EXP_WALL") MB/s of TSV written), $(mb "$TSV_BYTES") MB" \
    "($(awk -v a="$TSV_BYTES" -v b="$LOG_BYTES" -v f="$((HOSTS / CH_HOSTS))" 'BEGIN { printf "%.2f", a / b * f }')x those hosts' logs); peak RSS $(peak_mb "$EXP_PEAK") MB"
  # The inserts: one INSERT per shard of its hosts' tables (the header once),
  # both shards at once, into each shard's own table (docs/cluster-merge.md,
  # section 3). One client per host would add a client start-up per host.
  insert_shard() {  # ch parity
    local first=1 f i=0
    for f in "$W"/tsv/*.tsv; do
      i=$((i + 1))
      [ $((i % 2)) = "$2" ] || continue
      if [ $first = 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
    done | $1 -q "INSERT INTO latscope.bins_local FORMAT TSVWithNames"
  }
  t0=$(now)
  insert_shard ch1 1 &
  p1=$!
  insert_shard ch2 0 &
  p2=$!
  wait "$p1"
  wait "$p2"
  t1=$(now)
  INS_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  rows1=$(ch1 -q "SELECT count() FROM latscope.bins_local") rows2=$(ch2 -q "SELECT count() FROM latscope.bins_local")
  want_rows=$(find "$W/tsv" -name '*.tsv' -exec wc -l {} + | awk '$2 != "total" { s += $1 - 1 } END { print s }')
  [ $((rows1 + rows2)) = "$want_rows" ] || { echo "ClickHouse holds $rows1 + $rows2 rows, the tables had $want_rows"; exit 1; }
  disk1=$(ch1 -q "SELECT sum(bytes) FROM system.parts WHERE database = 'latscope' AND active")
  disk2=$(ch2 -q "SELECT sum(bytes) FROM system.parts WHERE database = 'latscope' AND active")
  echo "insert: $((rows1 + rows2)) rows, $(mb "$TSV_BYTES") MB of TSV in $(printf %.1f "$INS_S") s ($(rate "$TSV_BYTES" "$INS_S") MB/s," \
    "$(awk -v n="$CH_HOSTS" -v s="$INS_S" 'BEGIN { printf "%.1f", n / s }') hosts/s, two shards at once); stored $(mb $((disk1 + disk2))) MB compressed"
  rm -rf "$W/tsv"
  q="SELECT t_ms, quantum_ms, dir, kind, layout, extreme, bin, sum(count) AS count FROM latscope.bins GROUP BY t_ms, quantum_ms, dir, kind, layout, extreme, bin FORMAT TSVWithNames"
  t0=$(now)
  ch1 -q "$q" >"$W/cluster.tsv"
  t1=$(now)
  SUM_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  CLUSTER_BYTES=$(stat -c %s "$W/cluster.tsv")
  CH_PEAK=0
  for pid in "${PIDS[@]}"; do
    m=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
    [ "$m" -gt "$CH_PEAK" ] && CH_PEAK=$m
  done
  echo "cluster-wide sum (Distributed, hosts added up): $(printf %.2f "$SUM_S") s, $(($(wc -l <"$W/cluster.tsv") - 1)) rows, $(mb "$CLUSTER_BYTES") MB; clickhouse-server peak RSS $(peak_mb "$CH_PEAK") MB (larger shard)"
  # Sanity, not timing: the answer read back gives the merge's percentiles
  # (the `partial` flag aside: a table carries no coverage).
  strip_partial() { awk -F, -v OFS=, '{ n = split($NF, a, ";"); s = ""; for (i = 1; i <= n; i++) if (a[i] != "partial") s = s (s == "" ? "" : ";") a[i]; $NF = s; print }'; }
  "$BIN" pctiles "$W/cluster.tsv" 2>/dev/null | strip_partial >"$W/cluster.csv"
  strip_partial <"$CH_REF" >"$W/merged_np.csv"
  if cmp -s "$W/cluster.csv" "$W/merged_np.csv"; then
    echo "check: pctiles of ClickHouse's sum == pctiles of latscope merge ($(($(wc -l <"$W/cluster.csv") - 1)) quanta)"
  else
    echo "CHECK FAILED: pctiles of ClickHouse's sum differ from latscope merge:"; diff "$W/merged_np.csv" "$W/cluster.csv" | head -n 6
    exit 1
  fi
  stop_servers
fi

# --- 5. the page ---------------------------------------------------------------------
if [ "${SKIP_PAGE:-0}" != 1 ]; then
  PAGE_FILES=("$W/merged.lsr")
  [ -f "$W/cluster.tsv" ] && PAGE_FILES+=("$W/cluster.tsv")
  # A file the page cannot open is reported on its line (FAILED ...), not fatal.
  node "$ROOT/tests/bench/scale_page.mjs" --wasm "$WASM_DIR" "${PAGE_FILES[@]}" >"$W/page.out" || true
  echo "page (Chromium, the page's engine in 2 Web Workers; seconds: load, first answer, regroup by host, 10 s quantum; WASM MiB):"
  sed 's/^PAGE /  /' "$W/page.out"
fi

# --- 6. to 2,000 hosts x 24 h, with the measured rates -------------------------------
FH=$(awk -v h="$HOSTS" 'BEGIN { print 2000 / h }') FT=$(awk -v s="$SECS" 'BEGIN { print 86400 / s }')
echo
echo "extrapolated to 2,000 hosts x 24 h (x$FH hosts, x$FT time; linear in each):"
awk -v fh="$FH" -v ft="$FT" -v hosts="$HOSTS" -v logs="$LOG_BYTES" -v lsr="$LSR_BYTES" -v merged="$MERGED_BYTES" \
  -v red="$RED_WALL" -v redcpu="$RED_CPU" -v merge_s="$MERGE_S" -v tsv="${TSV_BYTES:-0}" -v ins="${INS_S:-0}" \
  -v exp_s="${EXP_WALL:-0}" -v sum_s="${SUM_S:-0}" -v cl="${CLUSTER_BYTES:-0}" -v chh="${CH_HOSTS:-$HOSTS}" 'BEGIN {
  chf = 2000 / chh;  # the ClickHouse stage ran on chh hosts
  printf "  logs: %.0f GB in all, %.2f GB per host (stay on the hosts)\n", logs * fh * ft / 1e9, logs / hosts * ft / 1e9;
  printf "  reduce, every host at once: %.0f s per host (%.1f CPU-s at the measured rate)\n", red / hosts * ft, redcpu / hosts * ft;
  printf "  results to move: %.1f GB (%.1f MB per host): %.0f s at 1 Gb/s into one collector, %.0f s at 10 Gb/s\n",
    lsr * fh * ft / 1e9, lsr / hosts * ft / 1e6, lsr * fh * ft / 125e6, lsr * fh * ft / 1250e6;
  printf "  latscope merge on one machine: %.0f s (%.1f GB merged, per-host series kept)\n", merge_s * fh * ft, merged * fh * ft / 1e9;
  if (tsv > 0) {
    printf "  ClickHouse: export %.0f s per host at once; %.0f GB of TSV inserted in %.0f s at the measured 2-shard rate (%.0f s with 20 shards if it scales by shard)\n",
      exp_s / chh * ft, tsv * chf * ft / 1e9, ins * chf * ft, ins * chf * ft / 10;
    printf "  cluster-wide sum: %.0f s at the measured rate (rows grow x%.0f); its answer %.0f MB (hosts added up: grows with time only)\n",
      sum_s * chf * ft, chf * ft, cl * ft / 1e6;
  }
}'
echo
echo "results written to $OUT"
