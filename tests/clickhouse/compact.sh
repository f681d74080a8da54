# shellcheck shell=bash
# The compact table on ClickHouse (docs/cluster-merge.md, sections 2-5),
# sourced by tests/clickhouse/run.sh after its long-table checks: the same ten
# hosts, the same two shards, the same merge to compare with.
#   * each host's result exported as the compact table (TSV) and as RowBinary;
#   * a SummingMergeTree per shard (bins and extremes as `...Map` nested
#     columns, integer 2^-28 units in UInt64), a Distributed table over both,
#     a materialized view at 10 s (a level), and the per-host percentiles as
#     their own table (latscope pctiles per host, inserted as CSV);
#   * inserts: compact TSV and RowBinary straight into the shards, RowBinary
#     through the Distributed table (synchronous);
#   * asserts, byte for byte and flags included (`partial` too: the compact
#     table carries each series' coverage): pctiles of ClickHouse's sumMap
#     answer (per host, cluster-wide, over HTTP as the page reads it, and the
#     10 s level) == pctiles of `latscope merge`; the answer's units == the
#     hosts' tables' exact sums; the summing engine collapses rows of equal key;
#     negative checks: one unit moved, the coverage dropped.
# Uses run.sh's HOSTS, WORK, BIN, HTTP2, ch1/ch2, ok/bad, canonical,
# same_units, and $WORK/merged.lsr, $WORK/want_*.units.

compact_columns() {  # the compact schema for --keep host,dir (docs/cluster-merge.md, section 2)
  cat <<'SQL'
(
  t_ms Int64,
  quantum_ms Int64,
  dir String,
  host String,
  kind String,
  layout String,
  span_start_ms Float64,
  span_end_ms Float64,
  full_start_ms Float64,
  full_end_ms Float64,
  binsMap Nested(bin UInt32, units UInt64),
  extremesMap Nested(bin UInt32, n UInt64)
)
SQL
}
COMPACT_KEY="(quantum_ms, t_ms, host, dir, kind, layout, span_start_ms, span_end_ms, full_start_ms, full_end_ms)"
# The sum (docs/cluster-merge.md, section 4): sumMap adds the bins' units and
# unites the extremes' keys; min/max the coverage (merge()'s union and
# intersection). 18.16 refuses an alias equal to the column it aggregates
# ("Cyclic aliases"), hence the inner names.
compact_sum() {  # table labels
  echo "SELECT t_ms, quantum_ms, $2, layout,
  ss AS span_start_ms, se AS span_end_ms, fs AS full_start_ms, fe AS full_end_ms,
  b.1 AS \`binsMap.bin\`, b.2 AS \`binsMap.units\`, x.1 AS \`extremesMap.bin\`
FROM (
  SELECT t_ms, quantum_ms, $2, layout,
    min(span_start_ms) AS ss, max(span_end_ms) AS se, max(full_start_ms) AS fs, min(full_end_ms) AS fe,
    sumMap(binsMap.bin, binsMap.units) AS b, sumMap(extremesMap.bin, extremesMap.n) AS x
  FROM $1
  GROUP BY t_ms, quantum_ms, $2, layout
)"
}

cluster_view_sql() {
  echo "CREATE MATERIALIZED VIEW latscope.cluster_agg_local
  ENGINE = AggregatingMergeTree ORDER BY (quantum_ms, t_ms, dir, kind, layout)
  AS SELECT t_ms, quantum_ms, dir, kind, layout,
    minState(span_start_ms) AS ss, maxState(span_end_ms) AS se, maxState(full_start_ms) AS fs, minState(full_end_ms) AS fe,
    sumMapState(binsMap.bin, binsMap.units) AS b, sumMapState(extremesMap.bin, extremesMap.n) AS x
  FROM latscope.cells_local
  GROUP BY t_ms, quantum_ms, dir, kind, layout"
}
cluster_view_read() {
  echo "SELECT t_ms, quantum_ms, dir, kind, layout,
  s1 AS span_start_ms, s2 AS span_end_ms, s3 AS full_start_ms, s4 AS full_end_ms,
  b.1 AS \`binsMap.bin\`, b.2 AS \`binsMap.units\`, x.1 AS \`extremesMap.bin\`
FROM (
  SELECT t_ms, quantum_ms, dir, kind, layout,
    minMerge(ss) AS s1, maxMerge(se) AS s2, maxMerge(fs) AS s3, minMerge(fe) AS s4,
    sumMapMerge(b) AS b, sumMapMerge(x) AS x
  FROM latscope.cluster_agg
  GROUP BY t_ms, quantum_ms, dir, kind, layout
)"
}

# pctiles CSV of an answer == pctiles CSV of the merge, byte for byte.
same_csv() {  # answer what quantum groups...
  local answer=$1 what=$2 q=$3 g
  shift 3
  for g in "$@"; do
    "$BIN" pctiles --quantum "$q" --group-by "$g" "$WORK/merged.lsr" >"$WORK/cwant.$g.csv" 2>"$WORK/cwant.err"
    "$BIN" pctiles --quantum "$q" --group-by "$g" "$answer" >"$WORK/cgot.$g.csv" 2>"$WORK/cgot.err"
    [ "$(wc -l <"$WORK/cwant.$g.csv")" -gt 1 ] || { echo "  no pctiles rows for the merge"; cat "$WORK/cwant.err"; return 1; }
    if ! cmp -s "$WORK/cwant.$g.csv" "$WORK/cgot.$g.csv"; then
      echo "  $what, --group-by $g: pctiles differ from the merge's (first lines of the diff):"
      diff "$WORK/cwant.$g.csv" "$WORK/cgot.$g.csv" | sed -n '1,6s/^/    /p'
      return 1
    fi
  done
}

compact_checks() {
  local h name d i ch want_header
  want_header=$(printf 't_ms\tquantum_ms\tdir\thost\tkind\tlayout\tspan_start_ms\tspan_end_ms\tfull_start_ms\tfull_end_ms\tbinsMap.bin\tbinsMap.units\textremesMap.bin\textremesMap.n')
  printf '%-7s %10s %12s %12s\n' host tsv_bytes compact_bytes rowbin_bytes
  for h in "${HOSTS[@]}"; do
    name=${h%%|*} d=$WORK/hosts/$name
    "$BIN" export --format compact --keep "$KEEP_LABELS" "$d/$name.lsr" -o "$d/$name.ctsv" 2>"$d/cexport.err" &&
      "$BIN" export --format rowbinary --keep "$KEEP_LABELS" "$d/$name.lsr" -o "$d/$name.rb" 2>"$d/rbexport.err" ||
      { bad "$name: latscope export --format compact/rowbinary failed"; cat "$d"/cexport.err "$d"/rbexport.err; return; }
    [ "$(head -n 1 "$d/$name.ctsv")" = "$want_header" ] || bad "$name: compact header is not the schema's"
    printf '%-7s %10s %12s %12s\n' "$name" "$(stat -c %s "$d/$name.tsv")" "$(stat -c %s "$d/$name.ctsv")" "$(stat -c %s "$d/$name.rb")"
  done

  for ch in ch1 ch2; do
    $ch -q "CREATE TABLE latscope.cells_local $(compact_columns) ENGINE = SummingMergeTree ORDER BY $COMPACT_KEY"
    ch_distributed $ch cells cells_local "cityHash64(host)"
    # A level: every insert into the shard's table also lands, re-quantized
    # to 10 s, in the view's own SummingMergeTree (docs/cluster-merge.md, "Levels").
    $ch -q "CREATE MATERIALIZED VIEW latscope.cells_10s_local ENGINE = SummingMergeTree ORDER BY $COMPACT_KEY AS
      SELECT toInt64(floor(t_ms / 10000)) * 10000 AS t_ms, toInt64(10000) AS quantum_ms, dir, host, kind, layout,
        span_start_ms, span_end_ms, full_start_ms, full_end_ms,
        binsMap.bin, binsMap.units, extremesMap.bin, extremesMap.n
      FROM latscope.cells_local"
    $ch -q "CREATE TABLE latscope.cells_10s AS latscope.cells_local ENGINE = Distributed(latscope_two_shards, latscope, cells_10s_local, cityHash64(host))"
    # The cluster's sum kept as it is inserted: host dropped, the states of
    # sumMap and min/max in an AggregatingMergeTree, merged by the engine
    # (docs/cluster-merge.md, "The cluster-wide sum as a materialized view").
    $ch -q "$(cluster_view_sql)"
    ch_distributed $ch cluster_agg cluster_agg_local "rand()"
  done
  # node01..03: compact TSV, node04..06: RowBinary, each straight into a
  # shard (odd: 1, even: 2); node07..10: RowBinary through the Distributed table.
  i=0
  for h in "${HOSTS[@]}"; do
    name=${h%%|*} d=$WORK/hosts/$name
    i=$((i + 1))
    if [ $((i % 2)) = 1 ]; then ch=ch1; else ch=ch2; fi
    if [ $i -le 3 ]; then $ch -q "INSERT INTO latscope.cells_local FORMAT TSVWithNames" <"$d/$name.ctsv"
    elif [ $i -le 6 ]; then $ch -q "INSERT INTO latscope.cells_local FORMAT RowBinary" <"$d/$name.rb"
    else ch2 --insert_distributed_sync=1 -q "INSERT INTO latscope.cells FORMAT RowBinary" <"$d/$name.rb"; fi
  done
  # node01 once more, in two halves of the rows with each row's units split
  # in two exact parts, into a table of its own: the engine must add them.
  ch1 -q "CREATE TABLE latscope.twice_local $(compact_columns) ENGINE = SummingMergeTree ORDER BY $COMPACT_KEY"
  awk -F'\t' -v OFS='\t' 'NR == 1 { print; next } {
      n = split(substr($12, 2, length($12) - 2), u, ","); a = ""; b = ""
      for (k = 1; k <= n; k++) { h = int(u[k] / 3); a = a (k > 1 ? "," : "") sprintf("%.0f", h); b = b (k > 1 ? "," : "") sprintf("%.0f", u[k] - h) }
      r = $0; $12 = "[" a "]"; print; $0 = r; $12 = "[" b "]"; $13 = "[]"; $14 = "[]"; print }' "$WORK/hosts/node01/node01.ctsv" >"$WORK/node01.split.ctsv"
  ch1 -q "INSERT INTO latscope.twice_local FORMAT TSVWithNames" <"$WORK/node01.split.ctsv"
  ch1 -q "OPTIMIZE TABLE latscope.twice_local FINAL"
  ch1 -q "SELECT * FROM latscope.twice_local FORMAT TSVWithNames" >"$WORK/twice.ctsv"
  for ch in ch1 ch2; do $ch -q "OPTIMIZE TABLE latscope.cells_10s_local FINAL"; done

  local rows keys cells_rows
  rows=$(ch1 -q "SELECT count() FROM latscope.cells") cells_rows=0
  for h in "${HOSTS[@]}"; do name=${h%%|*}; cells_rows=$((cells_rows + $(wc -l <"$WORK/hosts/$name/$name.ctsv") - 1)); done
  if [ "$rows" = "$cells_rows" ]; then ok "compact: every host's rows are in ClickHouse ($rows cells, one row each)"
  else bad "compact: ClickHouse holds $rows rows, the hosts' tables $cells_rows"; fi
  if cmp -s <(tail -n +2 "$WORK/twice.ctsv" | LC_ALL=C sort) <(tail -n +2 "$WORK/hosts/node01/node01.ctsv" | LC_ALL=C sort); then
    ok "SummingMergeTree adds rows of equal key as maps: node01 inserted in split halves is node01's table again after OPTIMIZE"
  else bad "SummingMergeTree's sum of node01's halves is not node01's table"; fi
  rows=$(ch1 -q "SELECT count() FROM latscope.cells_10s")
  keys=$(ch1 -q "SELECT count() FROM (SELECT DISTINCT t_ms, host, dir, kind, layout FROM latscope.cells_10s)")
  if [ "$rows" = "$keys" ] && [ "$rows" -gt 0 ]; then ok "the 10 s level (materialized view): one row per key after the engine's merge ($rows)"
  else bad "the 10 s level holds $rows rows for $keys keys"; fi

  ch1 -q "$(compact_sum latscope.cells 'dir, host, kind') FORMAT TSVWithNames" >"$WORK/c_answer.ctsv"
  ch1 --time -q "$(compact_sum latscope.cells 'dir, kind') FORMAT TSVWithNames" >"$WORK/c_cluster.ctsv" 2>"$WORK/c_cluster.time"
  ch1 -q "$(compact_sum latscope.cells_10s 'dir, kind') FORMAT TSVWithNames" >"$WORK/c_cluster10.ctsv"
  ch2 -q "$(cluster_view_read) FORMAT TSVWithNames" >"$WORK/c_cluster_agg.ctsv"
  echo "compact cluster-wide sum (sumMap through the Distributed table): $(tr -d '\n' <"$WORK/c_cluster.time") s, $(($(wc -l <"$WORK/c_cluster.ctsv") - 1)) rows, $(stat -c %s "$WORK/c_cluster.ctsv") bytes (the long table's answer: $(stat -c %s "$WORK/cluster.tsv") bytes)"
  ch2 -q "CREATE VIEW latscope.cluster_cells AS $(compact_sum latscope.cells 'dir, kind')"
  curl -sS -D "$WORK/c_http.headers" -o "$WORK/c_cluster_http.ctsv" -H 'Origin: http://127.0.0.1:4173' -G \
    --data-urlencode user=page --data-urlencode "query=SELECT * FROM latscope.cluster_cells FORMAT TSVWithNames" \
    "http://127.0.0.1:$HTTP2/"

  if same_csv "$WORK/c_answer.ctsv" "compact per-host sum" 1000 all host dir; then
    ok "compact, per host: pctiles of ClickHouse's sumMap answer == pctiles of latscope merge, byte for byte, partial flags included"
  else bad "compact, per host: pctiles differ from latscope merge"; fi
  if same_units "$WORK/c_answer.ctsv" host,dir "$WORK/want_hosts.units" "compact per-host sum"; then
    ok "compact, per host: ClickHouse's rows == the hosts' rows, unit for unit"
  else bad "compact, per host: rows differ"; fi
  if same_csv "$WORK/c_cluster.ctsv" "compact cluster-wide sum" 1000 all dir; then
    ok "compact, hosts added up (sumMap of UInt64 units): pctiles == latscope merge, byte for byte, partial flags included"
  else bad "compact, hosts added up: pctiles differ from latscope merge"; fi
  if same_units "$WORK/c_cluster.ctsv" dir "$WORK/want_cluster.units" "compact cluster-wide sum"; then
    ok "compact, hosts added up: sumMap's sums == latscope's exact sums, unit for unit"
  else bad "compact, hosts added up: sums are not exact"; fi
  if grep -qi '^Access-Control-Allow-Origin: \*' "$WORK/c_http.headers" && same_csv "$WORK/c_cluster_http.ctsv" "compact HTTP answer" 1000 all dir; then
    ok "compact over HTTP (user page, CORS header): the CLI's pctiles of the answer == latscope merge's, byte for byte"
  else bad "compact over HTTP differs"; fi
  # The CLI reading ClickHouse's HTTP answer straight from a pipe (FILE -).
  curl -sS -G --data-urlencode user=page --data-urlencode "query=SELECT * FROM latscope.cluster_cells FORMAT TSVWithNames" \
    "http://127.0.0.1:$HTTP2/" | "$BIN" pctiles --group-by dir - >"$WORK/c_pipe.csv" 2>"$WORK/c_pipe.err"
  "$BIN" pctiles --group-by dir "$WORK/merged.lsr" >"$WORK/c_pipe_want.csv" 2>/dev/null
  if [ -s "$WORK/c_pipe.csv" ] && cmp -s "$WORK/c_pipe.csv" "$WORK/c_pipe_want.csv"; then
    ok "curl of the HTTP answer piped into latscope pctiles - == pctiles of latscope merge, byte for byte"
  else bad "latscope pctiles - of the piped HTTP answer differs"; sed -n '1,4p' "$WORK/c_pipe.err"; fi
  if same_csv "$WORK/c_cluster_agg.ctsv" "the cluster-wide materialized view" 1000 all dir; then
    ok "the cluster-wide sum as a materialized view (AggregatingMergeTree of sumMap/min/max states, host dropped): pctiles == latscope merge, byte for byte"
  else bad "the cluster-wide materialized view differs from latscope merge"; fi
  if same_csv "$WORK/c_cluster10.ctsv" "the 10 s level" 10000 all dir; then
    ok "the 10 s level (materialized view): pctiles == pctiles --quantum 10000 of latscope merge, byte for byte"
  else bad "the 10 s level differs from latscope merge at 10 s"; fi

  # The per-host percentiles as their own table: latscope computes each
  # host's from its own histograms (its result), ClickHouse keeps them.
  local pcols
  "$BIN" pctiles --group-by host "$WORK/hosts/node01/node01.lsr" 2>/dev/null | sed -n 1p >"$WORK/pct_header.csv"
  pcols=$(tr ',' '\n' <"$WORK/pct_header.csv" | awk '{ t = ($0 == "group" || $0 == "flags") ? "String" : "Float64"; printf "%s`%s` %s", (NR > 1 ? ", " : ""), $0, t }')
  for ch in ch1 ch2; do
    $ch -q "CREATE TABLE latscope.host_pctiles_local ($pcols) ENGINE = MergeTree ORDER BY (\`group\`, time_ms)"
    ch_distributed $ch host_pctiles host_pctiles_local "cityHash64(\`group\`)"
  done
  for h in "${HOSTS[@]}"; do
    name=${h%%|*}
    # Quanta without I/O (flag `empty`) have no percentiles: not inserted
    # (a Float64 column would read their empty fields as 0).
    "$BIN" pctiles --group-by host "$WORK/hosts/$name/$name.lsr" 2>/dev/null | grep -v ',empty' |
      ch1 --insert_distributed_sync=1 -q "INSERT INTO latscope.host_pctiles FORMAT CSVWithNames"
  done
  ch1 -q "SELECT * FROM latscope.host_pctiles ORDER BY \`group\`, time_ms FORMAT CSV" | tr -d '"' >"$WORK/host_pctiles.csv"
  # What each host computed, at its own resolution: not pctiles --group-by
  # host of the merge, which puts every host on the layout common to all
  # (node09's coarse fio3/c2 here) and lists each on the whole run's quanta.
  for h in "${HOSTS[@]}"; do
    name=${h%%|*}
    "$BIN" pctiles --group-by host "$WORK/hosts/$name/$name.lsr" 2>/dev/null | tail -n +2 | grep -v ',empty'
  done | LC_ALL=C sort -t, -k2,2 -k1,1n >"$WORK/host_pctiles_want.csv"
  LC_ALL=C sort -t, -k2,2 -k1,1n "$WORK/host_pctiles.csv" >"$WORK/host_pctiles_got.csv"
  # 18.16 parses Float64 text to a neighbouring double at times (29.952 came
  # back as 29.951999999999998): the values are compared to 1e-12 relative,
  # the labels, flags and row set exactly (docs/cluster-merge.md, "Per-host percentiles").
  if [ "$(wc -l <"$WORK/host_pctiles_want.csv")" = "$(wc -l <"$WORK/host_pctiles_got.csv")" ] &&
    paste -d '\n' "$WORK/host_pctiles_want.csv" "$WORK/host_pctiles_got.csv" | awk -F, '
      NR % 2 == 1 { split($0, w, ","); n = NF; next }
      NF != n { exit 1 }
      { for (i = 1; i <= NF; i++) {
          if ($i == w[i]) continue
          if ($i !~ /^-?[0-9.e+-]+$/ || w[i] !~ /^-?[0-9.e+-]+$/) exit 1
          d = $i - w[i]; if (d < 0) d = -d; m = w[i] < 0 ? -w[i] : w[i]
          if (d > 1e-12 * m) exit 1 } }'; then
    ok "per-host percentiles table: each host's pctiles, kept by ClickHouse (Float64), read back ($(wc -l <"$WORK/host_pctiles_got.csv") rows; values within 1e-12)"
  else
    bad "per-host percentiles table differs from the hosts' own pctiles"
    diff "$WORK/host_pctiles_want.csv" "$WORK/host_pctiles_got.csv" | sed -n '1,6s/^/    /p'
  fi

  # Negative checks: one unit moved; the coverage columns dropped (the
  # partial flags are then those of the quanta with rows, as for the long table).
  awk -F'\t' -v OFS='\t' 'NR == 2 { match($11, /^\[[0-9]+/); $11 = "[" sprintf("%.0f", substr($11, 2, RLENGTH - 1) + 1) substr($11, RLENGTH + 1) } { print }' \
    "$WORK/c_cluster.ctsv" >"$WORK/c_plus_unit.ctsv"
  if cmp -s "$WORK/c_cluster.ctsv" "$WORK/c_plus_unit.ctsv"; then bad "negative: no unit moved"
  elif same_units "$WORK/c_plus_unit.ctsv" dir "$WORK/want_cluster.units" "one unit added" >/dev/null; then
    bad "negative: a count moved by one unit went unnoticed"
  else ok "negative (compact): one count moved by 2^-28 I/O is detected"; fi
  cut -f 1-5,10- "$WORK/c_cluster.ctsv" >"$WORK/c_no_coverage.ctsv"
  if same_csv "$WORK/c_no_coverage.ctsv" "without coverage" 1000 all >/dev/null; then
    bad "negative: the coverage columns dropped and the pctiles still equal: the flags are not compared"
  else ok "negative (compact): without its coverage columns the answer's pctiles differ (partial flags)"; fi
}
