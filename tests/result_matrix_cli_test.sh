#!/bin/sh
# The per-host percentile matrix end to end (docs/result-format.md,
# "Per-host percentile matrix (version 4)"), on hosts simulated from the real
# fio fixtures (copies named `.log.<host>`, some moved by --offset as
# tests/clickhouse/run.sh does):
#   * each host's `reduce --keep host,dir` writes a matrix at the default
#     ladder's levels that are multiples of its quantum, and `pctiles
#     --group-by host --quantum L` of the result answers from it with exactly
#     the CSV that the same query of the host's logs prints;
#   * `merge` of the hosts concatenates their matrices, and every level of the
#     merge prints exactly what `pctiles --group-by host --quantum L` of all
#     the hosts' logs together prints (so does `reduce --keep host,dir` of
#     the results); the merge's histograms are byte for byte those of the
#     merge of the hosts reduced without a matrix;
#   * --matrix none writes a version 2 file byte for byte as before; the
#     query then comes from the histograms, with the same bytes;
#   * a damaged matrix block is named (file, block, level) and the query
#     falls back to the histograms (pctiles) or nothing is written (merge);
#   * a host in two inputs, or inputs without a matrix: merge says why no
#     matrix is written and merges the histograms.
# usage: result_matrix_cli_test.sh path/to/latscope
set -u
BIN=${1:-build/latscope}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FIX="$ROOT/tests/fixtures"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
same() {  # name a b
  if cmp -s "$2" "$3"; then ok "$1"; else bad "$1"; diff "$2" "$3" | head -5; fi
}
S1=$FIX/fio-s1/s1_clat_hist
CS=$FIX/cs/cs_clat_hist
# name|logs|offset (ms, a non-multiple of the quantum moves counts across quanta)
HOSTS="node01|$S1.1.log.127.0.0.1 $S1.2.log.127.0.0.1|0
node02|$S1.1.log.127.0.0.2 $S1.2.log.127.0.0.2|0
node03|$CS.1.log.127.0.0.1 $CS.2.log.127.0.0.1|0
node04|$CS.1.log.127.0.0.2 $CS.2.log.127.0.0.2|0
node05|$S1.1.log.127.0.0.1 $S1.2.log.127.0.0.1|2500
node06|$CS.1.log.127.0.0.2 $CS.2.log.127.0.0.2|1250"
LEVELS="1000 10000 60000"
ALL_OFFSETS=""
mkdir -p "$TMP/logs"
while IFS='|' read -r name logs off; do
  for f in $logs; do
    b=$(basename "$f")
    cp "$f" "$TMP/logs/${b%.log*}.log.$name"
  done
  [ "$off" = 0 ] || ALL_OFFSETS="$ALL_OFFSETS --offset $name=$off"
done <<EOF
$HOSTS
EOF

# --- each host: reduce, then pctiles from its matrix ----------------------------
while IFS='|' read -r name logs off; do
  opt=""; [ "$off" = 0 ] || opt="--offset $name=$off"
  # shellcheck disable=SC2086
  "$BIN" reduce --keep host,dir $opt "$TMP"/logs/*."$name" -o "$TMP/$name.lsr" 2>"$TMP/$name.err" ||
    { bad "$name: reduce failed"; cat "$TMP/$name.err"; continue; }
  grep -q "per-host matrix at 1000,10000,60000,600000,3600000 ms" "$TMP/$name.err" &&
    ok "$name: reduce writes the matrix" || { bad "$name: no matrix line"; cat "$TMP/$name.err"; }
  for L in $LEVELS; do
    "$BIN" pctiles --group-by host --quantum "$L" "$TMP/$name.lsr" >"$TMP/m.csv" 2>"$TMP/m.err"
    grep -q "answered from $TMP/$name.lsr's per-host matrix (level $L ms)" "$TMP/m.err" ||
      { bad "$name L=$L: not answered from the matrix"; cat "$TMP/m.err"; }
    # shellcheck disable=SC2086
    "$BIN" pctiles --group-by host --quantum "$L" $opt "$TMP"/logs/*."$name" >"$TMP/l.csv" 2>/dev/null
    same "$name L=$L: the matrix prints the logs' pctiles --group-by host" "$TMP/m.csv" "$TMP/l.csv"
  done
done <<EOF
$HOSTS
EOF

# --- merge of the hosts ----------------------------------------------------------
set -- "$TMP"/node0*.lsr
"$BIN" merge "$@" -o "$TMP/cluster.lsr" 2>"$TMP/merge.err" || { bad "merge failed"; cat "$TMP/merge.err"; }
grep -q "per-host matrix at" "$TMP/merge.err" && ok "merge writes the concatenated matrix" || { bad "merge: no matrix"; cat "$TMP/merge.err"; }
"$BIN" reduce --keep host,dir "$@" -o "$TMP/cluster-reduced.lsr" 2>/dev/null || bad "reduce of the results failed"
for L in $LEVELS; do
  # shellcheck disable=SC2086
  "$BIN" pctiles --group-by host --quantum "$L" $ALL_OFFSETS "$TMP"/logs/* >"$TMP/l.csv" 2>/dev/null
  for f in cluster cluster-reduced; do
    "$BIN" pctiles --group-by host --quantum "$L" "$TMP/$f.lsr" >"$TMP/m.csv" 2>"$TMP/m.err"
    grep -q "per-host matrix (level $L ms)" "$TMP/m.err" || { bad "$f L=$L: not from the matrix"; cat "$TMP/m.err"; }
    same "$f of 6 hosts L=$L: the matrix prints the logs' pctiles --group-by host" "$TMP/m.csv" "$TMP/l.csv"
  done
done
# The histograms are summed as before: the merge's are, byte for byte, the
# merge of the same hosts reduced with --matrix none (parts directory:
# "LSPARTS\0", u64 histograms' offset, u64 their length, ...).
while IFS='|' read -r name logs off; do
  opt=""; [ "$off" = 0 ] || opt="--offset $name=$off"
  # shellcheck disable=SC2086
  "$BIN" reduce --keep host,dir --matrix none $opt "$TMP"/logs/*."$name" -o "$TMP/plain-$name.lsr" 2>/dev/null
done <<EOF
$HOSTS
EOF
"$BIN" merge "$TMP"/plain-node0*.lsr -o "$TMP/cluster-plain.lsr" 2>/dev/null
size=$(stat -c %s "$TMP/cluster.lsr")
hl=$(od -An -tu8 -j $((size - 56 + 16)) -N8 "$TMP/cluster.lsr" | tr -d ' ')
tail -c +13 "$TMP/cluster.lsr" | head -c "$hl" >"$TMP/cluster-hist.lsr"
same "merge: the histograms are the merge without matrices" "$TMP/cluster-hist.lsr" "$TMP/cluster-plain.lsr"

# --- --matrix none: the version 2 file of before; the histograms answer alike ------
"$BIN" reduce --keep host,dir --matrix none "$TMP"/logs/*.node01 -o "$TMP/plain.lsr" 2>/dev/null
[ "$(od -An -tu1 -j8 -N1 "$TMP/plain.lsr" | tr -d ' ')" = 2 ] && ok "--matrix none writes version 2" || bad "--matrix none: not version 2"
"$BIN" pctiles --group-by host --quantum 10000 "$TMP/plain.lsr" >"$TMP/h.csv" 2>/dev/null
"$BIN" pctiles --group-by host --quantum 10000 "$TMP/node01.lsr" >"$TMP/m.csv" 2>/dev/null
same "matrix and histograms print the same bytes" "$TMP/m.csv" "$TMP/h.csv"
# Its histograms are the version 4 file's, byte for byte (the parts
# directory: "LSPARTS\0", u64 histograms' offset, u64 their length, ...).
size=$(stat -c %s "$TMP/node01.lsr")
hl=$(od -An -tu8 -j $((size - 56 + 16)) -N8 "$TMP/node01.lsr" | tr -d ' ')
tail -c +13 "$TMP/node01.lsr" | head -c "$hl" >"$TMP/hist.lsr"
same "the version 4 file's histograms are the version 2 file" "$TMP/hist.lsr" "$TMP/plain.lsr"
# Levels the quantum does not divide are left out, and said.
"$BIN" reduce --keep host,dir --quantum 3000 "$TMP"/logs/*.node01 -o "$TMP/q3.lsr" 2>"$TMP/q3.err"
grep -q "matrix levels 1000, 10000 ms left out: not multiples of the 3000 ms quantum" "$TMP/q3.err" &&
  ok "levels not multiples of the quantum are said" || { bad "q3: no note"; cat "$TMP/q3.err"; }
# A query the matrix does not hold comes from the histograms.
"$BIN" pctiles --group-by host --quantum 2000 "$TMP/node01.lsr" >/dev/null 2>"$TMP/m.err"
grep -q "per-host matrix" "$TMP/m.err" && bad "2000 ms answered from the matrix" || ok "2000 ms: from the histograms"
"$BIN" pctiles --group-by host --percentiles 42 --quantum 1000 "$TMP/node01.lsr" >/dev/null 2>"$TMP/m.err"
grep -q "per-host matrix" "$TMP/m.err" && bad "a percentile not in the matrix answered from it" || ok "a percentile not in the matrix: from the histograms"
# Some of the matrix's percentiles, in the asked order, over a range: from
# the matrix, and what the histograms answer (--format csv takes them).
"$BIN" pctiles --group-by host --percentiles 99,50 --quantum 1000 --from 2000 --to 7000 "$TMP/node01.lsr" >"$TMP/sub.csv" 2>"$TMP/m.err"
"$BIN" pctiles --group-by host --percentiles 99,50 --quantum 1000 --from 2000 --to 7000 --format csv "$TMP/node01.lsr" >"$TMP/sub-h.csv" 2>/dev/null
grep -q "per-host matrix" "$TMP/m.err" && [ "$(wc -l <"$TMP/sub.csv")" -gt 2 ] && cmp -s "$TMP/sub.csv" "$TMP/sub-h.csv" &&
  ok "some of its percentiles over a range: from the matrix, the histograms' bytes" || { bad "subset: not the histograms' answer"; cat "$TMP/m.err"; diff "$TMP/sub.csv" "$TMP/sub-h.csv" | head -5; }

# --- a damaged matrix -------------------------------------------------------------
# The matrix section starts at the parts directory's third u64 (56 bytes from the end).
size=$(stat -c %s "$TMP/node01.lsr")
mx=$(od -An -tu8 -j $((size - 56 + 24)) -N8 "$TMP/node01.lsr" | tr -d ' ')
cp "$TMP/node01.lsr" "$TMP/broken.lsr"
# The matrix header's zlib stream (after "LSMATRIX", version, length) broken.
printf '\377\377\377\377' | dd of="$TMP/broken.lsr" bs=1 seek=$((mx + 16)) conv=notrunc 2>/dev/null
"$BIN" pctiles --group-by host --quantum 10000 "$TMP/broken.lsr" >"$TMP/m.csv" 2>"$TMP/m.err"
grep -q "$TMP/broken.lsr: result: matrix: header: .*; answered from the histograms instead" "$TMP/m.err" &&
  ok "damaged matrix: named, the histograms answer" || { bad "damaged matrix: message"; cat "$TMP/m.err"; }
"$BIN" pctiles --group-by host --quantum 10000 "$TMP"/logs/*.node01 >"$TMP/l.csv" 2>/dev/null
same "damaged matrix: the histograms' answer is the logs'" "$TMP/m.csv" "$TMP/l.csv"
# A block's zlib stream broken (the first block: level 1000 ms, after the header's).
hz=$(od -An -tu4 -j $((mx + 12)) -N4 "$TMP/node01.lsr" | tr -d ' ')
cp "$TMP/node01.lsr" "$TMP/block.lsr"
printf '\377\377\377\377' | dd of="$TMP/block.lsr" bs=1 seek=$((mx + 16 + hz + 4)) conv=notrunc 2>/dev/null
"$BIN" pctiles --group-by host --quantum 1000 "$TMP/block.lsr" >"$TMP/m.csv" 2>"$TMP/m.err"
grep -q "^latscope pctiles: $TMP/block.lsr: result: matrix: block 0 (level 1000 ms): .*; answered from the histograms instead" "$TMP/m.err" &&
  ok "damaged matrix block: file, block, level, what was done" || { bad "damaged matrix block: message"; cat "$TMP/m.err"; }
"$BIN" merge "$TMP/block.lsr" "$TMP/node02.lsr" -o "$TMP/x.lsr" 2>"$TMP/x.err"
rc=$?
{ [ $rc = 2 ] && [ ! -e "$TMP/x.lsr" ] && grep -q "^latscope merge: $TMP/block.lsr: result: matrix: block 0 (level 1000 ms): .*; nothing written" "$TMP/x.err"; } &&
  ok "merge of a damaged matrix block: named, nothing written" || { bad "merge of a damaged matrix block (exit $rc)"; cat "$TMP/x.err"; }
"$BIN" merge "$TMP/broken.lsr" "$TMP/node02.lsr" -o "$TMP/x.lsr" 2>"$TMP/x.err"
rc=$?
{ [ $rc = 2 ] && [ ! -e "$TMP/x.lsr" ] && grep -q "$TMP/broken.lsr: result: matrix: header: .*; nothing written" "$TMP/x.err"; } &&
  ok "merge of a damaged matrix: named, nothing written" || { bad "merge of a damaged matrix (exit $rc)"; cat "$TMP/x.err"; }

# --- what cannot be concatenated ------------------------------------------------------
"$BIN" merge "$TMP/node01.lsr" "$TMP/node01.lsr" -o "$TMP/twice.lsr" 2>"$TMP/t.err"
grep -q "note: no per-host matrix written: host=node01 is in $TMP/node01.lsr and in $TMP/node01.lsr" "$TMP/t.err" &&
  ok "a host in two inputs: no matrix, said" || { bad "a host in two inputs"; cat "$TMP/t.err"; }
"$BIN" merge "$TMP/plain.lsr" "$TMP/node02.lsr" -o "$TMP/mixed.lsr" 2>"$TMP/t.err"
grep -q "note: no per-host matrix written: $TMP/plain.lsr holds no matrix" "$TMP/t.err" &&
  ok "an input without a matrix: no matrix, said" || { bad "an input without a matrix"; cat "$TMP/t.err"; }

[ "$fails" = 0 ] && echo "result_matrix_cli: all passed" || { echo "result_matrix_cli: $fails failed"; exit 1; }
