#!/bin/sh
# `latscope export` (docs/export-formats.md) at the process level:
#   * .hlog read by Java's HistogramLogProcessor (libhdrhistogram-java
#     2.1.11): per interval, the count equals latscope's samples per quantum
#     rounded to whole I/Os, and the 50th/90th percentiles agree within one
#     fio bin plus one HdrHistogram bucket; with -tag per label set too;
#     latscope's own .hlog reader sees Java's counts; nested windows export
#     losslessly (no rounding note, totals exact);
#   * TSV: pctiles of the table == pctiles of the result file (but `partial`,
#     which a table cannot carry), ~= pctiles of the logs; rows in another
#     order give the same; a bad row is named file:line; an unknown layout
#     fails the file;
#   * the compact table: pctiles == pctiles of the result file byte for byte,
#     `partial` included (it carries coverage); RowBinary names its columns;
#     a bad units array is named file:line.
# usage: export_cli_test.sh path/to/latscope
set -u
BIN=${1:-build/latscope}
FIX=$(cd "$(dirname "$0")/fixtures" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() {  # name expected-rc actual-rc
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: exit $3, expected $2"; cat "$TMP/err" 2>/dev/null; fi
}
contains() {  # name file text
  if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: '$3' missing"; cat "$2"; fi
}
S1="$FIX/fio-s1/s1_clat_hist.1.log.127.0.0.1 $FIX/fio-s1/s1_clat_hist.1.log.127.0.0.2 $FIX/fio-s1/s1_clat_hist.2.log.127.0.0.1 $FIX/fio-s1/s1_clat_hist.2.log.127.0.0.2"
LOCAL="$FIX/local/local_clat_hist.1.log $FIX/local/local_clat_hist.2.log"

"$BIN" export --keep none $S1 -o "$TMP/x.hlog" 2>"$TMP/err"
check "export without --format is a usage error" 2 $?
contains "usage error names the formats" "$TMP/err" "--format hlog, tsv, compact or rowbinary is required"

# shellcheck disable=SC2086
"$BIN" export --format hlog --keep none $S1 -o "$TMP/s1.hlog" 2>"$TMP/err"
check "hlog export exits 0" 0 $?
contains "rounding is said" "$TMP/err" "cells had fractional counts"
contains "configuration is said" "$TMP/err" "fio3 as HdrHistogram d2:l1 (every bin edge is a bucket edge)"
# shellcheck disable=SC2086
"$BIN" pctiles --quantum 1000 --percentiles 50,90 $S1 >"$TMP/logs.csv" 2>/dev/null
"$BIN" pctiles --quantum 1000 --percentiles 50,90 --method hdr "$TMP/s1.hlog" >"$TMP/own.csv" 2>/dev/null
check "latscope reads its hlog" 0 $?

# Java's interval CSV (values in us) joined with pctiles rows by quantum start:
#   Timestamp (interval end, s),Int_Count,Int_50%,Int_90%,...
#   time_ms,group,samples,min,mean,p50,p90,max,flags
# Counts: Java's == latscope's samples rounded to whole I/Os. Percentiles:
# within tol_rel * value + 0.002 us (Java prints 3 decimals).
# $1 java csv, $2 pctiles csv, $3 name, $4 tol_rel, $5 quantum ms (default 1000).
compare_java() {
  awk -F, -v what="$3" -v tol="$4" -v q="${5:-1000}" '
    FNR == 1 { file++ }
    file == 1 && FNR > 2 { t = sprintf("%.0f", $1 * 1000 - q); n[t] = $2; p50[t] = $3; p90[t] = $4; next }
    file == 2 && FNR > 1 && ($1 in n) {
      seen++
      want = int($3 + 0.5)
      if (n[$1] != want) { printf "  %s t=%s: Java counts %s, latscope %s samples\n", what, $1, n[$1], $3; bad++ }
      if (want > 0) for (k = 6; k <= 7; k++) {
        j = (k == 6 ? p50[$1] : p90[$1])
        d = j - $k; if (d < 0) d = -d
        if (d > tol * $k + 0.002) { printf "  %s t=%s: Java p%s %s, latscope %s\n", what, $1, (k == 6 ? 50 : 90), j, $k; bad++ }
      }
    }
    END { if (seen < (q > 1000 ? 1 : 5)) { printf "  %s: only %d intervals matched\n", what, seen; bad++ } exit bad > 0 }' "$1" "$2"
}

if command -v java >/dev/null 2>&1 && [ -r /usr/share/java/hdrhistogram.jar ]; then
  JAVA="java -cp /usr/share/java/hdrhistogram.jar org.HdrHistogram.HistogramLogProcessor"
  $JAVA -i "$TMP/s1.hlog" -csv -outputValueUnitRatio 1000 -o "$TMP/java" >/dev/null 2>&1
  check "Java's HistogramLogProcessor reads the hlog" 0 $?
  # Counts against the logs; percentiles against latscope's own reading of
  # the same .hlog by HdrHistogram's definition (--method hdr): equal to
  # Java's printed digits. (Against the logs' percentiles the rounding of
  # fractional cells moves ranks by a few I/Os; see the nested case below.)
  if compare_java "$TMP/java" "$TMP/logs.csv" "untagged" 1 && compare_java "$TMP/java" "$TMP/own.csv" "own reader" 0; then
    ok "Java: counts per interval = latscope samples; percentiles = latscope --method hdr"
  else
    bad "Java: counts per interval = latscope samples; percentiles = latscope --method hdr"
  fi

  # Several label sets: one tag each.
  # shellcheck disable=SC2086
  "$BIN" export --format hlog --keep dir $S1 -o "$TMP/dir.hlog" 2>"$TMP/err"
  check "tagged export exits 0" 0 $?
  $JAVA -i "$TMP/dir.hlog" -listtags >"$TMP/tags" 2>&1
  contains "Java lists the read tag" "$TMP/tags" "dir=read;kind=clat"
  contains "Java lists the write tag" "$TMP/tags" "dir=write;kind=clat"
  for d in read write; do
    $JAVA -i "$TMP/dir.hlog" -tag "dir=$d;kind=clat" -csv -outputValueUnitRatio 1000 -o "$TMP/java-$d" >/dev/null 2>&1
    # shellcheck disable=SC2086
    "$BIN" pctiles --quantum 1000 --percentiles 50,90 --directions "$(echo $d | cut -c1)" $S1 >"$TMP/logs-$d.csv" 2>/dev/null
    "$BIN" pctiles --quantum 1000 --percentiles 50,90 --method hdr --group-by tag "$TMP/dir.hlog" 2>/dev/null |
      grep -F "tag=dir=$d;kind=clat" >"$TMP/own-$d.csv"
    sed -i '1i header' "$TMP/own-$d.csv"
    if compare_java "$TMP/java-$d" "$TMP/logs-$d.csv" "Tag=dir=$d" 1 && compare_java "$TMP/java-$d" "$TMP/own-$d.csv" "own Tag=dir=$d" 0; then ok "Java -tag dir=$d;kind=clat"; else bad "Java -tag dir=$d;kind=clat"; fi
  done

  # Windows nested in the quanta (20 s quanta over a 10 s run): lossless.
  # shellcheck disable=SC2086
  "$BIN" export --format hlog --quantum 20000 --keep none $LOCAL -o "$TMP/nest.hlog" 2>"$TMP/err"
  check "nested export exits 0" 0 $?
  if grep -q "fractional" "$TMP/err"; then bad "nested windows need no rounding"; else ok "nested windows need no rounding"; fi
  $JAVA -i "$TMP/nest.hlog" -csv -outputValueUnitRatio 1000 -o "$TMP/java-nest" >/dev/null 2>&1
  # shellcheck disable=SC2086
  "$BIN" pctiles --quantum 20000 --percentiles 50,90 $LOCAL >"$TMP/nest.csv" 2>/dev/null
  # Lossless: Java's count is the logs' exactly, and its percentiles are in
  # the fio bin of latscope's (1/64) within one 2-digit bucket (1/128).
  if compare_java "$TMP/java-nest" "$TMP/nest.csv" "nested" 0.0235 20000; then
    ok "nested: Java's count is the logs' exactly, percentiles within a fio bin"
  else
    bad "nested: Java's count is the logs' exactly, percentiles within a fio bin"
  fi
else
  echo "skip Java checks: java or /usr/share/java/hdrhistogram.jar missing (apt-get install default-jre-headless libhdrhistogram-java)"
fi

# ---- TSV ----
# shellcheck disable=SC2086
"$BIN" reduce --keep dir $LOCAL -o "$TMP/l.lsr" 2>/dev/null
"$BIN" export --format tsv "$TMP/l.lsr" -o "$TMP/l.tsv" 2>"$TMP/err"
check "tsv export of a result exits 0" 0 $?
"$BIN" pctiles --group-by dir "$TMP/l.lsr" | sed 's/;partial$//; s/,partial$/,/' >"$TMP/from-lsr.csv"
"$BIN" pctiles --group-by dir "$TMP/l.tsv" >"$TMP/from-tsv.csv" 2>"$TMP/err"
check "the table reads as input" 0 $?
if cmp -s "$TMP/from-lsr.csv" "$TMP/from-tsv.csv"; then ok "pctiles(table) == pctiles(result)"; else bad "pctiles(table) == pctiles(result)"; diff "$TMP/from-lsr.csv" "$TMP/from-tsv.csv" | head; fi
# shellcheck disable=SC2086
"$BIN" pctiles --group-by dir $LOCAL | sed 's/;partial$//; s/,partial$/,/' >"$TMP/from-logs.csv"
# Within the result precision (docs/result-format.md, "Counts: fixed point"): 1e-6
# relative here, except percentiles flagged few:pX (a rank of a handful of
# I/Os on a bin boundary is ill-conditioned; the same page says so).
# min, p100 and max: a result or table keeps counts per quantum, not which
# window lay mostly in it (docs/extremes.md), so its extremes take every
# window overlapping the quantum: never inside the logs' (min <=, max >=).
if awk -F, 'FNR == 1 { file++; if (file == 1) for (k = 1; k <= NF; k++) name[k] = $k; next }
    file == 1 { row[FNR] = $0; next }
    { split(row[FNR], a, ","); delete few
      if (match($12, /few:[^;]*/)) { n = split(substr($12, RSTART + 4, RLENGTH - 4), f, "|"); for (i = 1; i <= n; i++) few[f[i]] = 1 }
      for (k = 3; k <= 11; k++) {
        if (name[k] in few) continue
        if (name[k] == "min") { if ($k > a[k] * (1 + 1e-6)) { print "  row " FNR " min: logs " a[k] ", table " $k; bad++ }; continue }
        if (name[k] == "max" || name[k] == "p100") { if ($k < a[k] * (1 - 1e-6)) { print "  row " FNR " " name[k] ": logs " a[k] ", table " $k; bad++ }; continue }
        d = a[k] - $k; if (d < 0) d = -d
        if (d > 1e-6 * ($k < 0 ? -$k : $k) + 1e-9) { print "  row " FNR " " name[k] ": logs " a[k] ", table " $k; bad++ }
      } }
    END { exit bad > 0 }' "$TMP/from-logs.csv" "$TMP/from-tsv.csv"; then ok "pctiles(table) ~= pctiles(logs)"; else bad "pctiles(table) ~= pctiles(logs)"; fi
# Another row order: the same answer.
{ head -n 1 "$TMP/l.tsv"; tail -n +2 "$TMP/l.tsv" | awk '{ print (NR * 7919) % 100003 "\t" $0 }' | sort -n | cut -f 2-; } >"$TMP/shuf.tsv"
"$BIN" pctiles --group-by dir "$TMP/shuf.tsv" >"$TMP/from-shuf.csv" 2>/dev/null
if cmp -s "$TMP/from-tsv.csv" "$TMP/from-shuf.csv"; then ok "shuffled rows: same pctiles"; else bad "shuffled rows: same pctiles"; fi
# A bad count on line 5: skipped, named, exit 1.
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 5 { $NF = "x" } { print }' "$TMP/l.tsv" >"$TMP/bad.tsv"
"$BIN" pctiles "$TMP/bad.tsv" >/dev/null 2>"$TMP/err"
check "a bad row exits 1" 1 $?
contains "the bad row is named" "$TMP/err" "bad.tsv:5:"
contains "the bad row is counted" "$TMP/err" "tsv-malformed-row x1"
sed '2s/\tfio3\t/\tfio7\t/' "$TMP/l.tsv" >"$TMP/unknown.tsv"
"$BIN" pctiles "$TMP/unknown.tsv" >/dev/null 2>"$TMP/err"
check "an unknown layout exits 2" 2 $?
contains "the unknown layout is said" "$TMP/err" "unknown.tsv:line 2:"

# ---- the compact table ----
# shellcheck disable=SC2086
"$BIN" reduce --keep host,dir $S1 -o "$TMP/s1.lsr" 2>/dev/null
"$BIN" export --format compact --keep host,dir "$TMP/s1.lsr" -o "$TMP/s1.ctsv" 2>"$TMP/err"
check "compact export exits 0" 0 $?
for g in all host dir; do
  "$BIN" pctiles --group-by "$g" "$TMP/s1.lsr" >"$TMP/c-lsr.csv" 2>/dev/null
  "$BIN" pctiles --group-by "$g" "$TMP/s1.ctsv" >"$TMP/c-tsv.csv" 2>/dev/null
  if grep -q partial "$TMP/c-lsr.csv" && cmp -s "$TMP/c-lsr.csv" "$TMP/c-tsv.csv"; then ok "compact: pctiles --group-by $g == the result's, byte for byte, partial included"
  else bad "compact: pctiles --group-by $g differ from the result's (or no partial row to compare)"; diff "$TMP/c-lsr.csv" "$TMP/c-tsv.csv" | head; fi
done
"$BIN" export --format rowbinary --keep host,dir "$TMP/s1.lsr" -o "$TMP/s1.rb" 2>"$TMP/err"
check "rowbinary export exits 0" 0 $?
contains "RowBinary's columns are named" "$TMP/err" "RowBinary columns, in order: t_ms, quantum_ms, dir, host, kind, layout, span_start_ms, span_end_ms, full_start_ms, full_end_ms, binsMap.bin, binsMap.units, extremesMap.bin, extremesMap.n"
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 3 { $12 = "[1]" } { print }' "$TMP/s1.ctsv" >"$TMP/bad.ctsv"
"$BIN" pctiles "$TMP/bad.ctsv" >/dev/null 2>"$TMP/err"
check "a bad compact row exits 1" 1 $?
contains "the bad compact row is named" "$TMP/err" "bad.ctsv:3:"

[ "$fails" -eq 0 ] || { echo "$fails export CLI checks failed"; exit 1; }
echo "all export CLI checks passed"
