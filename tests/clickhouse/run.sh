#!/usr/bin/env bash
# Cluster merge on ClickHouse, for real (docs/cluster-merge.md):
#   1. installs Debian's clickhouse-server/-client (18.16) when missing
#      (apt-get, as root or through sudo; nothing when present);
#   2. starts two clickhouse-server processes on 127.0.0.1 (free ports, data
#      and generated configs in a temp dir, a two-shard `remote_servers`
#      cluster), stopped again whatever happens (trap);
#   3. simulates 10 hosts from the real fio fixtures (each host's logs are
#      copies named with its host suffix, some shifted in time), runs
#      `latscope reduce --keep host,dir` then `latscope export --format tsv`
#      per host, prints each host's reduce ratio;
#   4. creates the documented tables (a MergeTree on each shard, a
#      Distributed table over both), inserts the hosts' tables spread over
#      the shards (directly, and through the Distributed table), runs the
#      documented sum through the Distributed table;
#   5. asserts: `latscope pctiles` of ClickHouse's answer == `latscope
#      pctiles` of `latscope merge` of the hosts' result files (every
#      column, all groups and per host; only the `partial` flag, which a
#      table cannot carry, is left out), and the answer equals latscope's
#      own exact sum of the hosts' tables unit for unit (2^-28 I/O); the
#      same over ClickHouse's HTTP interface with the CORS header the page
#      needs, and with a Float64 count column; negative checks: one shard's
#      rows only, and one count moved by one unit, are both detected;
#   6. the compact table (tests/clickhouse/compact.sh): the same hosts as
#      one row per cell with integer units, inserted as TSV and RowBinary
#      into SummingMergeTrees, summed by sumMap, a 10 s level as a
#      materialized view, the per-host percentiles as their own table; its
#      pctiles equal the merge's byte for byte, `partial` flags included.
# usage: tests/clickhouse/run.sh [path/to/latscope]   (default build/latscope)
# KEEP=1 keeps the temp dir (configs, server logs, tables) for inspection.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$(dirname "${1:-$ROOT/build/latscope}")" && pwd)/$(basename "${1:-$ROOT/build/latscope}")
START_S=$(date +%s)
fails=0
passes=0
ok() { echo "ok   $1"; passes=$((passes + 1)); }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

# --- 1. ClickHouse, installed the way tests/run_all.sh installs Java ---------
# (tests/clickhouse/servers.sh: install, start and stop the two servers)
# shellcheck source=tests/clickhouse/servers.sh
source "$ROOT/tests/clickhouse/servers.sh"
ch_install
INSTALLED_S=$(date +%s)
[ -x "$BIN" ] || { echo "FAIL latscope binary $BIN missing (build it first)"; exit 1; }

# --- 2. two servers ----------------------------------------------------------
WORK=$(mktemp -d)
cleanup() {
  stop_servers
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ch_start_two "$WORK"
echo "two servers up: shard 1 tcp $TCP1 http $HTTP1, shard 2 tcp $TCP2 http $HTTP2 ($(ch1 -q 'SELECT version()'))"
UP_S=$(date +%s)

# --- 3. hosts: reduce where the logs are, export the long table -------------
# name|source logs (fixture paths)|extra reduce options. Each host's logs are
# copies named with the `.log.<host>` suffix fio's client writes, so `host`
# is the host; offsets move whole hosts by non-multiples of the quantum
# (fractional counts); local-mode logs get --repair off, as on a real host
# (docs/cluster-merge.md, "The host label").
S1=tests/fixtures/fio-s1/s1_clat_hist
CS=tests/fixtures/cs/cs_clat_hist
HOSTS=(
  "node01|$S1.1.log.127.0.0.1 $S1.2.log.127.0.0.1|"
  "node02|$S1.1.log.127.0.0.2 $S1.2.log.127.0.0.2|"
  "node03|$CS.1.log.127.0.0.1 $CS.2.log.127.0.0.1|"
  "node04|$CS.1.log.127.0.0.2 $CS.2.log.127.0.0.2|"
  "node05|$S1.1.log.127.0.0.1 $S1.2.log.127.0.0.1|--offset node05=2500"
  "node06|$CS.1.log.127.0.0.2 $CS.2.log.127.0.0.2|--offset node06=1250"
  "node07|tests/fixtures/local/local_clat_hist.1.log tests/fixtures/local/local_clat_hist.2.log|--repair off"
  "node08|tests/fixtures/local/local_clat_hist.1.log tests/fixtures/local/local_clat_hist.2.log|--repair off --offset node08=333"
  "node09|tests/fixtures/coarse/c2_clat_hist.1.log tests/fixtures/coarse/c2_clat_hist.2.log|--repair off"
  "node10|tests/fixtures/pjl0/pjl0_clat_hist.log|--repair off --offset node10=4000"
)
KEEP_LABELS=host,dir
mkdir -p "$WORK/hosts"
printf '%-7s %6s %10s %10s %8s %10s %8s\n' host logs log_bytes lsr_bytes ratio tsv_bytes tsv_gz
for h in "${HOSTS[@]}"; do
  IFS='|' read -r name srcs opts <<<"$h"
  d=$WORK/hosts/$name
  mkdir -p "$d/logs"
  n=0 bytes=0
  for f in $srcs; do
    base=$(basename "$f")
    cp "$ROOT/$f" "$d/logs/${base%.log*}.log.$name"
    n=$((n + 1)) bytes=$((bytes + $(stat -c %s "$ROOT/$f")))
  done
  # shellcheck disable=SC2086
  if ! "$BIN" reduce --keep "$KEEP_LABELS" $opts "$d"/logs/* -o "$d/$name.lsr" 2>"$d/reduce.err"; then
    bad "$name: latscope reduce failed"; cat "$d/reduce.err"; continue
  fi
  if ! "$BIN" export --format tsv --keep "$KEEP_LABELS" "$d/$name.lsr" -o "$d/$name.tsv" 2>"$d/export.err"; then
    bad "$name: latscope export failed"; cat "$d/export.err"; continue
  fi
  lsr=$(stat -c %s "$d/$name.lsr") tsv=$(stat -c %s "$d/$name.tsv") gz=$(gzip -9 -c "$d/$name.tsv" | wc -c)
  printf '%-7s %6s %10s %10s %7sx %10s %8s\n' "$name" "$n" "$bytes" "$lsr" "$(awk -v a="$bytes" -v b="$lsr" 'BEGIN { printf "%.1f", a / b }')" "$tsv" "$gz"
done
REDUCED_S=$(date +%s)

# Every host's table must have the columns the table is declared with, in
# that order: ClickHouse 18.16 reads the TSVWithNames header but does not
# match its names to columns (docs/cluster-merge.md, "Column order").
HEADER=$(printf 't_ms\tquantum_ms\tdir\thost\tkind\tlayout\textreme\tbin\tcount')
for h in "${HOSTS[@]}"; do
  name=${h%%|*}
  got=$(head -n 1 "$WORK/hosts/$name/$name.tsv")
  [ "$got" = "$HEADER" ] || bad "$name: table header '$got' is not the schema's '$HEADER'"
done
[ "$fails" = 0 ] || { echo "clickhouse: $passes passed, $fails failed"; exit 1; }

# --- 4. tables, inserts, the sum ----------------------------------------------
# The schema of docs/cluster-merge.md for --keep host,dir (kind always stays).
schema() {  # count column type
  cat <<EOF
(
  t_ms Int64,
  quantum_ms Int64,
  dir String,
  host String,
  kind String,
  layout String,
  extreme UInt8,
  bin UInt32,
  count $1
)
EOF
}
for ch in ch1 ch2; do
  $ch -q "CREATE DATABASE IF NOT EXISTS latscope"
  $ch -q "CREATE TABLE latscope.bins_local $(schema 'Decimal(38, 28)') ENGINE = MergeTree ORDER BY (quantum_ms, t_ms, host, dir, kind, layout, extreme, bin)"
  ch_distributed $ch bins bins_local "cityHash64(host)"
  $ch -q "CREATE TABLE latscope.bins_f64_local $(schema Float64) ENGINE = MergeTree ORDER BY (quantum_ms, t_ms, host, dir, kind, layout, extreme, bin)"
  ch_distributed $ch bins_f64 bins_f64_local "cityHash64(host)"
done
# node01..06 straight into a shard's own table (odd: shard 1, even: shard 2);
# node07..10 through the Distributed table of shard 2, synchronously, which
# places them by cityHash64(host).
i=0
for h in "${HOSTS[@]}"; do
  name=${h%%|*}
  i=$((i + 1))
  tsv=$WORK/hosts/$name/$name.tsv
  if [ $i -le 6 ]; then
    if [ $((i % 2)) = 1 ]; then ch=ch1; else ch=ch2; fi
    $ch -q "INSERT INTO latscope.bins_local FORMAT TSVWithNames" <"$tsv"
    $ch -q "INSERT INTO latscope.bins_f64_local FORMAT TSVWithNames" <"$tsv"
  else
    ch2 --insert_distributed_sync=1 -q "INSERT INTO latscope.bins FORMAT TSVWithNames" <"$tsv"
    ch2 --insert_distributed_sync=1 -q "INSERT INTO latscope.bins_f64 FORMAT TSVWithNames" <"$tsv"
  fi
done
rows1=$(ch1 -q "SELECT count() FROM latscope.bins_local") rows2=$(ch2 -q "SELECT count() FROM latscope.bins_local")
hosts1=$(ch1 -q "SELECT uniqExact(host) FROM latscope.bins_local") hosts2=$(ch2 -q "SELECT uniqExact(host) FROM latscope.bins_local")
echo "shard 1: $rows1 rows of $hosts1 hosts; shard 2: $rows2 rows of $hosts2 hosts"
want_rows=0
for h in "${HOSTS[@]}"; do name=${h%%|*}; want_rows=$((want_rows + $(wc -l <"$WORK/hosts/$name/$name.tsv") - 1)); done
if [ $((rows1 + rows2)) = "$want_rows" ] && [ "$rows1" -gt 0 ] && [ "$rows2" -gt 0 ] && [ $((hosts1 + hosts2)) = ${#HOSTS[@]} ]; then
  ok "every host's rows are in ClickHouse ($want_rows), spread over both shards"
else
  bad "rows in the shards: $rows1 + $rows2, hosts $hosts1 + $hosts2; expected $want_rows rows of ${#HOSTS[@]} hosts on both shards"
fi

# The documented query (docs/cluster-merge.md): the sum per quantum, kept
# labels, layout and bin. With `host` among the labels each host stays
# apart; without it ClickHouse adds the hosts up (the cluster-wide table).
query() {  # table labels
  echo "SELECT t_ms, quantum_ms, $2, layout, extreme, bin, sum(count) AS count
FROM $1
GROUP BY t_ms, quantum_ms, $2, layout, extreme, bin
FORMAT TSVWithNames"
}
ch1 -q "$(query latscope.bins 'dir, host, kind')" >"$WORK/answer.tsv"
ch1 --time -q "$(query latscope.bins 'dir, kind')" >"$WORK/cluster.tsv" 2>"$WORK/cluster.time"
echo "cluster-wide sum through the Distributed table: $(tr -d '\n' <"$WORK/cluster.time") s (clickhouse-client --time), $(($(wc -l <"$WORK/cluster.tsv") - 1)) rows"
ch1 -q "$(query latscope.bins_f64 'dir, kind')" >"$WORK/cluster_f64.tsv"
ch1 -q "$(query latscope.bins_local 'dir, kind')" >"$WORK/shard1_only.tsv"
# Over HTTP, as the page's #url= asks: a GET with the query in the URL and
# an Origin header, as user `page` (profile: readonly=1,
# add_http_cors_header=1, so the answer carries Access-Control-Allow-Origin
# and the link can change nothing). Asked of shard 2: any node answers.
# The query is kept as a view, so the link stays short.
ch2 -q "CREATE VIEW latscope.cluster AS $(query latscope.bins 'dir, kind' | grep -v '^FORMAT')"
curl -sS -D "$WORK/http.headers" -o "$WORK/cluster_http.tsv" -H 'Origin: http://127.0.0.1:4173' -G \
  --data-urlencode user=page --data-urlencode "query=SELECT * FROM latscope.cluster FORMAT TSVWithNames" \
  "http://127.0.0.1:$HTTP2/"
# The readonly profile refuses writes (and changes of settings).
curl -sS -o "$WORK/http_write.txt" -w '%{http_code}' -G --data-urlencode user=page \
  --data-urlencode "query=DROP TABLE latscope.bins_local" "http://127.0.0.1:$HTTP2/" >"$WORK/http_write.code" || true
QUERIED_S=$(date +%s)

# --- 5. the comparisons --------------------------------------------------------
HOST_RESULTS=()
for h in "${HOSTS[@]}"; do name=${h%%|*}; HOST_RESULTS+=("$WORK/hosts/$name/$name.lsr"); done
"$BIN" merge "${HOST_RESULTS[@]}" -o "$WORK/merged.lsr" 2>"$WORK/merge.err" || { bad "latscope merge failed"; cat "$WORK/merge.err"; }

# pctiles CSV without the `partial` flag: a table carries no coverage, so a
# quantum some log did not fully cover is not marked (docs/export-formats.md,
# "Reading a table back"); every other column must be identical text.
pctiles_csv() {  # out args...
  local out=$1
  shift
  "$BIN" pctiles "$@" 2>"$out.err" | awk -F, -v OFS=, '{
    n = split($NF, a, ";"); s = ""
    for (i = 1; i <= n; i++) if (a[i] != "partial") s = s (s == "" ? "" : ";") a[i]
    $NF = s; print }' >"$out"
}
same_pctiles() {  # answer-file what groups... -> 0 when pctiles equal the merge's for every grouping
  local answer=$1 what=$2 g
  shift 2
  for g in "$@"; do
    pctiles_csv "$WORK/want.$g.csv" --group-by "$g" "$WORK/merged.lsr"
    pctiles_csv "$WORK/got.$g.csv" --group-by "$g" "$answer"
    [ "$(wc -l <"$WORK/want.$g.csv")" -gt 1 ] || { echo "  no pctiles rows for the merge"; cat "$WORK/want.$g.csv.err"; return 1; }
    if ! cmp -s "$WORK/want.$g.csv" "$WORK/got.$g.csv"; then
      echo "  $what, --group-by $g: pctiles differ from the merge's (first lines of the diff):"
      diff "$WORK/want.$g.csv" "$WORK/got.$g.csv" | head -n 6 | sed 's/^/    /'
      return 1
    fi
  done
  return 0
}

# Unit for unit: a long table written back by latscope's exact writer
# (counts as exact decimals of 2^-28 units, rows sorted), one layout at a
# time (a mixed-layout export re-bins onto one layout, which would hide a
# move between two bins that land in one).
canonical() {  # table-file labels-to-keep out
  local col layout
  col=$(head -n 1 "$1" | tr '\t' '\n' | grep -nx layout | cut -d: -f1)
  : >"$3"
  for layout in $(tail -n +2 "$1" | cut -f "$col" | LC_ALL=C sort -u); do
    { head -n 1 "$1"; tail -n +2 "$1" | awk -F'\t' -v c="$col" -v l="$layout" '$c == l'; } >"$3.part"
    "$BIN" export --format tsv --keep "$2" "$3.part" -o "$3.one" 2>"$3.err" || { cat "$3.err"; return 1; }
    tail -n +2 "$3.one" >>"$3"
  done
  LC_ALL=C sort -o "$3" "$3"
}
same_units() {  # answer-file labels want-file what
  canonical "$1" "$2" "$WORK/got.units" || return 1
  if cmp -s "$3" "$WORK/got.units"; then return 0; fi
  echo "  $4: cells differ from latscope's exact sum of the hosts' tables ($(wc -l <"$3") vs $(wc -l <"$WORK/got.units") rows; first lines of the diff):"
  diff "$3" "$WORK/got.units" | head -n 6 | sed 's/^/    /'
  return 1
}
# What the sums must be: latscope's reader adds the rows of equal keys of
# the hosts' tables in integer units; without the host column the hosts add
# up (column 4 is host in HEADER).
{ echo "$HEADER"; for h in "${HOSTS[@]}"; do name=${h%%|*}; tail -n +2 "$WORK/hosts/$name/$name.tsv"; done; } >"$WORK/all_hosts.tsv"
cut -f 1-3,5- "$WORK/all_hosts.tsv" >"$WORK/all_hosts_no_host.tsv"
canonical "$WORK/all_hosts.tsv" host,dir "$WORK/want_hosts.units"
canonical "$WORK/all_hosts_no_host.tsv" dir "$WORK/want_cluster.units"

if same_pctiles "$WORK/answer.tsv" "per-host sum" all host dir; then
  ok "per host: pctiles of ClickHouse's Distributed answer == pctiles of latscope merge (--group-by all, host, dir)"
else bad "per host: pctiles of ClickHouse's answer differ from latscope merge"; fi
if same_units "$WORK/answer.tsv" host,dir "$WORK/want_hosts.units" "per-host sum"; then
  ok "per host: ClickHouse's rows == the hosts' rows, unit for unit ($(wc -l <"$WORK/want_hosts.units") rows)"
else bad "per host: ClickHouse's rows are not the hosts' rows"; fi
if same_pctiles "$WORK/cluster.tsv" "cluster-wide sum" all dir; then
  ok "hosts added up in ClickHouse: pctiles == pctiles of latscope merge (--group-by all, dir; $(($(wc -l <"$WORK/want.all.csv") - 1)) quanta)"
else bad "hosts added up in ClickHouse: pctiles differ from latscope merge"; fi
if same_units "$WORK/cluster.tsv" dir "$WORK/want_cluster.units" "cluster-wide sum"; then
  ok "hosts added up in ClickHouse: Decimal(38, 28) sums == latscope's exact sums, unit for unit ($(wc -l <"$WORK/want_cluster.units") rows from $(($(wc -l <"$WORK/all_hosts.tsv") - 1)))"
else bad "hosts added up in ClickHouse: Decimal sums are not exact"; fi
if same_pctiles "$WORK/cluster_f64.tsv" "Float64 sum" all dir &&
  same_units "$WORK/cluster_f64.tsv" dir "$WORK/want_cluster.units" "Float64 sum"; then
  ok "Float64 count column: the same pctiles and sums, unit for unit (every sum here < 2^24 I/Os)"
else bad "Float64 count column differs"; fi

if grep -qi '^Access-Control-Allow-Origin: \*' "$WORK/http.headers"; then
  ok "HTTP interface, user with add_http_cors_header=1: Access-Control-Allow-Origin: *"
else bad "HTTP answer lacks Access-Control-Allow-Origin"; sed 's/^/    /' "$WORK/http.headers"; fi
if same_pctiles "$WORK/cluster_http.tsv" "HTTP answer" all dir &&
  same_units "$WORK/cluster_http.tsv" dir "$WORK/want_cluster.units" "HTTP answer"; then
  ok "the HTTP answer (shard 2's view over the Distributed table) reads back as the merge"
else bad "the HTTP answer differs"; fi

if [ "$(cat "$WORK/http_write.code")" != 200 ] && [ "$(ch2 -q 'EXISTS TABLE latscope.bins_local')" = 1 ]; then
  ok "HTTP user page (readonly=1) cannot drop a table: HTTP $(cat "$WORK/http_write.code")"
else bad "HTTP user page could write"; fi

# Negative checks: the comparisons can fail.
if same_pctiles "$WORK/shard1_only.tsv" "shard 1 only" all >/dev/null; then
  bad "negative: dropping shard 2's rows went unnoticed by the pctiles comparison"
else ok "negative: shard 1's rows alone give other pctiles (detected)"; fi
# One count moved by one unit (2^-28 I/O = 0.0000000037252902984619140625):
# below pctiles' 10 significant digits, caught by the exact comparison.
awk -F'\t' -v OFS='\t' 'NR > 1 && !done && $NF ~ /^1\.0*$/ { $NF = "1.0000000037252902984619140625"; done = 1 } { print }' \
  "$WORK/cluster.tsv" >"$WORK/cluster_plus_unit.tsv"
if cmp -s "$WORK/cluster.tsv" "$WORK/cluster_plus_unit.tsv"; then
  bad "negative: no row with a count of 1 to move by one unit"
elif same_units "$WORK/cluster_plus_unit.tsv" dir "$WORK/want_cluster.units" "one unit added" >/dev/null; then
  bad "negative: a count moved by one unit went unnoticed"
else ok "negative: one count moved by 2^-28 I/O is detected by the exact comparison"; fi

# --- 6. the compact table -------------------------------------------------------
# shellcheck source=tests/clickhouse/compact.sh
source "$ROOT/tests/clickhouse/compact.sh"
compact_checks
COMPACT_S=$(date +%s)

# The page, in Chromium, through the same link (docs/cluster-merge.md,
# section 5), when the page's WebAssembly engine is built (npm test builds it
# before this script runs; by hand: sh web/scripts/build-wasm.sh).
if [ -f "${LATSCOPE_WASM_DIR:-$ROOT/web/public/wasm}/latscope.mjs" ]; then
  PAGE_URL="http://127.0.0.1:$HTTP2/?user=page&query=SELECT%20*%20FROM%20latscope.cluster%20FORMAT%20TSVWithNames"
  # and the compact table's view named by #clickhouse= (the page builds the query)
  if LATSCOPE_CH_URL="$PAGE_URL" LATSCOPE_CH_TSV="$WORK/cluster_http.tsv" \
    LATSCOPE_CH_SOURCE="http://127.0.0.1:$HTTP2/?user=page&table=latscope.cluster_cells" LATSCOPE_CH_COMPACT="$WORK/c_cluster_http.ctsv" \
    node "$ROOT/web/test/e2e/run.mjs" "ClickHouse: #" >"$WORK/page.log" 2>&1; then
    ok "the page loads the cluster's answer through #url= (long table) and #clickhouse= (compact table) in Chromium; its csv equals the CLI's"
  else bad "the page through #url= / #clickhouse= to ClickHouse"; sed 's/^/    /' "$WORK/page.log"; fi
else
  echo "page check skipped: the page's WebAssembly engine is not built"
fi

END_S=$(date +%s)
echo "time: install $((INSTALLED_S - START_S)) s, servers up $((UP_S - INSTALLED_S)) s, reduce+export $((REDUCED_S - UP_S)) s, load+query $((QUERIED_S - REDUCED_S)) s, compare $((COMPACT_S - QUERIED_S)) s (compact table included), page $((END_S - COMPACT_S)) s; total $((END_S - START_S)) s"
echo "clickhouse: $passes passed, $fails failed"
[ "$fails" = 0 ]
