#!/bin/sh
# The scale benchmark's generator (tests/bench/make_bench_data.py
# --per-host-dirs, used by tests/bench/scale_bench.sh), small: 3 hosts x 2
# jobs x 30 s. Its logs must parse without a skipped line, each host's folder
# must hold only that host's logs, the CLI must see exactly 3 hosts, and the
# logs replayed from the client/server fixtures must carry the defect the
# engine repairs (docs/formats.md), as fio's client writes them.
# usage: tests/scale_gen_test.sh path/to/latscope
set -eu
BIN=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL $1"; exit 1; }

SET=$(python3 "$ROOT/tests/bench/make_bench_data.py" --out "$T" --files 6 --hosts 3 --seconds 30 --per-host-dirs)
[ "$SET" = "$T/f6_s30_h3" ] || fail "set folder $SET"
[ -f "$SET/.complete" ] || fail "no .complete marker"
[ "$(ls "$SET" | wc -l)" = 3 ] || fail "expected 3 host folders, got: $(ls "$SET" | tr '\n' ' ')"
for d in "$SET"/*/; do
  h=$(basename "$d")
  [ "$(ls "$d" | wc -l)" = 2 ] || fail "$h: expected 2 logs, got $(ls "$d" | tr '\n' ' ')"
  for f in "$d"*; do
    case "$f" in *".log.$h") ;; *) fail "$f is not named for host $h" ;; esac
  done
done

# Exit 0: no skipped line, no series left out (status 1 would say so).
"$BIN" pctiles --group-by host "$SET"/*/* >"$T/host.csv" 2>"$T/err" || { cat "$T/err"; fail "latscope pctiles exit $?"; }
hosts=$(tail -n +2 "$T/host.csv" | cut -d, -f2 | sort -u | tr '\n' ' ')
[ "$hosts" = "host=10.0.0.1 host=10.0.0.2 host=10.0.0.3 " ] || fail "hosts seen: $hosts"
# Files 0..3 replay the four fio-s1 (client/server) fixtures, 4..5 the local ones.
rep=$(grep -c 'accumulation defect detected and repaired' "$T/err" || true)
[ "$rep" = 4 ] || { cat "$T/err"; fail "expected 4 repaired logs, got $rep"; }
# A full quantum: 6 logs x 2 directions x ~400 I/Os (fixtures at 400 IOPS, two at 402).
s=$("$BIN" pctiles "$SET"/*/* 2>/dev/null | awk -F, '$1 == 10000 { printf "%.0f", $3 }')
[ "$s" -ge 4800 ] && [ "$s" -le 4830 ] || fail "samples at 10 s: $s, expected ~4800"
echo "ok   scale generator: 3 host folders, 6 logs parse, 4 repaired, $s I/Os in a full quantum"
