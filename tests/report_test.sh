#!/bin/sh
# CI reports (docs/ci-reports.md) at the process level: --sla exit codes and
# stderr, the CSV left unchanged, the Markdown verdict, `latscope report`'s
# page (a stand-in template with the marker; the real page is tested by the
# page's e2e tests), its embedded result read back by `pctiles`, hostile
# names, and the SVG charts parsed by a real XML parser.
#   tests/report_test.sh path/to/latscope
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
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: lacks '$3'"; cat "$2"; fails=$((fails + 1)); fi
}
lacks() {  # name file text
  if grep -qF -- "$3" "$2"; then echo "FAIL $1: has '$3'"; fails=$((fails + 1)); else echo "ok   $1"; fi
}
same() {  # name a b
  if cmp -s "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1: $2 and $3 differ"; fails=$((fails + 1)); fi
}
L="$FIX/local/local_clat_hist.1.log $FIX/local/local_clat_hist.2.log"

# --- --sla on pctiles -------------------------------------------------------
# shellcheck disable=SC2086
"$BIN" pctiles $L >"$TMP/plain.csv" 2>/dev/null
# shellcheck disable=SC2086
"$BIN" pctiles --sla 'p99<=5ms,p99.9<=20ms' $L >"$TMP/out" 2>"$TMP/err"
check "SLA met exits 0" 0 $?
same "SLA leaves the CSV unchanged" "$TMP/out" "$TMP/plain.csv"
contains "SLA met: per-rule count" "$TMP/err" "p99<=5ms: 0 of 10 quanta violated (0%)"
contains "SLA met: verdict" "$TMP/err" "SLA passed"
# p99 above 300 us in 6 of the 10 one-second quanta (the CSV's p99 column says which).
# shellcheck disable=SC2086
"$BIN" pctiles --percentiles 50 --sla 'p99<=300us' --sla-summary md "$TMP/verdict.md" $L >"$TMP/out" 2>"$TMP/err"
check "SLA violated exits 3" 3 $?
# shellcheck disable=SC2086
"$BIN" pctiles --percentiles 50 $L >"$TMP/p50.csv" 2>/dev/null
same "SLA percentile not requested: not in the CSV" "$TMP/out" "$TMP/p50.csv"
expected=$(awk -F, 'NR > 1 && $8 != "" && $8 > 300 { n++ } END { print n + 0 }' "$TMP/plain.csv")
contains "SLA violated: count per rule agrees with the CSV" "$TMP/err" "p99<=300us: $expected of 10 quanta violated"
contains "SLA violated: an interval listed" "$TMP/err" "SLA p99<=300us violated: 1000 ms, all: p99 = 327.609212 us > 300 us"
contains "SLA violated: few-sample quantum marked" "$TMP/err" "(few samples for p99)"
contains "Markdown verdict: title" "$TMP/verdict.md" "## latscope SLA: FAIL"
contains "Markdown verdict: table row" "$TMP/verdict.md" "| \`p99<=300us\` | FAIL | $expected of 10 quanta ("
# shellcheck disable=SC2086
"$BIN" pctiles --sla 'p99<=5' $L >"$TMP/out" 2>"$TMP/err"
check "SLA without a unit exits 2" 2 $?
contains "SLA without a unit: the units named" "$TMP/err" "the threshold needs a unit: ns, us, ms or s"
# shellcheck disable=SC2086
"$BIN" pctiles --sla 'p99<=5ms' --sla-summary md $L >"$TMP/out" 2>"$TMP/err"
check "pctiles --sla-summary md without FILE exits 2 (stdout is the CSV)" 2 $?
# Listing capped per rule: every one of the 19 half-second quanta violates; 10 listed.
# shellcheck disable=SC2086
"$BIN" pctiles --quantum 500 --sla 'p90<1ns' $L >"$TMP/out" 2>"$TMP/err"
check "SLA over every quantum exits 3" 3 $?
contains "SLA listing capped" "$TMP/err" "SLA ... 9 more"
contains "SLA: all violated" "$TMP/err" "p90<1ns: 19 of 19 quanta violated (100%)"

# A gate that sees no distribution fails: fio log_avg_msec logs hold window averages only.
"$BIN" pctiles --sla 'p99<=1s' "$FIX/fio_lat/avg_clat.1.log" >"$TMP/out" 2>"$TMP/err"
check "SLA with nothing to judge exits 3" 3 $?
contains "SLA with nothing to judge: said" "$TMP/err" "p99<=1s: 0 of 0 quanta violated (0%); no quantum has samples to judge: the rule fails"

# --- latscope report --------------------------------------------------------
cp "$FIX/report/stand-in.html" "$TMP/tpl.html"
# shellcheck disable=SC2086
"$BIN" reduce --quantum 1000 $L -o "$TMP/ref.lsr" 2>/dev/null
# shellcheck disable=SC2086
"$BIN" report --quantum 1000 $L -o "$TMP/r.html" --template "$TMP/tpl.html" 2>"$TMP/err"
check "report exits 0" 0 $?
lacks "report: marker's null replaced" "$TMP/r.html" 'id="latscope-data">null<'
python3 - "$TMP/r.html" "$TMP/embedded.lsr" <<'PY'
import base64, json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.fullmatch(r'<!doctype html>\n<html><body>\n(<div id="latscope-static".*?</div>)\n<script type="application/json" id="latscope-data">(.*)</script>\n</body></html>\n', html, re.S)
# The static layer (docs/ci-reports.md, "The static layer"): both charts inline, no script, no style.
static = m.group(1)
assert static.count("<svg ") == 2 and 'class="cell"' in static and 'class="series"' in static, static[:400]
assert "<script" not in static and "style" not in static and "<?xml" not in static, static[:400]
data = json.loads(m.group(2))
assert data["version"] == 1 and data["view"] == {} and data["name"] == "local_clat_hist.1.log (+1 more)", data
open(sys.argv[2], "wb").write(base64.b64decode(data["result"], validate=True))
PY
check "report: data block is the contract's JSON" 0 $?
same "report: embedded result == reduce's" "$TMP/embedded.lsr" "$TMP/ref.lsr"
"$BIN" pctiles "$TMP/embedded.lsr" >"$TMP/a.csv" 2>/dev/null
"$BIN" pctiles "$TMP/ref.lsr" >"$TMP/b.csv" 2>/dev/null
same "report: pctiles of the embedded result == of the reduced result" "$TMP/a.csv" "$TMP/b.csv"

# Without --quantum: the quantum the page opens the logs at (docs/page-views.md,
# "Default quantum"): 500 ms for log_hist_msec=500, 1 s for fio's 1 s logs.
embedded() {  # report.html out.lsr
  python3 - "$1" "$2" <<'PY'
import base64, json, re, sys
m = re.search(r'id="latscope-data">(.*)</script>', open(sys.argv[1], encoding="utf-8").read(), re.S)
open(sys.argv[2], "wb").write(base64.b64decode(json.loads(m.group(1))["result"], validate=True))
PY
}
P="$FIX/place/place_clat_hist.1.log $FIX/place/place_clat_hist.2.log"
# shellcheck disable=SC2086
"$BIN" report $P -o "$TMP/p.html" --template "$TMP/tpl.html" 2>"$TMP/err"
check "report without --quantum on 500 ms logs exits 0" 0 $?
contains "report without --quantum: the logs' interval said" "$TMP/err" "note: quantum 500 ms, the logs' interval"
embedded "$TMP/p.html" "$TMP/p.lsr"
# shellcheck disable=SC2086
"$BIN" reduce --quantum 500 $P -o "$TMP/p500.lsr" 2>/dev/null
same "report without --quantum on 500 ms logs: the result of reduce --quantum 500" "$TMP/p.lsr" "$TMP/p500.lsr"
# Each input is read once, so standard input too gets the logs' interval.
"$BIN" report - -o "$TMP/s.html" --template "$TMP/tpl.html" <"$FIX/place/place_clat_hist.1.log" 2>"$TMP/err"
contains "report without --quantum from standard input: the logs' interval said" "$TMP/err" "note: quantum 500 ms, the logs' interval"
embedded "$TMP/s.html" "$TMP/s.lsr"
"$BIN" reduce --quantum 500 "$FIX/place/place_clat_hist.1.log" -o "$TMP/s500.lsr" 2>/dev/null
"$BIN" pctiles "$TMP/s.lsr" >"$TMP/s.csv" 2>/dev/null
"$BIN" pctiles "$TMP/s500.lsr" >"$TMP/s500.csv" 2>/dev/null
same "report without --quantum from standard input: the numbers of reduce --quantum 500" "$TMP/s.csv" "$TMP/s500.csv"
# shellcheck disable=SC2086
"$BIN" report $L -o "$TMP/l.html" --template "$TMP/tpl.html" 2>"$TMP/err"
lacks "report without --quantum on 1 s logs: no note" "$TMP/err" "note: quantum"
embedded "$TMP/l.html" "$TMP/l.lsr"
same "report without --quantum on 1 s logs: the result of reduce --quantum 1000" "$TMP/l.lsr" "$TMP/ref.lsr"

# The page opens grouped as the verdict was judged: --group-by into the view.
# shellcheck disable=SC2086
"$BIN" report --quantum 1000 $L -o "$TMP/g.html" --template "$TMP/tpl.html" --group-by host,dir --sla 'p99<=5ms' 2>/dev/null
contains "report: --group-by and --sla in the page's view" "$TMP/g.html" '"view":{"sla":"p99\u003c=5ms","group_by":"host,dir"}'

# Hostile names stay text: escaped in the page, the Markdown and the SVG.
evil='<img src=x onerror=alert(1)>_clat_hist.1.log'
cp "$FIX/local/local_clat_hist.1.log" "$TMP/$evil"
"$BIN" report "$TMP/$evil" -o "$TMP/evil.html" --template "$TMP/tpl.html" --svg "$TMP/svg-evil" \
  --sla 'p99<=300us' --sla-summary md --group-by file >"$TMP/evil.md" 2>"$TMP/err"
check "report with a violated SLA exits 3" 3 $?
lacks "hostile name: no raw tag in the page" "$TMP/evil.html" "<img"
lacks "hostile name: no raw tag in the Markdown" "$TMP/evil.md" "<img"
contains "hostile name: Markdown escaped" "$TMP/evil.md" "&lt;img src=x onerror=alert\\(1\\)&gt;"
python3 - "$TMP/evil.html" "$evil" <<'PY'
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="latscope-data">(.*?)</script>', html, re.S)
assert json.loads(m.group(1))["name"] == sys.argv[2]
PY
check "hostile name: the page's JSON gives the name back" 0 $?
for f in pctiles heatmap; do
  python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/svg-evil/$f.svg"
  check "$f.svg parses as XML (hostile name)" 0 $?
  lacks "$f.svg: no raw tag" "$TMP/svg-evil/$f.svg" "<img"
  lacks "$f.svg: no script" "$TMP/svg-evil/$f.svg" "<script"
done
python3 - "$TMP/svg-evil/pctiles.svg" "$evil" <<'PY'
import sys, xml.etree.ElementTree as E
texts = "".join(E.parse(sys.argv[1]).getroot().itertext())
assert sys.argv[2] in texts, texts[:300]
PY
check "pctiles.svg: the hostile name reads back as text" 0 $?

# SVG contents: one path per percentile x group, one cell per non-empty
# heat-map count of the same result (`latscope heatmap` lists those).
"$BIN" report "$FIX"/fio-s1/s1_clat_hist.* -o "$TMP/s1.html" --template "$TMP/tpl.html" --svg "$TMP/svg" \
  --group-by host --percentiles 50,99 --sla 'p99<=2ms,p99.9<=5ms' >/dev/null 2>"$TMP/err"
check "report on the client/server run: SLA violated" 3 $?
"$BIN" reduce "$FIX"/fio-s1/s1_clat_hist.* -o "$TMP/s1.lsr" 2>/dev/null
"$BIN" heatmap "$TMP/s1.lsr" >"$TMP/s1-heat.csv" 2>/dev/null
"$BIN" pctiles --group-by host --percentiles 50,99,99.9 "$TMP/s1.lsr" >"$TMP/s1.csv" 2>/dev/null
python3 - "$TMP/svg" "$TMP/s1-heat.csv" "$TMP/s1.csv" <<'PY'
import csv, sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
p = E.parse(sys.argv[1] + "/pctiles.svg").getroot()
h = E.parse(sys.argv[1] + "/heatmap.svg").getroot()
series = [e for e in p.iter(ns + "path") if e.get("class") == "series"]
assert len(series) == 3 * 2, len(series)  # p50, p99 and the SLA's p99.9, x 2 hosts
thresholds = [e for e in p.iter(ns + "line") if e.get("class") == "threshold"]
assert len(thresholds) == 2, len(thresholds)
rows = list(csv.DictReader(open(sys.argv[3])))
bad = {r["time_ms"] for r in rows if r["p99"] and (float(r["p99"]) > 2000 or float(r["p99.9"]) > 5000)}
shaded = [e for e in p.iter(ns + "rect") if e.get("class") == "violation"]
assert len(shaded) == len(bad) > 0, (len(shaded), sorted(bad))
cells = [e for e in h.iter(ns + "rect") if e.get("class") == "cell"]
expected = sum(1 for _ in open(sys.argv[2])) - 1
assert len(cells) == expected, (len(cells), expected)
assert not any(e.tag in (ns + "script", ns + "foreignObject", ns + "image") for e in list(p.iter()) + list(h.iter()))
for e in list(p.iter()) + list(h.iter()):
    for k, v in e.attrib.items():
        assert "href" not in k and not k.startswith("on"), (e.tag, k)
PY
check "SVG: series, thresholds, shaded quanta and heat-map cells as expected" 0 $?

# No template: a clear message, exit 2, nothing written.
"$BIN" report "$FIX/local/local_clat_hist.1.log" -o "$TMP/none.html" --template "$TMP/missing.html" >/dev/null 2>"$TMP/err"
check "report without a template exits 2" 2 $?
contains "no template: what to do" "$TMP/err" "run \`npm run build\` to make web/dist/latscope.html, or pass --template FILE"
if [ -e "$TMP/none.html" ]; then echo "FAIL no template: a page was written"; fails=$((fails + 1)); else echo "ok   no template: nothing written"; fi
LATSCOPE_REPORT_TEMPLATE="$TMP/tpl.html" "$BIN" report "$FIX/local/local_clat_hist.1.log" -o "$TMP/env.html" 2>/dev/null
check "template from LATSCOPE_REPORT_TEMPLATE" 0 $?
printf '<html></html>\n' >"$TMP/nomarker.html"
"$BIN" report "$FIX/local/local_clat_hist.1.log" -o "$TMP/nm.html" --template "$TMP/nomarker.html" >/dev/null 2>"$TMP/err"
check "template without the markers exits 2" 2 $?
contains "template without the markers: said" "$TMP/err" "the template has no <div id=\"latscope-static\"></div>"
printf '<html><div id="latscope-static"></div></html>\n' >"$TMP/nomarker.html"
"$BIN" report "$FIX/local/local_clat_hist.1.log" -o "$TMP/nm.html" --template "$TMP/nomarker.html" >/dev/null 2>"$TMP/err"
check "template without the data marker exits 2" 2 $?
contains "template without the data marker: said" "$TMP/err" "the template has no <script type=\"application/json\" id=\"latscope-data\">null</script>"

[ "$fails" -eq 0 ] || { echo "$fails report checks failed"; exit 1; }
echo "all report checks passed"
