#!/bin/sh
# CLI behaviour that only shows at the process level: exit codes, stderr
# messages naming file:line:column, and .gz input giving the same numbers.
#   tests/cli_test.sh path/to/latscope
set -u
BIN=${1:-build/latscope}
FIX=$(cd "$(dirname "$0")/fixtures" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
check() {  # name expected-rc actual-rc
  if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fails=$((fails + 1)); else echo "ok   $1"; fi
}
contains() {  # name file text
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: stderr lacks '$3'"; cat "$2"; fails=$((fails + 1)); fi
}

"$BIN" pctiles "$FIX"/local/local_clat_hist.*.log >"$TMP/out" 2>"$TMP/err"
check "clean logs exit 0" 0 $?

# A damaged copy: one line with a letter in it -> skipped, counted, exit 1.
sed '3s/, 0, 0,/, 0, x,/' "$FIX/local/local_clat_hist.1.log" >"$TMP/dmg_clat_hist.1.log"
"$BIN" pctiles "$TMP/dmg_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "skipped line exits 1" 1 $?
contains "skipped line is named" "$TMP/err" "dmg_clat_hist.1.log:3:"
contains "skipped line has its reason" "$TMP/err" "not-a-number x1"

# An unusable file among good ones -> exit 2, the good ones still reported.
printf '\211PNG\r\n\032\n garbage' >"$TMP/junk_clat_hist.1.log"
"$BIN" pctiles "$FIX"/local/local_clat_hist.1.log "$TMP/junk_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "unusable file exits 2" 2 $?
contains "unusable file message" "$TMP/err" "junk_clat_hist.1.log: named like a fio histogram log but holds binary data"
if [ "$(wc -l <"$TMP/out")" -gt 2 ]; then echo "ok   good file still reported"; else echo "FAIL good file not reported"; fails=$((fails + 1)); fi

: >"$TMP/empty_clat_hist.1.log"
"$BIN" pctiles "$TMP/empty_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "empty file exits 2" 2 $?
contains "empty file message" "$TMP/err" "empty file"

"$BIN" pctiles --quantum -5 "$FIX/local/local_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "bad option exits 2" 2 $?

# .gz gives exactly the numbers of the plain file.
for f in "$FIX"/gz/*.gz; do
  plain="$FIX/local/$(basename "$f" .gz)"
  [ -f "$plain" ] || continue
  "$BIN" pctiles "$f" >"$TMP/gz.csv" 2>/dev/null
  "$BIN" pctiles "$plain" >"$TMP/plain.csv" 2>/dev/null
  if cmp -s "$TMP/gz.csv" "$TMP/plain.csv"; then echo "ok   gz == plain: $(basename "$f")"; else echo "FAIL gz differs: $f"; fails=$((fails + 1)); fi
done

# Heat map and json output are well-formed and count every sample.
"$BIN" heatmap --format json "$FIX"/local/local_clat_hist.*.log >"$TMP/h.json" 2>/dev/null
check "heatmap exits 0" 0 $?
node -e '
  const h = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (h.counts.length !== h.quanta * h.rows || h.edges_ns.length !== h.rows + 1) process.exit(1);
' "$TMP/h.json"
check "heatmap json shape" 0 $?
"$BIN" pctiles --format json "$FIX"/local/local_clat_hist.*.log >"$TMP/p.json" 2>/dev/null
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (!r.rows.length) process.exit(1);' "$TMP/p.json"
check "pctiles json parses" 0 $?

[ "$fails" -eq 0 ] || { echo "$fails CLI checks failed"; exit 1; }
echo "all CLI checks passed"
