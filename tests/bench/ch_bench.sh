#!/usr/bin/env bash
# ClickHouse insert and query rates, the long table against the compact
# table (docs/cluster-merge.md; figures in docs/benchmarks.md, "ClickHouse"):
#   1. HOSTS hosts x HOURS h of fio histogram logs (make_bench_data.py
#      --per-host-dirs: real fio records replayed, 1 s windows), reduced per
#      host (`latscope reduce -j 2 --keep host,dir`);
#   2. each host's result exported three ways: the long table (`--format tsv`),
#      the compact table (`--format compact`) and RowBinary (`--format rowbinary`);
#   3. two ClickHouse 18.16 servers on loopback (tests/clickhouse/servers.sh);
#      each form inserted into its own tables, both shards at once (one INSERT
#      per shard of its hosts' tables: odd hosts shard 1, even shard 2);
#      RowBinary once more into a table with the cluster-wide materialized
#      view (an AggregatingMergeTree of sumMap states, host dropped), whose
#      upkeep the insert then pays;
#   4. the cluster-wide sum through the Distributed table, for each table,
#      and from the materialized view before and after OPTIMIZE; the compact
#      answers' pctiles checked against `latscope merge` (byte for byte: a
#      sanity check, not a timing);
#   5. the projection to 2,000 hosts x 24 h at the measured rates.
# usage: tests/bench/ch_bench.sh [path/to/latscope]   (a Release build)
# Environment: HOSTS (10), HOURS (1), DATA (<repo>/bench-data, gitignored;
# the set is deleted at the end unless KEEP_DATA=1). Not part of the test
# suite; no timing is asserted. Needs ~HOSTS x 44 MB per hour of disk for
# the logs and about twice that for the long tables.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$(dirname "${1:-$ROOT/build/latscope}")" && pwd)/$(basename "${1:-$ROOT/build/latscope}")
[ -x "$BIN" ] || { echo "latscope binary $BIN missing (build it first)"; exit 1; }
HOSTS=${HOSTS:-10} HOURS=${HOURS:-1}
SECS=$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 }')
DATA=${DATA:-$ROOT/bench-data}
SET=$DATA/f${HOSTS}_s${SECS}_h$HOSTS
W=$DATA/ch-bench-work
mkdir -p "$W"
# shellcheck source=tests/clickhouse/servers.sh
source "$ROOT/tests/clickhouse/servers.sh"
cleanup() {
  stop_servers
  if [ "${KEEP_DATA:-0}" != 1 ]; then rm -rf "$SET" "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
bytes_of() { find "$@" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

echo "# ClickHouse benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $HOSTS hosts x $HOURS h"
python3 "$ROOT/tests/bench/make_bench_data.py" --out "$DATA" --files "$HOSTS" --hosts "$HOSTS" --seconds "$SECS" --per-host-dirs >/dev/null
LOG_BYTES=$(bytes_of "$SET")
mkdir -p "$W/lsr" "$W/tsv" "$W/compact" "$W/rowbinary"
for d in "$SET"/*/; do
  h=$(basename "$d")
  "$BIN" reduce -j 2 --keep host,dir "$d"bench_clat_hist.* -o "$W/lsr/$h.lsr" 2>/dev/null
done
echo "logs $(mb "$LOG_BYTES") MB; results $(mb "$(bytes_of "$W/lsr")") MB"

declare -A EXPORT_S BYTES
for form in tsv compact rowbinary; do
  t0=$(now)
  for r in "$W"/lsr/*.lsr; do
    "$BIN" export --format "$form" --keep host,dir "$r" -o "$W/$form/$(basename "$r" .lsr)" 2>/dev/null
  done
  EXPORT_S[$form]=$(since "$t0") BYTES[$form]=$(bytes_of "$W/$form")
  echo "export --format $form: ${EXPORT_S[$form]} s for $HOSTS hosts, $(mb "${BYTES[$form]}") MB ($(awk -v a="${BYTES[$form]}" -v b="$LOG_BYTES" 'BEGIN { printf "%.3f", a / b }')x the logs)"
done

ch_install
ch_start_two "$W/ch"
LONG='(t_ms Int64, quantum_ms Int64, dir String, host String, kind String, layout String, extreme UInt8, bin UInt32, count Decimal(38, 28))'
CELLS='(t_ms Int64, quantum_ms Int64, dir String, host String, kind String, layout String, span_start_ms Float64, span_end_ms Float64, full_start_ms Float64, full_end_ms Float64, binsMap Nested(bin UInt32, units UInt64), extremesMap Nested(bin UInt32, n UInt64))'
CELLS_KEY='(quantum_ms, t_ms, host, dir, kind, layout, span_start_ms, span_end_ms, full_start_ms, full_end_ms)'
for ch in ch1 ch2; do
  $ch -q "CREATE DATABASE IF NOT EXISTS latscope"
  $ch -q "CREATE TABLE latscope.t_tsv_local $LONG ENGINE = MergeTree ORDER BY (quantum_ms, t_ms, host, dir, kind, layout, extreme, bin)"
  for form in compact rowbinary; do
    $ch -q "CREATE TABLE latscope.t_${form}_local $CELLS ENGINE = SummingMergeTree ORDER BY $CELLS_KEY"
  done
  $ch -q "CREATE TABLE latscope.t_rbmv_local $CELLS ENGINE = SummingMergeTree ORDER BY $CELLS_KEY"
  $ch -q "CREATE MATERIALIZED VIEW latscope.agg_local ENGINE = AggregatingMergeTree ORDER BY (quantum_ms, t_ms, dir, kind, layout)
    AS SELECT t_ms, quantum_ms, dir, kind, layout, minState(span_start_ms) AS ss, maxState(span_end_ms) AS se,
      maxState(full_start_ms) AS fs, minState(full_end_ms) AS fe,
      sumMapState(binsMap.bin, binsMap.units) AS b, sumMapState(extremesMap.bin, extremesMap.n) AS x
    FROM latscope.t_rbmv_local GROUP BY t_ms, quantum_ms, dir, kind, layout"
  ch_distributed $ch agg agg_local "rand()"
  for form in tsv compact rowbinary rbmv; do
    $ch -q "CREATE TABLE latscope.t_$form AS latscope.t_${form}_local ENGINE = Distributed(latscope_two_shards, latscope, t_${form}_local, cityHash64(host))"
  done
done
insert_shard() {  # form ch parity (form rbmv: the RowBinary files, into the table with the view)
  local f i=0 first=1 fmt=TSVWithNames dir=$1
  [ "$1" = rowbinary ] || [ "$1" = rbmv ] && fmt=RowBinary
  [ "$1" = rbmv ] && dir=rowbinary
  for f in "$W/$dir"/*; do
    i=$((i + 1))
    [ $((i % 2)) = "$3" ] || continue
    if [ $first = 1 ] || [ $fmt = RowBinary ]; then cat "$f"; else tail -n +2 "$f"; fi
    first=0
  done | $2 -q "INSERT INTO latscope.t_${1}_local FORMAT $fmt"
}
BYTES[rbmv]=${BYTES[rowbinary]} EXPORT_S[rbmv]=${EXPORT_S[rowbinary]}
declare -A INSERT_S ROWS
for form in tsv compact rowbinary rbmv; do
  t0=$(now)
  insert_shard "$form" ch1 1 &
  p1=$!
  insert_shard "$form" ch2 0 &
  p2=$!
  wait "$p1"
  wait "$p2"
  INSERT_S[$form]=$(since "$t0")
  ROWS[$form]=$(ch1 -q "SELECT count() FROM latscope.t_$form")
  stored=$(($(ch1 -q "SELECT sum(bytes) FROM system.parts WHERE active AND table = 't_${form}_local'") + $(ch2 -q "SELECT sum(bytes) FROM system.parts WHERE active AND table = 't_${form}_local'")))
  echo "insert $form: ${ROWS[$form]} rows, $(mb "${BYTES[$form]}") MB in ${INSERT_S[$form]} s, two shards at once:" \
    "$(awk -v b="${BYTES[$form]}" -v s="${INSERT_S[$form]}" 'BEGIN { printf "%.1f", b / 1e6 / s }') MB/s," \
    "$(awk -v r="${ROWS[$form]}" -v s="${INSERT_S[$form]}" 'BEGIN { printf "%.0f", r / s }') rows/s," \
    "$(awk -v n="$HOSTS" -v h="$HOURS" -v s="${INSERT_S[$form]}" 'BEGIN { printf "%.2f", n * h / s }') host-hours/s; stored $(mb "$stored") MB"
done

# The cluster-wide sums (hosts added up), the documented queries.
t0=$(now)
ch1 -q "SELECT t_ms, quantum_ms, dir, kind, layout, extreme, bin, sum(count) AS count FROM latscope.t_tsv GROUP BY t_ms, quantum_ms, dir, kind, layout, extreme, bin FORMAT TSVWithNames" >"$W/sum_tsv.tsv"
SUM_TSV=$(since "$t0")
sum_cells() {  # table
  echo "SELECT t_ms, quantum_ms, dir, kind, layout, ss AS span_start_ms, se AS span_end_ms, fs AS full_start_ms, fe AS full_end_ms,
    b.1 AS \`binsMap.bin\`, b.2 AS \`binsMap.units\`, x.1 AS \`extremesMap.bin\`
  FROM (SELECT t_ms, quantum_ms, dir, kind, layout, min(span_start_ms) AS ss, max(span_end_ms) AS se, max(full_start_ms) AS fs,
    min(full_end_ms) AS fe, sumMap(binsMap.bin, binsMap.units) AS b, sumMap(extremesMap.bin, extremesMap.n) AS x
    FROM $1 GROUP BY t_ms, quantum_ms, dir, kind, layout) FORMAT TSVWithNames"
}
t0=$(now)
ch1 -q "$(sum_cells latscope.t_rowbinary)" >"$W/sum_cells.tsv"
SUM_CELLS=$(since "$t0")
echo "cluster-wide sum: long table ${SUM_TSV} s ($(mb "$(stat -c %s "$W/sum_tsv.tsv")") MB answer); compact (sumMap) ${SUM_CELLS} s ($(mb "$(stat -c %s "$W/sum_cells.tsv")") MB answer)"
agg_read="SELECT t_ms, quantum_ms, dir, kind, layout, s1 AS span_start_ms, s2 AS span_end_ms, s3 AS full_start_ms, s4 AS full_end_ms,
    b.1 AS \`binsMap.bin\`, b.2 AS \`binsMap.units\`, x.1 AS \`extremesMap.bin\`
  FROM (SELECT t_ms, quantum_ms, dir, kind, layout, minMerge(ss) AS s1, maxMerge(se) AS s2, maxMerge(fs) AS s3, minMerge(fe) AS s4,
    sumMapMerge(b) AS b, sumMapMerge(x) AS x FROM latscope.agg GROUP BY t_ms, quantum_ms, dir, kind, layout) FORMAT TSVWithNames"
rows_agg=$(ch1 -q "SELECT count() FROM latscope.agg")
t0=$(now)
ch1 -q "$agg_read" >"$W/sum_agg.tsv"
SUM_AGG=$(since "$t0")
t0=$(now)
ch1 -q "OPTIMIZE TABLE latscope.agg_local FINAL" &
p1=$!
ch2 -q "OPTIMIZE TABLE latscope.agg_local FINAL"
wait "$p1"  # (a bare wait would wait for the servers too)
OPT_S=$(since "$t0")
rows_agg2=$(ch1 -q "SELECT count() FROM latscope.agg")
t0=$(now)
ch1 -q "$agg_read" >"$W/sum_agg2.tsv"
SUM_AGG2=$(since "$t0")
echo "cluster-wide sum from the materialized view: ${SUM_AGG} s as inserted ($rows_agg rows of states); OPTIMIZE FINAL ${OPT_S} s; then ${SUM_AGG2} s ($rows_agg2 rows)"
"$BIN" merge "$W"/lsr/*.lsr -o "$W/merged.lsr" 2>/dev/null
"$BIN" pctiles "$W/merged.lsr" >"$W/merged.csv" 2>/dev/null
for a in sum_cells sum_agg sum_agg2; do
  if cmp -s "$W/merged.csv" <("$BIN" pctiles "$W/$a.tsv" 2>/dev/null); then
    echo "check: pctiles of $a == pctiles of latscope merge, byte for byte"
  else echo "CHECK FAILED: pctiles of $a differ from latscope merge"; exit 1; fi
done

# 2,000 hosts x 24 h at the measured rates (linear in host-hours; two shards).
for form in tsv compact rowbinary rbmv; do
  awk -v f="$form" -v b="${BYTES[$form]}" -v s="${INSERT_S[$form]}" -v e="${EXPORT_S[$form]}" -v n="$HOSTS" -v h="$HOURS" 'BEGIN {
    hh = 2000 * 24 / (n * h)
    printf "2,000 hosts x 24 h, %s: %.0f GB to insert, %.1f h on two shards at the measured rate; export %.1f s per host-day\n",
      f, b * hh / 1e9, s * hh / 3600, e / n * 24 / h }'
done
