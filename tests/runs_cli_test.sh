#!/bin/sh
# Runs and A/B comparison at the process level (docs/runs.md), on two real
# fio 3.33 runs (tests/fixtures/ab: a = 4 KiB reads, b = 128 KiB reads):
#   * summary --compare: each run's column equals `summary` on that run
#     alone, number for number (json+ runs and logs-only runs); the change is
#     there (b's p50 well above a's);
#   * runs found by folder+json+, by json+ alone (all files in one folder),
#     by colliding log names (logs in one folder), by --run NAME=GLOB;
#   * pctiles: a warning naming both runs and their files when they are
#     merged; --group-by run separates them, each group equal to pctiles of
#     that run alone; no warning for one run or with --run-by none;
#   * reduce keeps the run label (result file grouped by run again); TSV
#     export has a run column.
# usage: runs_cli_test.sh path/to/latscope
set -u
BIN=$(cd "$(dirname "${1:-build/latscope}")" && pwd)/$(basename "${1:-build/latscope}")
FIX=$(cd "$(dirname "$0")/fixtures/ab" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
contains() {  # name file text
  if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: '$3' missing"; cat "$2"; fi
}
lacks() {  # name file text
  if grep -qF -- "$3" "$2"; then bad "$1: '$3' present"; cat "$2"; else ok "$1"; fi
}
same() {  # name file1 file2
  if cmp -s "$2" "$3"; then ok "$1"; else bad "$1"; diff "$2" "$3" | head -20; fi
}
cd "$FIX" || exit 1
PS=50,90,99,99.9

# --- summary --compare == summary per run --------------------------------
# Column 3 (a) and 4 (b) of the compare table against the row of `summary`
# on each run alone, stat by stat (header names select the columns).
column_of() {  # summary.csv stat -> the value in that stat's column of row 2
  awk -F, -v s="$2" 'NR==1{for(i=1;i<=NF;i++) if($i==s) c=i} NR==2{print $c}' "$1"
}
compare_equals_alone() {  # name compare.csv a.csv b.csv
  n=0
  for stat in samples min mean max p50 p90 p99 p99.9; do
    for side in 3 4; do
      want=$(column_of "$([ $side = 3 ] && echo "$3" || echo "$4")" "$stat")
      got=$(awk -F, -v s="$stat" -v c=$side '$2==s{print $c}' "$2")
      if [ "$want" != "$got" ] || [ -z "$got" ]; then bad "$1: $stat column $side: $got, alone $want"; n=1; fi
    done
  done
  [ $n = 0 ] && ok "$1"
}
"$BIN" summary --unit us --percentiles $PS --compare a/a.json a/a_clat_hist.1.log b/b.json b/b_clat_hist.1.log \
  >"$TMP/cmp.csv" 2>"$TMP/cmp.err" || bad "summary --compare exit $?"
"$BIN" summary --unit us --percentiles $PS a/a.json >"$TMP/a.csv" 2>/dev/null
"$BIN" summary --unit us --percentiles $PS b/b.json >"$TMP/b.csv" 2>/dev/null
compare_equals_alone "compare (json+) == summary of each run's json+" "$TMP/cmp.csv" "$TMP/a.csv" "$TMP/b.csv"
contains "compare header names the runs" "$TMP/cmp.csv" "dir,stat,a,b,change_pct,a_lo,a_hi,b_lo,b_hi,note"
contains "runs found from their json+" "$TMP/cmp.err" "run a (json+ a/a.json)"
# The whole folder, job file and script included: those are no logs and form no run.
"$BIN" summary --unit us --percentiles $PS --compare a/* b/* ab.fio make_ab.sh >"$TMP/cmp2.csv" 2>"$TMP/cmp2.err" ||
  { bad "summary --compare on the whole folder exit $?"; cat "$TMP/cmp2.err"; }
cmp -s "$TMP/cmp.csv" "$TMP/cmp2.csv" && ok "a job file and a script beside the runs change nothing" || bad "the folder's other files changed the compare table"
# The known difference: 128 KiB reads take longer than 4 KiB ones, beyond
# one bin and the sampling bands (no note), p50 up by more than 20%.
awk -F, '$2=="p50" { found = ($5 > 20 && $10 == "") } END { exit !found }' "$TMP/cmp.csv" && ok "p50 change > 20%, no note" ||
  { bad "p50 change"; cat "$TMP/cmp.csv"; }
# change_pct is (b - a) / a in %, to 0.01.
awk -F, '$2=="p50" { d = ($4 - $3) / $3 * 100 - $5; found = (d < 0.006 && d > -0.006) } END { exit !found }' "$TMP/cmp.csv" &&
  ok "change_pct = (b - a) / a" || bad "change_pct"
# A statistic compared with itself: 0% and within one bin.
"$BIN" summary --unit us --percentiles $PS --run x=a/a.json --run y=a/a.json a/a.json >"$TMP/self.csv" 2>"$TMP/err"
grep -q "needs two runs" "$TMP/err" && ok "one file cannot be two runs" || bad "self compare"
mkdir -p "$TMP/x" "$TMP/y" && cp a/a.json "$TMP/x/" && cp a/a.json "$TMP/y/"
"$BIN" summary --unit us --percentiles $PS --compare "$TMP/x/a.json" "$TMP/y/a.json" >"$TMP/self.csv" 2>/dev/null
awk -F, 'NR>1 && $2 ~ /^p/ { n++; if ($5 != "0" || $10 !~ /^within bin width/) bad=1 } END { exit bad || n != 4 }' "$TMP/self.csv" &&
  ok "same run twice: 0%, within bin width" || { bad "same run twice"; cat "$TMP/self.csv"; }
contains "two json+ named alike: runs named by folder" "$TMP/self.csv" "dir,stat,x,y,"

# Logs only (no json+): from the summed logs, equal to summary of each log.
"$BIN" summary --unit us --percentiles $PS --run-by folder a/a_clat_hist.1.log b/b_clat_hist.1.log \
  >"$TMP/cmpl.csv" 2>"$TMP/cmpl.err"
"$BIN" summary --unit us --percentiles $PS a/a_clat_hist.1.log >"$TMP/al.csv" 2>/dev/null
"$BIN" summary --unit us --percentiles $PS b/b_clat_hist.1.log >"$TMP/bl.csv" 2>/dev/null
compare_equals_alone "compare (logs, --run-by folder) == summary of each log" "$TMP/cmpl.csv" "$TMP/al.csv" "$TMP/bl.csv"
contains "logs-only runs say what they lack" "$TMP/cmpl.err" "fio never logs a job's last, partial window"

# JSON: the same numbers as the CSV.
"$BIN" summary --unit us --percentiles $PS --compare --format json a/* b/* >"$TMP/cmp.json" 2>/dev/null
node -e '
const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const csv = require("fs").readFileSync(process.argv[2], "utf8").trim().split("\n").slice(1).map(l => l.split(","));
const rows = j.dirs[0].rows;
let bad = j.runs.map(r => r.name).join() !== "a,b" || rows.length !== csv.length;
rows.forEach((r, i) => { if (String(r.values[0]) !== csv[i][2] || String(r.values[1]) !== csv[i][3]) bad = true; });
process.exit(bad ? 1 : 0);' "$TMP/cmp.json" "$TMP/cmp.csv" && ok "--format json: the CSV's values" || bad "json compare"

# --- detection ----------------------------------------------------------
# One folder holding both runs: json+ outputs name their logs' prefixes.
mkdir -p "$TMP/flat" && cp a/* b/* "$TMP/flat/"
"$BIN" summary --compare "$TMP/flat/a_clat_hist.1.log" "$TMP/flat/b.json" "$TMP/flat/a.json" \
  "$TMP/flat/b_clat_hist.1.log" >/dev/null 2>"$TMP/flat.err"
contains "one folder: runs by json+ (a)" "$TMP/flat.err" "run a (json+ $TMP/flat/a.json)"
contains "one folder: runs by json+ (b)" "$TMP/flat.err" "run b (json+ $TMP/flat/b.json)"
# Logs alone in one folder: the same log name (job 1) twice is two runs.
"$BIN" pctiles "$TMP/flat/a_clat_hist.1.log" "$TMP/flat/b_clat_hist.1.log" >/dev/null 2>"$TMP/names.err"
contains "logs alone: colliding names are two runs" "$TMP/names.err" \
  "2 runs: a ($TMP/flat/a_clat_hist.1.log); b ($TMP/flat/b_clat_hist.1.log)"
contains "logs alone: the evidence" "$TMP/names.err" "are the same log: one fio run writes it once"
# --run NAME=GLOB
"$BIN" summary --run old='a/*' --run new='b/*' a/a.json b/b.json >"$TMP/glob.csv" 2>"$TMP/glob.err"
contains "--run NAME=GLOB names the runs" "$TMP/glob.csv" "dir,stat,old,new,"

# --- pctiles: warning, --group-by run ------------------------------------
"$BIN" pctiles --percentiles $PS a/a.json a/a_clat_hist.1.log b/b.json b/b_clat_hist.1.log >"$TMP/mixed.csv" 2>"$TMP/mixed.err"
contains "merged runs: warning" "$TMP/mixed.err" "latscope pctiles: warning: the inputs look like 2 runs: a (a/a.json, a/a_clat_hist.1.log); b (b/b.json, b/b_clat_hist.1.log); merged here"
contains "merged runs: the evidence" "$TMP/mixed.err" "2 fio json outputs (a/a.json, b/b.json): fio writes one per run"
"$BIN" pctiles --percentiles $PS --group-by run a/a.json a/a_clat_hist.1.log b/b.json b/b_clat_hist.1.log \
  >"$TMP/grouped.csv" 2>"$TMP/grouped.err"
lacks "--group-by run: no warning" "$TMP/grouped.err" "warning"
for r in a b; do
  "$BIN" pctiles --percentiles $PS $r/$r.json $r/${r}_clat_hist.1.log 2>"$TMP/one.err" |
    sed "s/,all,/,run=$r,/" >"$TMP/alone.$r.csv"
  lacks "one run ($r): no warning" "$TMP/one.err" "warning"
  { head -1 "$TMP/grouped.csv"; grep ",run=$r," "$TMP/grouped.csv"; } >"$TMP/group.$r.csv"
  same "--group-by run: run $r == pctiles of run $r alone (json+ tail included)" "$TMP/group.$r.csv" "$TMP/alone.$r.csv"
done
"$BIN" pctiles --run-by none a/* b/* >/dev/null 2>"$TMP/none.err"
lacks "--run-by none: no warning" "$TMP/none.err" "warning"

# --- result files and TSV keep the run ------------------------------------
"$BIN" reduce a/* b/* -o "$TMP/ab.lsr" 2>"$TMP/reduce.err"
lacks "reduce (all labels kept): no warning" "$TMP/reduce.err" "warning"
"$BIN" pctiles --percentiles $PS --group-by run "$TMP/ab.lsr" >"$TMP/lsr.csv" 2>/dev/null
contains "result file grouped by run (a)" "$TMP/lsr.csv" ",run=a,"
contains "result file grouped by run (b)" "$TMP/lsr.csv" ",run=b,"
"$BIN" reduce --keep dir a/* b/* -o "$TMP/merged.lsr" 2>"$TMP/reduce2.err"
contains "reduce --keep without run: warning" "$TMP/reduce2.err" "--keep run keeps them apart"
"$BIN" export --format tsv a/* b/* -o "$TMP/ab.tsv" 2>/dev/null
head -1 "$TMP/ab.tsv" | tr '\t' '\n' | grep -qx run && ok "TSV export: a run column" || { bad "TSV run column"; head -1 "$TMP/ab.tsv"; }

[ "$fails" = 0 ] && echo "all runs CLI tests passed" || echo "$fails failed"
[ "$fails" = 0 ]
