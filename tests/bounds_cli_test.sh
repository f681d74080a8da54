#!/bin/sh
# Bounded on any input (docs/input-robustness.md, "Layouts" and the sections
# after it): each small hostile input of tests/bounds through the
# CLI under an address-space cap (prlimit --as), asserting its exit status
# and the message that names the file, the limit and what was done. The cap,
# not a clock, is the assertion: before these bounds each case took 4 to 9 GB.
# usage: bounds_cli_test.sh path/to/latscope
set -u
BIN=$(cd "$(dirname "${1:-build/latscope}")" && pwd)/$(basename "${1:-build/latscope}")
FIX=$(cd "$(dirname "$0")/bounds" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
cd "$FIX" || exit 1
# 1.5 GB of address space: the engine's bounds (~400 MB of layouts, and the
# query's share) fit; the inputs below once took 4 to 9 GB.
CAP=1500000000
capped() {
  if command -v prlimit >/dev/null 2>&1; then prlimit --as=$CAP "$@"; else (ulimit -v $((CAP / 1024)) && "$@"); fi
}

# expect NAME RC PATTERN -- command args: the exit status and a stderr line.
expect() {
  name=$1 want=$2 pat=$3
  shift 4
  capped "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ "$rc" = "$want" ]; then ok "$name: exit $want"; else bad "$name: exit $rc, not $want"; head -c 2000 "$TMP/err"; fi
  if grep -q -- "$pat" "$TMP/err"; then ok "$name: says '$pat'"
  else bad "$name: no '$pat' on stderr"; head -c 2000 "$TMP/err"; fi
}

# Item 2: 40 HdrHistogram configurations of 5 digits in a 3 KB log.
for cmd in pctiles heatmap summary; do
  expect "layouts40.hlog $cmd" 1 "layouts40.hlog:[0-9]*:0: configuration d5:l[0-9]* would need 5,500,001 bins.*past the limit of 16,777,216" \
    -- $cmd layouts40.hlog
done
# ... and 40 layout ids in a 1.7 KB table.
expect "layouts40.tsv" 1 "layouts40.tsv:[0-9]*:[0-9]*: layout hdr:d5:l[0-9]*:u1e0:n3000001 with the table's other layouts (15,000,005 bins) passes the limit of 16,777,216" \
  -- pctiles layouts40.tsv
# ... and four files of one distinct layout each: the fourth is refused.
for cmd in pctiles heatmap; do
  expect "four 5-digit layouts $cmd" 2 "layout_d5_l9.hlog: its bin layouts (hdr:d5:l9:u1e0:n5500001: 5,500,001 bins) with the 16,500,003 bins.*file not read" \
    -- $cmd layout_d5_l11.hlog layout_d5_l13.hlog layout_d5_l7.hlog layout_d5_l9.hlog
done
# Item 17: a layout id whose unit puts edges at infinity.
expect "unit_1e308.tsv" 2 "unit_1e308.tsv:line 2:[0-9]*: layout id 'hdr:d3:l1:u1e308:n2000': unit 1e308 ns is outside 1e-9..1e12 ns" \
  -- pctiles unit_1e308.tsv

# Item 4: a 200 KB result file of repeated cells (4 GB once read).
if command -v python3 >/dev/null 2>&1; then
  python3 make_result.py 1 25000 1856 >"$TMP/cells.lsr"
  for cmd in pctiles heatmap summary; do
    expect "cells.lsr $cmd" 2 "cells.lsr: result: block 0: cell [0-9]*: the decoded result would take over 1024 MiB, the limit of memory for one result" \
      -- $cmd "$TMP/cells.lsr"
  done
else
  echo "skip cells.lsr: no python3"
fi

# Item 13: a junk first line of 60,000-65,535 bytes (and longer) before a
# valid log; a first line with no end on standard input.
LOG=$FIX/../fixtures/fio-s1/s1_clat_hist.1.log.127.0.0.1
for n in 60000 65535 70000; do
  { head -c $n /dev/zero | tr '\0' x; echo; cat "$LOG"; } >"$TMP/junk$n.log"
  expect "junk first line of $n bytes" 1 "junk$n.log:1:1: column 1: 'x*' is not an unsigned integer; line skipped" \
    -- pctiles "$TMP/junk$n.log"
  if grep -q "^0,all,802.39" "$TMP/out"; then ok "junk$n.log: the log is read"; else bad "junk$n.log: the log is not read"; fi
done
{ head -c 3000000 /dev/zero | tr '\0' x; echo; cat "$LOG"; } >"$TMP/long"
capped "$BIN" pctiles - <"$TMP/long" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 2 ]; then ok "3 MB first line on stdin: exit 2"; else bad "3 MB first line on stdin: exit $rc"; fi
if grep -q "^latscope: (stdin): standard input holds no latency log (text with no line end in its first 1024 KiB" "$TMP/err"
then ok "3 MB first line on stdin: named"; else bad "3 MB first line on stdin: not named"; cat "$TMP/err"; fi

# Item 11: fio lines at time_ms near 2^63 and 2^64 (a histogram log, a
# per-I/O log) are refused by name in every command, not lost in some.
for cmd in pctiles heatmap summary; do
  expect "late_time_clat_hist.1.log $cmd" 1 "late_time_clat_hist.1.log:5:1: time_ms 18446744073709551000 is past 2^53 ms" \
    -- $cmd late_time_clat_hist.1.log
  expect "late_time_clat.1.log $cmd" 1 "late_time_clat.1.log:2:1: time_ms 9223372036854775807 is past 2^53 ms" \
    -- $cmd late_time_clat.1.log
done

# Item 1: a 20 s log asked at --quantum 0.001 (20 million quanta): refused
# before anything is allocated (it once took over 12 GB); reduce too.
H1=$FIX/../fixtures/local/local_clat_hist.1.log
{ cat "$H1"; awk -F', ' 'BEGIN{OFS=", "}{$1=$1+10000; print}' "$H1"; } >"$TMP/long_clat_hist.1.log"
expect "--quantum 0.001 pctiles" 2 "long_clat_hist.1.log: the query would hold 19002000 quanta of 0.001 ms (3.19 GB), over its memory limit of 2.15 GB: use a coarser quantum, a shorter time range (from/to), or raise the limit (--max-memory)" \
  -- pctiles --quantum 0.001 "$TMP/long_clat_hist.1.log"
expect "--quantum 0.001 reduce" 2 "long_clat_hist.1.log: the query would hold 19002000 quanta" \
  -- reduce --quantum 0.001 -o "$TMP/long.lsr" "$TMP/long_clat_hist.1.log"
# (At 10 ms the sweep holds one quantum's histogram and writes rows as
# it goes: well under 1M. At 2 ms the quanta alone are over.)
expect "--max-memory 1M" 2 "the query would hold .* over its memory limit of 0.00105 GB" \
  -- pctiles --quantum 2 --max-memory 1M "$TMP/long_clat_hist.1.log"

# Item 7: one file 9e10 ms away from the others is left out by name; the
# others answer (exit 1), with the rows they give alone.
H2=$FIX/../fixtures/local/local_clat_hist.2.log
awk -F', ' 'BEGIN{OFS=", "}{$1=sprintf("%.0f", $1+90000000000); print}' "$H1" >"$TMP/far_clat_hist.1.log"
expect "far file" 1 "far_clat_hist.1.log: 7205 I/Os from 90000000002 ms to 90000009005 ms left out: too far from the rest" \
  -- pctiles "$H2" "$TMP/far_clat_hist.1.log"
"$BIN" pctiles "$H2" >"$TMP/alone" 2>/dev/null
if cmp -s "$TMP/out" "$TMP/alone"; then ok "far file: the others' rows as alone"; else bad "far file: rows differ from the good file alone"; fi

# Item 6: a heat map of two lines 4e10 ms apart at one row only visits the
# quanta its windows reach (once a minute of work).
{ printf '1000, 0, 4096'; i=0; while [ $i -lt 1856 ]; do if [ $i = 300 ]; then printf ', 3'; else printf ', 0'; fi; i=$((i+1)); done; echo
  printf '40000000000, 0, 4096'; i=0; while [ $i -lt 1856 ]; do if [ $i = 700 ]; then printf ', 4'; else printf ', 0'; fi; i=$((i+1)); done; echo; } >"$TMP/two_clat_hist.1.log"
capped "$BIN" heatmap --rows 1 "$TMP/two_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
rc=$?
n=$(awk -F, 'NR > 1 {s += $4} END {print s + 0}' "$TMP/out")
if [ $rc -le 1 ] && [ "$n" = 7 ]; then ok "two far lines at --rows 1: every I/O in the heat map"; else bad "two far lines at --rows 1: exit $rc, $n I/Os"; head -c 600 "$TMP/err"; fi

[ $fails = 0 ] && echo "bounds_cli_test: all passed" && exit 0
echo "bounds_cli_test: $fails failed"
exit 1
