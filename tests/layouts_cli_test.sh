#!/bin/sh
# Whole folders as benchmark tools leave them, through the CLI
# (tests/fixtures/layouts, docs/formats.md "Folders that benchmark tools
# leave", docs/runs.md): for each tool's folder, every file given at once:
#   * exit 0, and no file is an error (no "named like", no "not read");
#   * every file that is no log is named once on stderr ("ignored (...)");
#   * the groups are the hosts and jobs the layout gives (pbench-fio's
#     clients/<host>/ folders are hosts, CBT's ".<host>" names too);
#   * no "look like N runs" warning for pbench-fio hosts, CBT clients or a
#     PerfKitBenchmarker run; bench-fio's two settings are two runs;
#   * pbench-fio's logs give the numbers of the same logs named as fio's
#     client wrote them (fio_clat_hist.1.log.<host>): same hosts, same repair.
# usage: layouts_cli_test.sh path/to/latscope
set -u
BIN=$(cd "$(dirname "${1:-build/latscope}")" && pwd)/$(basename "${1:-build/latscope}")
FIX=$(cd "$(dirname "$0")/fixtures/layouts" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
cd "$FIX" || exit 1

# whole_folder NAME TOOL EXPECTED_GROUPS RUNS
whole_folder() {
  find "$2" -type f | LC_ALL=C sort >"$TMP/$2.files"
  # shellcheck disable=SC2046
  "$BIN" pctiles --group-by host,job $(cat "$TMP/$2.files") >"$TMP/$2.csv" 2>"$TMP/$2.err"
  rc=$?
  if [ $rc = 0 ]; then ok "$1: exit 0"; else bad "$1: exit $rc"; cat "$TMP/$2.err"; fi
  # An unusable file makes the exit code 2 (above); a file named like a log
  # that holds something else says so.
  if grep -q "named like\|; not read" "$TMP/$2.err"; then bad "$1: an error"; grep "named like\|; not read" "$TMP/$2.err"
  else ok "$1: no file is an error"; fi
  # Each file: read (a group row) or ignored once; count the ignored lines per file.
  n_ign=0
  while read -r f; do
    c=$(grep -c "^latscope: $f: ignored (" "$TMP/$2.err")
    [ "$c" -gt 1 ] && bad "$1: $f named $c times"
    n_ign=$((n_ign + c))
  done <"$TMP/$2.files"
  n_all=$(wc -l <"$TMP/$2.files")
  want_ign=$(($n_all - $5))
  if [ "$n_ign" = "$want_ign" ]; then ok "$1: $n_ign of $n_all files named as no log, $5 read"
  else bad "$1: $n_ign files named as no log, want $want_ign"; cat "$TMP/$2.err"; fi
  groups=$(tail -n +2 "$TMP/$2.csv" | cut -d, -f2 | LC_ALL=C sort -u | tr '\n' ' ')
  if [ "$groups" = "$3" ]; then ok "$1: groups $groups"; else bad "$1: groups '$groups', want '$3'"; fi
  if [ "$4" = 1 ]; then
    if grep -q "look like" "$TMP/$2.err"; then bad "$1: a runs warning"; grep "look like" "$TMP/$2.err"; else ok "$1: one run, no warning"; fi
  else
    if grep -q "the inputs look like $4 runs" "$TMP/$2.err"; then ok "$1: $4 runs said"; else bad "$1: no '$4 runs' warning"; cat "$TMP/$2.err"; fi
  fi
}

# pbench-fio: 2 hosts x 2 jobs; read: 4 clat_hist + 12 averaged clat/lat/slat logs.
whole_folder "pbench-fio" pbench "host=127.0.0.1;job=1 host=127.0.0.1;job=2 host=127.0.0.2;job=1 host=127.0.0.2;job=2 " 1 16
grep -q "fio_clat_hist.1.log: repaired" "$TMP/pbench.err" && ok "pbench-fio: client logs repaired" ||
  bad "pbench-fio: no repair of client logs"
for what in "percentiles over time from fio-histo-log-pctiles.py" "pbench-fio plot series" "pbench-fio result summary" "HTML page" \
  "CSV table with a header" "fio json output without json+ bins" "fio job file" "fio IOPS log" "fio bandwidth log"; do
  grep -q "ignored ($what" "$TMP/pbench.err" && ok "pbench-fio: named '$what'" || bad "pbench-fio: '$what' not named"
done
# The same histogram logs named as fio's client writes them, beside nothing else.
S=$(find pbench -type d -name sample1)
mkdir -p "$TMP/flat"
for h in 127.0.0.1 127.0.0.2; do
  for j in 1 2; do cp "$S/clients/$h/fio_clat_hist.$j.log" "$TMP/flat/fio_clat_hist.$j.log.$h"; done
done
"$BIN" pctiles --group-by host,job "$S"/clients/*/fio_clat_hist.*.log >"$TMP/pb.csv" 2>/dev/null
"$BIN" pctiles --group-by host,job "$TMP"/flat/* >"$TMP/flat.csv" 2>/dev/null
if [ -s "$TMP/pb.csv" ] && cmp -s "$TMP/pb.csv" "$TMP/flat.csv"; then ok "pbench-fio == fio client names, number for number"
else bad "pbench-fio != fio client names"; diff "$TMP/pb.csv" "$TMP/flat.csv" | head; fi

# CBT: 2 clients, 1 volume; read: clat, lat, slat per client (clat shown).
whole_folder "CBT" cbt "host=client1;job=1 host=client2;job=1 " 1 6
grep -q "JSON, not fio's output" "$TMP/cbt.err" && ok "CBT: ceph dumps named" || bad "CBT: ceph dumps not named"
# PerfKitBenchmarker: one VM, no host in its names; read: clat_hist + 3 averaged.
whole_folder "PerfKitBenchmarker" pkb "host=local;job=1 " 1 4
grep -q "ignored (PerfKitBenchmarker samples" "$TMP/pkb.err" && ok "PKB: samples named" || bad "PKB: samples not named"
# bench-fio: two fio runs (iodepth 1 and 2); read: 3 averaged logs each.
whole_folder "bench-fio" bench-fio "host=local;job=1 " 2 6
grep -q "ignored (PNG image)" "$TMP/bench-fio.err" && ok "bench-fio: chart named" || bad "bench-fio: chart not named"

# HdrHistogram's .hgrm beside an .hlog: named, the .hlog read.
H=$(cd "$FIX/../hdr-processor" && pwd)
"$BIN" pctiles "$H/sig3-tagged.hlog" "$H/expected/sig3-tagged.hgrm" >/dev/null 2>"$TMP/hgrm.err"
rc=$?
if [ $rc = 0 ] && grep -q "sig3-tagged.hgrm: ignored (HdrHistogram percentile distribution" "$TMP/hgrm.err"; then
  ok ".hgrm named, exit 0"
else bad ".hgrm: exit $rc"; cat "$TMP/hgrm.err"; fi

[ $fails = 0 ] && echo "all ok" || echo "$fails failed"
[ $fails = 0 ]
