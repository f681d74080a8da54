#!/bin/sh
# The CLI reads at a glance (issue 30, docs/cli.md):
#   * `latscope --help` lists the commands and points at `latscope CMD --help`;
#     each command's --help / -h is its usage, options and exit status, on
#     stdout, exit 0, with no file read;
#   * every option a command's help names is one the command takes (none is
#     an "unknown option"), and the options the old global help left out are
#     there (summary --compare, hdr's, report --keep);
#   * an option a command would ignore is refused (exit 2), and every option
#     a command's help declares is taken;
#   * --version / -V: "latscope VERSION", VERSION package.json's;
#   * an unknown option or command names the closest known one (2 edits at
#     most), exit 2; a word far from every option gets no guess;
#   * --header-units names the unit in the CSV header (pctiles, heatmap,
#     summary, summary --compare); without it the output is byte for byte
#     what it was, and summary's default unit stays ns.
# usage: help_cli_test.sh path/to/latscope
set -u
BIN=${1:-build/latscope}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FIX="$ROOT/tests/fixtures"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() {  # name expected-rc actual-rc
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: exit $3, expected $2"; fi
}
contains() {  # name file text
  if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: '$3' missing"; cat "$2"; fi
}
lacks() {  # name file text
  if grep -qF -- "$3" "$2"; then bad "$1: '$3' present"; cat "$2"; else ok "$1"; fi
}
first_line() {  # name file expected
  got=$(head -n 1 "$2")
  if [ "$got" = "$3" ]; then ok "$1"; else bad "$1: '$got', expected '$3'"; fi
}
COMMANDS="pctiles summary heatmap hdr reduce merge export report"

# --- Global help ----------------------------------------------------------
"$BIN" --help >"$TMP/out" 2>"$TMP/err"
check "--help exits 0" 0 $?
contains "--help points at per-command help" "$TMP/out" "latscope COMMAND --help"
for c in $COMMANDS; do
  if grep -q "^  $c  " "$TMP/out"; then ok "--help lists $c"; else bad "--help does not list $c"; fi
done
"$BIN" >"$TMP/out" 2>"$TMP/err"
check "no command: usage error" 2 $?
contains "no command: usage on stderr" "$TMP/err" "usage: latscope COMMAND"

# --- Per-command help -----------------------------------------------------
for c in $COMMANDS; do
  for h in --help -h; do
    # A file that does not exist: help reads none.
    "$BIN" "$c" "$TMP/absent.log" "$h" >"$TMP/out" 2>"$TMP/err"
    check "$c $h exits 0" 0 $?
    case "$(head -n 1 "$TMP/out")" in
      "usage: latscope $c "*) ok "$c $h: its usage first" ;;
      *) bad "$c $h: first line '$(head -n 1 "$TMP/out")'" ;;
    esac
    if [ -s "$TMP/err" ]; then bad "$c $h: stderr not empty"; cat "$TMP/err"; else ok "$c $h: nothing on stderr"; fi
  done
  contains "$c --help: exit status" "$TMP/out" "exit status: 0 ok"
done
"$BIN" pctiles -- --help >"$TMP/out" 2>"$TMP/err"
check "pctiles -- --help: a file named --help, not help" 2 $?

"$BIN" pctiles --help >"$TMP/pctiles.help"
contains "pctiles --help: --quantum" "$TMP/pctiles.help" "--quantum MS"
contains "pctiles --help: --sla-summary" "$TMP/pctiles.help" "--sla-summary md F.md"
contains "pctiles --help: --header-units" "$TMP/pctiles.help" "--header-units"
contains "pctiles --help: summary's unit differs" "$TMP/pctiles.help" "(default us; summary's default is ns)"
lacks "pctiles --help: no heatmap --rows" "$TMP/pctiles.help" "--rows"
"$BIN" summary --help >"$TMP/summary.help"
contains "summary --help: --compare" "$TMP/summary.help" "--compare"
contains "summary --help: default ns, said" "$TMP/summary.help" "default ns"
"$BIN" hdr --help >"$TMP/hdr.help"
for o in -csv -tag -listtags -start -end -outputValueUnitRatio -percentilesOutputTicksPerHalf \
  -correctLogWithKnownCoordinatedOmission; do
  contains "hdr --help: $o" "$TMP/hdr.help" "$o"
done
"$BIN" report --help >"$TMP/report.help"
for o in --keep --svg --template --sla-summary; do contains "report --help: $o" "$TMP/report.help" "$o"; done
"$BIN" reduce --help >"$TMP/reduce.help"
for o in --levels --keep "-o OUT"; do contains "reduce --help: $o" "$TMP/reduce.help" "$o"; done
"$BIN" heatmap --help >"$TMP/heatmap.help"
for o in --rows --y --min; do contains "heatmap --help: $o" "$TMP/heatmap.help" "$o"; done
lacks "heatmap --help: no --percentiles" "$TMP/heatmap.help" "--percentiles"

# Every option a help names is taken by its command (the suggestions are
# read from the same text): never "unknown option" / "invalid argument".
for c in $COMMANDS; do
  "$BIN" "$c" --help | grep -oE '(^|[][ |])--?[A-Za-z][A-Za-z0-9-]*=?' | sed 's/^[][ |]//' | grep -v '=$' |
    sort -u >"$TMP/$c.opts"
  [ -s "$TMP/$c.opts" ] || bad "$c --help names no option"
  while read -r o; do
    case $c in
      reduce | merge) set -- -o "$TMP/x.lsr" "$o" ;;
      export) set -- --format tsv -o "$TMP/x.tsv" "$o" ;;
      report) set -- -o "$TMP/x.html" "$o" ;;
      *) set -- "$o" ;;
    esac
    "$BIN" "$c" "$@" </dev/null >/dev/null 2>"$TMP/err"
    if grep -q "unknown option\|invalid argument" "$TMP/err"; then bad "$c takes $o, as its help says"; cat "$TMP/err"; fi
  done <"$TMP/$c.opts"
  ok "$c takes each of its help's $(wc -l <"$TMP/$c.opts") options"
done

# An option a command would ignore is refused (cli_options.cc kAccepted),
# and every option its help declares (the left column of an option line)
# is taken: the parser's table and the helps held to each other.
declared() {  # command -> its help's declared options, one a line
  "$BIN" "$1" --help | awk '/^  -/ { sub(/^  /, ""); split($0, f, /   */); print f[1] }' |
    grep -oE '(^|[ |])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ |]//' | sort -u
}
READERS="pctiles heatmap summary reduce export report"
for c in $READERS; do declared "$c" >"$TMP/$c.declared"; done
cat "$TMP"/*.declared | sort -u >"$TMP/all.declared"
L0="$FIX/fio-s1/s1_clat_hist.1.log.127.0.0.2"
for c in $READERS; do
  refused=0
  while read -r o; do
    case $c in
      reduce) set -- -o "$TMP/x.lsr" ;;
      export) set -- --format tsv -o "$TMP/x.tsv" ;;
      report) set -- -o "$TMP/x.html" ;;
      *) set -- ;;
    esac
    "$BIN" "$c" "$@" "$o" "$TMP/value" "$L0" </dev/null >/dev/null 2>"$TMP/err"
    rc=$?
    if grep -qx -- "$o" "$TMP/$c.declared"; then
      if grep -q "is not an option of" "$TMP/err"; then bad "$c refuses $o, which its help declares"; cat "$TMP/err"; fi
    elif [ $rc -ne 2 ] || ! grep -q "is not an option of $c\|unknown option" "$TMP/err"; then
      bad "$c $o: not in its help, yet not refused (exit $rc)"; cat "$TMP/err"
    else
      refused=$((refused + 1))
    fi
  done <"$TMP/all.declared"
  ok "$c refuses the $refused options of other commands it would ignore"
done
"$BIN" heatmap --method fio "$L0" >/dev/null 2>"$TMP/err"
check "heatmap --method: a usage error" 2 $?
contains "heatmap --method: said" "$TMP/err" \
  "latscope heatmap: --method is not an option of heatmap: it would be ignored (see latscope heatmap --help)"
"$BIN" summary --quantum 5 "$L0" >/dev/null 2>"$TMP/err"
check "summary --quantum: a usage error" 2 $?
"$BIN" pctiles -j2 --percentiles '50, 99' "$L0" >"$TMP/out" 2>/dev/null
first_line "pctiles --percentiles with blanks: the page's list syntax" "$TMP/out" "time_ms,group,samples,min,mean,p50,p99,max,flags"

# --- Version --------------------------------------------------------------
want="latscope $(node -p 'require(process.argv[1]).version' "$ROOT/package.json")"
for v in --version -V; do
  "$BIN" "$v" >"$TMP/out" 2>"$TMP/err"
  check "$v exits 0" 0 $?
  first_line "$v: package.json's version" "$TMP/out" "$want"
done

# --- Did you mean ---------------------------------------------------------
L1="$FIX/local/local_clat_hist.1.log"
"$BIN" pctiles --quantun 1000 "$L1" >"$TMP/out" 2>"$TMP/err"
check "pctiles --quantun: usage error" 2 $?
first_line "pctiles --quantun: did you mean --quantum" "$TMP/err" \
  "latscope pctiles: unknown option --quantun (did you mean --quantum?)"
"$BIN" pctiles --qunatum 1000 "$L1" >"$TMP/out" 2>"$TMP/err"
contains "a swap is one edit" "$TMP/err" "(did you mean --quantum?)"
"$BIN" pctiles --frobnicate "$L1" >"$TMP/out" 2>"$TMP/err"
check "pctiles --frobnicate: usage error" 2 $?
first_line "no close option: no guess" "$TMP/err" \
  "latscope pctiles: unknown option --frobnicate (see latscope pctiles --help)"
"$BIN" heatmap --row 10 "$L1" >"$TMP/out" 2>"$TMP/err"
contains "heatmap --row" "$TMP/err" "latscope heatmap: unknown option --row (did you mean --rows?)"
"$BIN" summary --compre "$L1" >"$TMP/out" 2>"$TMP/err"
check "summary --compre: usage error" 2 $?
contains "summary --compre" "$TMP/err" "latscope summary: unknown option --compre (did you mean --compare?)"
"$BIN" reduce --kep host "$L1" -o "$TMP/x.lsr" >"$TMP/out" 2>"$TMP/err"
check "reduce --kep: usage error" 2 $?
contains "reduce --kep" "$TMP/err" "latscope reduce: unknown option --kep (did you mean --keep?)"
"$BIN" report --tempate x.html "$L1" -o "$TMP/x.html" >"$TMP/out" 2>"$TMP/err"
check "report --tempate: usage error" 2 $?
contains "report --tempate" "$TMP/err" "latscope report: unknown option --tempate (did you mean --template?)"
"$BIN" hdr -cvs -i "$FIX/hdr-processor/double.hlog" >"$TMP/out" 2>"$TMP/err"
check "hdr -cvs: usage error" 2 $?
contains "hdr -cvs" "$TMP/err" "latscope hdr: invalid argument '-cvs' (did you mean -csv?)"
"$BIN" merge --levls 1000 "$TMP/absent.lsr" -o "$TMP/m.lsr" >"$TMP/out" 2>"$TMP/err"
check "merge --levls: unusable" 2 $?
contains "merge --levls: a file it cannot read, and the option meant" "$TMP/err" \
  "latscope merge: --levls: --levls: cannot open: No such file or directory (did you mean --levels?)"
"$BIN" pctile "$L1" >"$TMP/out" 2>"$TMP/err"
check "pctile: usage error" 2 $?
first_line "pctile: did you mean pctiles" "$TMP/err" "latscope: unknown command 'pctile' (did you mean pctiles?)"
"$BIN" --verison >"$TMP/out" 2>"$TMP/err"
check "--verison: usage error" 2 $?
first_line "--verison: did you mean --version" "$TMP/err" "latscope: unknown command '--verison' (did you mean --version?)"
"$BIN" frobnicate "$L1" >"$TMP/out" 2>"$TMP/err"
first_line "far command: no guess" "$TMP/err" "latscope: unknown command 'frobnicate'"

# --- Units in the header (--header-units) ---------------------------------
"$BIN" pctiles "$L1" >"$TMP/plain.csv" 2>/dev/null
"$BIN" pctiles --header-units "$L1" >"$TMP/units.csv" 2>/dev/null
first_line "pctiles: plain header by default" "$TMP/plain.csv" "time_ms,group,samples,min,mean,p50,p90,p99,p99.9,p100,max,flags"
first_line "pctiles --header-units" "$TMP/units.csv" \
  "time_ms,group,samples,min_us,mean_us,p50_us,p90_us,p99_us,p99.9_us,p100_us,max_us,flags"
if [ "$(tail -n +2 "$TMP/plain.csv")" = "$(tail -n +2 "$TMP/units.csv")" ]; then ok "pctiles --header-units: same rows"
else bad "pctiles --header-units changed the rows"; fi
"$BIN" pctiles --header-units --unit ms --bounds --adaptive --percentiles 99 "$L1" >"$TMP/out" 2>/dev/null
first_line "pctiles --header-units --bounds --adaptive" "$TMP/out" \
  "time_ms,width_ms,group,samples,min_ms,mean_ms,p99_ms,p99_lo_ms,p99_hi_ms,max_ms,flags"
"$BIN" pctiles --header-units --format json "$L1" >"$TMP/j1" 2>/dev/null
"$BIN" pctiles --format json "$L1" >"$TMP/j2" 2>/dev/null
if cmp -s "$TMP/j1" "$TMP/j2"; then ok "json: unchanged (it names its unit)"; else bad "json changed by --header-units"; fi
"$BIN" heatmap --header-units "$L1" >"$TMP/out" 2>/dev/null
first_line "heatmap --header-units" "$TMP/out" "time_ms,lat_lo_us,lat_hi_us,count"
"$BIN" heatmap --header-units --y bs "$FIX/fio_lat/fl_clat.1.log" >"$TMP/out" 2>/dev/null
first_line "heatmap --y bs --header-units: bytes" "$TMP/out" "time_ms,bs_lo_bytes,bs_hi_bytes,count"
"$BIN" summary --percentiles 50 "$L1" >"$TMP/out" 2>/dev/null
first_line "summary: plain header by default" "$TMP/out" "file,host,job,dir,samples,min,mean,max,p50"
"$BIN" summary --header-units --percentiles 50 "$L1" >"$TMP/out" 2>/dev/null
first_line "summary --header-units: ns by default" "$TMP/out" "file,host,job,dir,samples,min_ns,mean_ns,max_ns,p50_ns"
AB="$FIX/ab"
"$BIN" summary --compare --unit us --percentiles 50 "$AB"/a/* "$AB"/b/* >"$TMP/cmp.csv" 2>/dev/null
"$BIN" summary --compare --header-units --unit us --percentiles 50 "$AB"/a/* "$AB"/b/* >"$TMP/cmpu.csv" 2>/dev/null
if [ "$(sed 's/^\([a-z]*\),\(min\|mean\|max\|p50\),/\1,\2_us,/' "$TMP/cmp.csv")" = "$(cat "$TMP/cmpu.csv")" ] &&
  grep -q '^read,samples,' "$TMP/cmpu.csv" && grep -q '^read,p50_us,' "$TMP/cmpu.csv"; then
  ok "summary --compare --header-units: the unit in each statistic, samples plain"
else
  bad "summary --compare --header-units"; diff "$TMP/cmp.csv" "$TMP/cmpu.csv" | head
fi

[ "$fails" -eq 0 ] || { echo "$fails help/version/units checks failed"; exit 1; }
echo "all help/version/units checks passed"
