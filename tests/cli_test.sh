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
check "empty fio log exits 0 (fio leaves empty slat logs)" 0 $?
contains "empty fio log named as ignored" "$TMP/err" "empty_clat_hist.1.log: ignored (empty fio log: fio logged nothing in it"

# Empty files beside a run's logs (a redirect not yet written, an empty
# notes file) are no data: they form no run of their own and raise no
# "several runs" warning (the page's Engine::assign_runs leaves them out too).
mkdir -p "$TMP/with-empty" && cp "$FIX"/local/local_clat_hist.*.log "$FIX"/local/local.json "$TMP/with-empty/"
: >"$TMP/with-empty/notes.txt"
: >"$TMP/with-empty/fio.err"
"$BIN" pctiles "$TMP/with-empty" >"$TMP/out" 2>"$TMP/err"
check "empty files beside a run exit 0" 0 $?
if grep -q "look like" "$TMP/err"; then echo "FAIL empty files formed a run"; cat "$TMP/err"; fails=$((fails + 1)); else echo "ok   empty files form no run"; fi

# A results folder passed on as a tarball: named with what to run, never
# read as one log of every member's lines; beside its own files it adds
# nothing (docs/input-robustness.md, "Archives").
tar -czf "$TMP/with-empty.tar.gz" -C "$TMP" with-empty
"$BIN" pctiles "$TMP/with-empty.tar.gz" >"$TMP/out" 2>"$TMP/err"
check "a tarball alone exits 0" 0 $?
contains "a tarball is named with what to run" "$TMP/err" "with-empty.tar.gz: ignored (tar archive: latscope reads the files in it, not the archive; extract it (tar -xf with-empty.tar.gz) and give its folder)"
"$BIN" pctiles "$TMP/with-empty" >"$TMP/out.folder" 2>/dev/null
cp "$TMP/with-empty.tar.gz" "$TMP/with-empty/"
"$BIN" pctiles "$TMP/with-empty" >"$TMP/out" 2>/dev/null
if cmp -s "$TMP/out" "$TMP/out.folder"; then echo "ok   a tarball beside its files adds nothing"; else echo "FAIL a tarball beside its files changed the rows"; fails=$((fails + 1)); fi

# A log beside its gzip copy (gzip -k): the copy is named and left out, the
# rows are the folder's without it, and no second run is seen (docs/folders.md,
# "gzip copies"). tests/fixtures/gz holds gzip -9 -n of local's histogram logs.
mkdir -p "$TMP/copies" && cp "$FIX"/local/local* "$FIX"/gz/*.gz "$TMP/copies/"
"$BIN" pctiles "$FIX/local" >"$TMP/out.folder" 2>/dev/null
"$BIN" pctiles "$TMP/copies" >"$TMP/out" 2>"$TMP/err"
check "a folder with gzip copies exits 0" 0 $?
contains "a gzip copy is named" "$TMP/err" "copies/local_clat_hist.1.log.gz: not added: a gzip copy of local_clat_hist.1.log (the same text at its start), which is used"
if cmp -s "$TMP/out" "$TMP/out.folder"; then echo "ok   gzip copies add nothing"; else echo "FAIL gzip copies changed the rows"; fails=$((fails + 1)); fi
if grep -q "look like" "$TMP/err"; then echo "FAIL a gzip copy formed a run"; cat "$TMP/err"; fails=$((fails + 1)); else echo "ok   gzip copies form no run"; fi
"$BIN" pctiles --group-by account "$FIX/local" >"$TMP/out.folder" 2>/dev/null
"$BIN" pctiles --group-by account "$TMP/copies" >"$TMP/out" 2>/dev/null
if cmp -s "$TMP/out" "$TMP/out.folder"; then echo "ok   gzip copies add nothing by account"; else echo "FAIL gzip copies changed the rows by account"; fails=$((fails + 1)); fi

# The run's json+ beside its gzip copy: one run still, its tails added and
# fio's count taken once (with the histogram logs chosen, which json+ completes).
mkdir -p "$TMP/json-copy" && cp "$FIX"/folders/all-kinds/* "$TMP/json-copy/" && gzip -k -n "$TMP/json-copy/all-kinds.json"
"$BIN" pctiles --account hist "$FIX/folders/all-kinds" >"$TMP/out.folder" 2>"$TMP/err.folder"
"$BIN" pctiles --account hist "$TMP/json-copy" >"$TMP/out" 2>"$TMP/err"
check "a json+ beside its gzip copy exits 0" 0 $?
contains "the json+ copy is named" "$TMP/err" "json-copy/all-kinds.json.gz: not added: a gzip copy of all-kinds.json (the same text at its start), which is used"
if cmp -s "$TMP/out" "$TMP/out.folder"; then echo "ok   a json+ copy adds nothing"; else echo "FAIL a json+ copy changed the rows"; fails=$((fails + 1)); fi
if grep -q "look like" "$TMP/err"; then echo "FAIL a json+ copy formed a run"; cat "$TMP/err"; fails=$((fails + 1)); else echo "ok   a json+ copy forms no run"; fi
(cd "$FIX/folders/all-kinds" && "$BIN" summary .) >"$TMP/out.folder" 2>/dev/null
(cd "$TMP/json-copy" && "$BIN" summary .) >"$TMP/out.summary" 2>/dev/null
if cmp -s "$TMP/out.summary" "$TMP/out.folder"; then echo "ok   summary lists no gzip copy"; else echo "FAIL summary listed a gzip copy"; fails=$((fails + 1)); fi
if [ "$(grep "trust:" "$TMP/err")" = "$(grep "trust:" "$TMP/err.folder")" ]; then echo "ok   a json+ copy leaves the trust line as it was"; else echo "FAIL a json+ copy changed the trust line"; grep "trust:" "$TMP/err" "$TMP/err.folder"; fails=$((fails + 1)); fi

# YCSB's HdrHistogram logs hold microseconds, which their header says
# (docs/formats-hdr.md, "Units"); --hdr-unit still wins.
"$BIN" summary "$FIX/ycsb/READ.hdr" >"$TMP/out" 2>"$TMP/err"
check "a YCSB log exits 0" 0 $?
contains "the YCSB unit is named" "$TMP/err" "hdr-unit-from-writer x1"
contains "a YCSB log's max is in us" "$TMP/out" ",3334000,"
"$BIN" summary --hdr-unit ns "$FIX/ycsb/READ.hdr" >"$TMP/out" 2>/dev/null
contains "--hdr-unit ns reads a YCSB log as ns" "$TMP/out" ",3334,"

# Short of fio's count within the unlogged last windows: the trust line says
# where the rest is, and why json+ could not give it back (group_reporting:
# real fio 3.33 run, 3 jobs of one group, histogram logs chosen).
"$BIN" pctiles --quantum 1000000 --account hist "$FIX/folders/grouped" >"$TMP/out" 2>"$TMP/err"
check "group_reporting with histogram logs exits 0 (not doubtful)" 0 $?
contains "the trust line names the unlogged windows" "$TMP/err" "hold 2,262 of the 2,701 I/Os fio counted; the other 439 fit in the logs' last, unlogged windows (fio counted groups of jobs, group_reporting: no job's own count to add them from)"
"$BIN" pctiles --quantum 1000000 "$FIX/folders/grouped" >"$TMP/out" 2>"$TMP/err"
contains "per-I/O logs hold every I/O: nothing to explain" "$TMP/err" "hold 2,701 of the 2,701 I/Os fio counted"
if grep -q "unlogged windows" "$TMP/err"; then echo "FAIL unlogged windows named with nothing missing"; fails=$((fails + 1)); else echo "ok   no unlogged windows named when nothing is missing"; fi

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

# --- Hostile input (docs/input-robustness.md) ---------------------------
lacks() {  # name file text: the file must not contain text
  if grep -qF -- "$3" "$2"; then echo "FAIL $1: has '$3'"; fails=$((fails + 1)); else echo "ok   $1"; fi
}
same() {  # name a b
  if cmp -s "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1: $2 and $3 differ"; fails=$((fails + 1)); fi
}
L1="$FIX/local/local_clat_hist.1.log"
"$BIN" pctiles "$L1" >"$TMP/ref.csv" 2>/dev/null

# gzip: members one after another (cat a.gz b.gz, as pigz/bgzip write) are one text.
head -n 9 "$L1" | gzip -c >"$TMP/m1.gz"
tail -n +10 "$L1" | gzip -c >"$TMP/m2.gz"
cat "$TMP/m1.gz" "$TMP/m2.gz" >"$TMP/multi_clat_hist.1.log.gz"
"$BIN" pctiles "$TMP/multi_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "multi-member gzip exits 0" 0 $?
same "multi-member gzip == plain" "$TMP/out" "$TMP/ref.csv"
gzip -c "$L1" >"$TMP/full.gz"
size=$(wc -c <"$TMP/full.gz")
# A cut trailer: all text there, unverified -> used, said, exit 1.
head -c $((size - 4)) "$TMP/full.gz" >"$TMP/cut_clat_hist.1.log.gz"
"$BIN" pctiles "$TMP/cut_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "gzip without its trailer exits 1" 1 $?
contains "gzip truncation named" "$TMP/err" "cut_clat_hist.1.log.gz: gzip stream truncated after"
contains "gzip truncation says what was kept" "$TMP/err" "bytes of text read are used"
same "text of a cut trailer still used" "$TMP/out" "$TMP/ref.csv"
# Cut in the middle: the lines read are used, the cut line counted.
head -c $((size / 2)) "$TMP/full.gz" >"$TMP/half_clat_hist.1.log.gz"
"$BIN" pctiles "$TMP/half_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "gzip cut in the middle exits 1" 1 $?
contains "half gzip: truncation" "$TMP/err" "gzip stream truncated after"
contains "half gzip: cut line counted" "$TMP/err" "truncated-line x1"
lacks "half gzip: no 'empty file'" "$TMP/err" "empty file"
# Trailing junk after a complete member.
{ cat "$TMP/full.gz"; printf 'junk!'; } >"$TMP/junk_clat_hist.1.log.gz"
"$BIN" pctiles "$TMP/junk_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "gzip + trailing junk exits 1" 1 $?
contains "trailing junk named" "$TMP/err" "5 bytes of data that is not gzip after the end of the gzip stream ignored"
same "text before junk used" "$TMP/out" "$TMP/ref.csv"
# A CRC mismatch: the text is used, and said to be corrupt.
{ head -c $((size - 8)) "$TMP/full.gz"; printf '\377\377\377\377'; tail -c 4 "$TMP/full.gz"; } >"$TMP/crc_clat_hist.1.log.gz"
"$BIN" pctiles "$TMP/crc_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "gzip CRC mismatch exits 1" 1 $?
contains "CRC mismatch named" "$TMP/err" "gzip member 1 fails its CRC-32 check"
lacks "CRC mismatch: no 'empty file'" "$TMP/err" "empty file"
# gzip magic and nothing valid after it: unusable, one message.
printf '\037\213\011garbage' >"$TMP/bad_clat_hist.1.log.gz"
"$BIN" pctiles "$L1" "$TMP/bad_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "invalid gzip exits 2" 2 $?
contains "invalid gzip named" "$TMP/err" "bad_clat_hist.1.log.gz: not a valid gzip stream"
lacks "invalid gzip: no 'empty file'" "$TMP/err" "empty file"
same "invalid gzip blocks no other file" "$TMP/out" "$TMP/ref.csv"
# Plain text named .gz: read, and said so.
cp "$L1" "$TMP/plain_clat_hist.1.log.gz"
"$BIN" pctiles "$TMP/plain_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "plain text named .gz exits 0" 0 $?
contains "plain text named .gz said" "$TMP/err" "named .gz but holds no gzip data"
# summary takes the same path.
"$BIN" summary "$TMP/crc_clat_hist.1.log.gz" >"$TMP/out" 2>"$TMP/err"
check "summary on a CRC mismatch exits 1" 1 $?
contains "summary names the CRC mismatch" "$TMP/err" "fails its CRC-32 check"

# '-' is standard input (plain or gzip) for pctiles, heatmap and summary.
"$BIN" pctiles - <"$L1" >"$TMP/out" 2>"$TMP/err"
check "pctiles - exits 0" 0 $?
same "pctiles - == file" "$TMP/out" "$TMP/ref.csv"
"$BIN" pctiles - <"$TMP/full.gz" >"$TMP/out" 2>"$TMP/err"
same "pctiles - (gzip) == file" "$TMP/out" "$TMP/ref.csv"
"$BIN" heatmap "$L1" >"$TMP/h1" 2>/dev/null
"$BIN" heatmap - <"$L1" >"$TMP/h2" 2>/dev/null
same "heatmap - == file" "$TMP/h1" "$TMP/h2"
"$BIN" summary - <"$L1" >"$TMP/out" 2>"$TMP/err"
check "summary - exits 0" 0 $?
contains "summary names standard input" "$TMP/out" "(stdin),,1,read,3602"
# json+ on standard input still completes the logs given as files.
"$BIN" pctiles "$FIX/local/local.json" "$L1" >"$TMP/j1" 2>/dev/null
"$BIN" pctiles - "$L1" <"$FIX/local/local.json" >"$TMP/j2" 2>/dev/null
same "json+ on stdin == as a file" "$TMP/j1" "$TMP/j2"

# Byte-order marks and damaged first lines do not change what a file is.
{ printf '\357\273\277'; cat "$FIX/local/local.json"; } >"$TMP/bom.json"
"$BIN" summary "$TMP/bom.json" >"$TMP/out" 2>"$TMP/err"
check "json+ with a BOM exits 0" 0 $?
if [ "$(grep -c ',read,\|,write,' "$TMP/out")" -eq 4 ]; then echo "ok   json+ with a BOM has its 4 rows"; else echo "FAIL json+ with a BOM rows"; cat "$TMP/out" "$TMP/err"; fails=$((fails + 1)); fi
{ printf '\357\273\277'; cat "$L1"; } >"$TMP/bom_clat_hist.1.log"
"$BIN" pctiles "$TMP/bom_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "histogram log with a BOM exits 0" 0 $?
same "BOM costs no line" "$TMP/out" "$TMP/ref.csv"
sed '1s/^/-/' "$L1" >"$TMP/minus.log"
"$BIN" pctiles "$TMP/minus.log" >"$TMP/out" 2>"$TMP/err"
check "first line '-': one line skipped, exit 1" 1 $?
contains "first line '-' counted" "$TMP/err" "minus.log: negative-value x1"
sed '1s/^[0-9]*/nan/' "$L1" >"$TMP/nan.log"
"$BIN" pctiles "$TMP/nan.log" >"$TMP/out" 2>"$TMP/err"
check "first line 'nan': one line skipped, exit 1" 1 $?
contains "first line 'nan' counted" "$TMP/err" "nan.log: not-a-number x1"

# Epoch and relative logs together: the majority's time axis, the rest named, exit 1.
"$BIN" pctiles "$FIX"/epoch/epoch_clat_hist.*.log "$L1" >"$TMP/out" 2>"$TMP/err"
check "mixed time bases exit 1" 1 $?
contains "mixed time bases: left-out file named" "$TMP/err" "left out: $L1"
contains "mixed time bases: counted" "$TMP/err" "mixed-time-bases x2"
if [ "$(wc -l <"$TMP/out")" -gt 3 ] && ! grep -q '^0,' "$TMP/out"; then echo "ok   mixed time bases: epoch rows shown"; else echo "FAIL mixed time bases rows"; fails=$((fails + 1)); fi
"$BIN" heatmap "$FIX"/epoch/epoch_clat_hist.*.log "$L1" >"$TMP/out" 2>"$TMP/err"
check "heatmap: mixed time bases exit 1" 1 $?
contains "heatmap: left-out file named" "$TMP/err" "left out: $L1"

# A count of 2^64-1 is an overflow line, never a wrapped total.
sed '2s/, 0, 0, 0,/, 18446744073709551615, 0, 0,/' "$L1" >"$TMP/ovf_clat_hist.1.log"
"$BIN" summary "$TMP/ovf_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "2^64-1 count: line skipped, exit 1" 1 $?
contains "2^64-1 count is overflow" "$TMP/err" "overflow x1"

# Names are untrusted: control bytes never reach the terminal raw, and a
# summary CSV cell never starts a formula.
evil=$(printf 'evil\033[2J\033]0;pwned\007_clat_hist.1.log')
printf '1000, 0, 4096, 1\n' >"$TMP/$evil"
"$BIN" pctiles "$TMP/$evil" >"$TMP/out" 2>"$TMP/err"
check "hostile name exits 2" 2 $?
contains "hostile name escaped" "$TMP/err" 'evil\x1b[2J\x1b]0;pwned\x07_clat_hist.1.log'
lacks "no raw ESC on stderr" "$TMP/err" "$(printf '\033')"
cp "$L1" "$TMP/=1+2_clat_hist.1.log"
(cd "$TMP" && "$BIN" summary --percentiles 50 "=1+2_clat_hist.1.log") >"$TMP/out" 2>"$TMP/err"
contains "formula cell neutralised" "$TMP/out" "'=1+2_clat_hist.1.log,,1,read,"
if grep -q '^=' "$TMP/out"; then echo "FAIL a CSV line starts with ="; fails=$((fails + 1)); else echo "ok   no CSV line starts with ="; fi

# fio per-I/O logs (docs/formats-fio-lat.md): kinds, exact percentiles, bs heat map.
FL="$FIX"/fio_lat
"$BIN" pctiles --quantum 100000 "$FL"/fl_clat.1.log "$FL"/fl_lat.1.log "$FL"/fl_slat.1.log >"$TMP/out" 2>"$TMP/err"
check "per-I/O logs of three kinds exit 0" 0 $?
contains "kinds: what was left out is said" "$TMP/err" "latency kinds lat, slat left out"
ios=$(wc -l <"$FL"/fl_clat.1.log)
contains "kinds: clat only by default" "$TMP/out" "0,all,$ios,"
"$BIN" pctiles --kind lat --method exact --quantum 100000 "$FL"/fl_clat.1.log "$FL"/fl_lat.1.log >"$TMP/out" 2>"$TMP/err"
check "--kind lat --method exact exit 0" 0 $?
lacks "--kind lat: no note" "$TMP/err" "left out"
"$BIN" pctiles --method exact --group-by account "$FL"/fl_clat.1.log "$FL"/fl_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
contains "exact with a histogram log falls back, saying so" "$TMP/err" "percentiles from bins (interp) instead"
# One account of every I/O (docs/folders.md): the same job's histogram log
# beside its per-I/O log is not added, and says why.
"$BIN" pctiles --quantum 100000 "$FL"/fl_clat.1.log "$FL"/fl_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
check "a job's two accounts: exit 0" 0 $?
contains "a job's two accounts: the histogram log not added" "$TMP/err" "fl_clat_hist.1.log: not added: counts the same I/Os of job 1"
"$BIN" pctiles --quantum 100000 "$FL"/fl_clat.1.log >"$TMP/one" 2>/dev/null
if cmp -s "$TMP/out" "$TMP/one"; then echo "ok   a job's two accounts: the per-I/O log's rows"; else echo "FAIL a job's two accounts: the per-I/O log's rows"; fails=$((fails + 1)); fi
"$BIN" pctiles --account hist --quantum 100000 "$FL"/fl_clat.1.log "$FL"/fl_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
contains "--account hist: the per-I/O log not added" "$TMP/err" "fl_clat.1.log: not added"
"$BIN" pctiles --account both "$FL"/fl_clat.1.log >"$TMP/out" 2>"$TMP/err"
check "--account both: usage error" 2 $?
# Outputs that cannot be written fail (docs/input-robustness.md "Outputs"):
# standard output on a full disk, an -o file whose folder is missing; an
# earlier -o file stays whole when the new one cannot be written.
"$BIN" pctiles "$FIX/local/local_clat.1.log" >/dev/full 2>"$TMP/err"
check "stdout on a full disk: exit 2" 2 $?
contains "stdout on a full disk: said" "$TMP/err" "cannot write standard output: No space left on device"
"$BIN" reduce -o "$TMP/no/such/dir/x.lsr" "$FIX/local/local_clat.1.log" >/dev/null 2>"$TMP/err"
check "-o into a missing folder: exit 2" 2 $?
contains "-o into a missing folder: said" "$TMP/err" "cannot write $TMP/no/such/dir/x.lsr"
"$BIN" reduce -o /dev/stdout "$FIX/local/local_clat.1.log" >"$TMP/via-stdout.lsr" 2>/dev/null
check "-o /dev/stdout: written in place" 0 $?
if [ -L /dev/stdout ] || [ -c /dev/stdout ]; then echo "ok   -o /dev/stdout left the device as it was"; else echo "FAIL -o /dev/stdout replaced the device"; fails=$((fails + 1)); fi
mkdir -p "$TMP/adir"
"$BIN" reduce -o "$TMP/adir" "$FIX/local/local_clat.1.log" >/dev/null 2>"$TMP/err"
check "-o onto a folder: exit 2" 2 $?
if ls "$TMP"/adir.tmp-* >/dev/null 2>&1; then echo "FAIL -o left its temporary file"; fails=$((fails + 1)); else echo "ok   -o leaves no temporary file"; fi
# A disk that fills while writing: a small tmpfs where the machine lets us
# mount one (root in CI); elsewhere the check is skipped, said so.
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=4k tmpfs "$TMP/small" 2>/dev/null; then
  printf 'earlier report\n' >"$TMP/small/r.html"
  "$BIN" report --template "$FIX/report/stand-in.html" -o "$TMP/small/r.html" "$FIX"/local/local_clat*.log >/dev/null 2>"$TMP/err"
  check "report -o on a full disk: exit 2" 2 $?
  if [ "$(cat "$TMP/small/r.html")" = "earlier report" ]; then echo "ok   report -o on a full disk: the earlier file kept whole"; else echo "FAIL report -o on a full disk: the earlier file changed"; fails=$((fails + 1)); fi
  umount "$TMP/small"
else
  echo "skip report -o on a full disk (no tmpfs mount here)"
fi
# summary exits as the other commands on a file named like a log that holds none.
printf 'hello world\nthis is text\n' >"$TMP/t_clat_hist.1.log"
"$BIN" summary "$TMP/t_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "summary: a log-named text file exits 2" 2 $?
contains "summary: a log-named text file named" "$TMP/err" "t_clat_hist.1.log: named like a fio histogram log but holds text; not read"
# An empty range and an offset no input has are said, never silently empty
# or ignored (docs/input-robustness.md).
"$BIN" pctiles --from 10000 --to 5000 "$FIX/local/local_clat.1.log" >"$TMP/out" 2>"$TMP/err"
check "--from after --to: usage error" 2 $?
contains "--from after --to: why" "$TMP/err" "--from must be before --to (10000 >= 5000 ms)"
"$BIN" pctiles --offset nosuchhost=5 --offset local=3 "$FIX/local/local_clat.1.log" >"$TMP/out" 2>"$TMP/err"
check "an offset no input has: exit 1" 1 $?
contains "an offset no input has: named" "$TMP/err" "--offset nosuchhost=5: no input has that host, file or job"
lacks "an offset of a host that is there: not named" "$TMP/err" "--offset local=3"
"$BIN" pctiles --offset 127.0.0.2=5 --offset job:127.0.0.1/1=3 "$FIX"/fio-s1/s1_clat.1.log.* >"$TMP/out" 2>"$TMP/err"
check "client hosts and jobs as offsets: exit 0" 0 $?
# fio 3.12's broken histogram log, used (docs/folders.md): doubtful, exit 1,
# with the version and fio's count named; the per-I/O log used: exit 0.
V312="$FIX/fio-versions/3.12"
"$BIN" pctiles --account hist "$V312"/big.json "$V312"/big_clat_hist.1.log "$V312"/big_clat.1.log >"$TMP/out" 2>"$TMP/err"
check "a broken fio-3.12 histogram log used: exit 1" 1 $?
contains "broken histogram log: the version named" "$TMP/err" "fio-3.12 wrote broken histogram logs"
contains "broken histogram log: fio's count named" "$TMP/err" "of the 41 I/Os fio counted"
"$BIN" pctiles "$V312"/big.json "$V312"/big_clat_hist.1.log "$V312"/big_clat.1.log >"$TMP/out" 2>"$TMP/err"
check "the per-I/O log used instead: exit 0" 0 $?
"$BIN" pctiles --format json "$V312"/big.json "$V312"/big_clat.1.log >"$TMP/out" 2>/dev/null
contains "pctiles JSON carries the trust rows" "$TMP/out" '"trust":[{"file":'
# fio 3.1's 4-column per-I/O log: ns, said with the evidence.
"$BIN" pctiles "$FIX/fio-versions/3.1/v.json" "$FIX/fio-versions/3.1/v_clat.1.log" >"$TMP/out" 2>"$TMP/err"
contains "fio 3.1 per-I/O log: read in ns, from its json" "$TMP/err" "values read in ns: the run's fio json output says fio-3.1"
"$BIN" pctiles "$FIX/fio-versions/3.1/v_clat.1.log" >"$TMP/out" 2>"$TMP/err"
contains "alone: the unit guessed, said as a warning" "$TMP/err" "warning: $FIX/fio-versions/3.1/v_clat.1.log: no priority column, values read in ns: no fio version known"
"$BIN" heatmap --y bs --quantum 100000 "$FL"/fl_clat.1.log >"$TMP/out" 2>"$TMP/err"
check "heatmap --y bs exit 0" 0 $?
contains "heatmap --y bs header" "$TMP/out" "time_ms,bs_lo,bs_hi,count"
"$BIN" heatmap --y offset "$FL"/fl_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
check "heatmap --y offset without a per-I/O log exits 2" 2 $?
contains "heatmap --y offset: why" "$TMP/err" "no fio per-I/O latency log"
"$BIN" pctiles "$FL"/avg_clat.1.log >"$TMP/out" 2>"$TMP/err"
check "log_avg_msec log exits 0 (window values over time)" 0 $?
contains "log_avg_msec log: no percentiles, the reason" "$TMP/err" "percentiles cannot be computed from window averages"
contains "log_avg_msec log: mean/max rows flagged avg" "$TMP/out" ",,,,,2627.512,avg"

# Late-start jobs placed from json+ (docs/placement.md): job 2 of place/
# has startdelay=2; its rows start at 2000 and stderr says so.
"$BIN" pctiles --quantum 500 --group-by job "$FIX"/place/place.json "$FIX"/place/place_clat_hist.1.log "$FIX"/place/place_clat_hist.2.log >"$TMP/out" 2>"$TMP/err"
check "placed run exits 0" 0 $?
contains "placement is said" "$TMP/err" "placed late-start jobs by their startdelay in place.json: place_clat_hist.2.log +2000 ms"
if grep -q '^1500,job=2,0,' "$TMP/out" && grep -q '^2000,job=2,[1-9]' "$TMP/out"; then echo "ok   job 2 starts at 2000"; else echo "FAIL job 2 not placed"; cat "$TMP/out"; fails=$((fails + 1)); fi
"$BIN" pctiles --quantum 500 --group-by job --offset job:2=500 "$FIX"/place/place.json "$FIX"/place/place_clat_hist.2.log >"$TMP/out" 2>"$TMP/err"
if grep -q '^0,job=2,0,' "$TMP/out" && grep -q '^500,job=2,[1-9]' "$TMP/out"; then echo "ok   --offset job:2 replaces the placement"; else echo "FAIL --offset job:2"; cat "$TMP/out"; fails=$((fails + 1)); fi

# The same on a client/server run (place-cs/, docs/placement.md): each host's
# job 2 starts at its own startdelay (place-cs-<n>.fio: 2 and 1500ms), and
# holds, repaired, as many I/Os as its per-I/O log.
PCS="$FIX/place-cs"
"$BIN" pctiles --quantum 500 --group-by host,job "$PCS"/place-cs.json "$PCS"/pcs_clat_hist.* >"$TMP/out" 2>"$TMP/err"
check "placed client/server run exits 0" 0 $?
for n in 1 2; do
  h=127.0.0.$n
  d=$(sed -n 's/^startdelay=//p' "$PCS/place-cs-$n.fio" | head -1)
  case $d in *ms) d=${d%ms} ;; *) d=$((d * 1000)) ;; esac
  contains "$h: placement is said" "$TMP/err" "pcs_clat_hist.2.log.$h +$d ms"
  first=$(awk -F, -v g="host=$h;job=2" '$2 == g && $3 > 0 { print $1; exit }' "$TMP/out")
  ios=$(awk -F, -v g="host=$h;job=2" '$2 == g { s += $3 } END { printf "%.0f", s }' "$TMP/out")
  want=$(wc -l <"$PCS/pcs_clat.2.log.$h")
  if [ "$first" = "$d" ] && [ "$ios" -eq "$want" ]; then echo "ok   $h: job 2 starts at $d with its $want I/Os"
  else echo "FAIL $h: job 2 starts at $first (want $d) with $ios I/Os (want $want)"; fails=$((fails + 1)); fi
done
"$BIN" pctiles --quantum 500 --group-by host,job --no-place "$PCS"/place-cs.json "$PCS"/pcs_clat_hist.* >"$TMP/out" 2>"$TMP/err"
if grep -q '^0,host=127.0.0.1;job=2,[1-9]' "$TMP/out"; then echo "ok   --no-place leaves it at 0"; else echo "FAIL --no-place"; cat "$TMP/out"; fails=$((fails + 1)); fi

# A quantum finer than the logs' interval (500 ms): warned, rows flagged finer.
"$BIN" pctiles --quantum 100 "$FIX"/place/place_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
check "finer quantum exits 0" 0 $?
contains "finer quantum is warned" "$TMP/err" "the quantum (100 ms) is finer than the logging interval of 50"
contains "finer rows are flagged" "$TMP/out" ";finer"
"$BIN" pctiles --quantum 500 "$FIX"/place/place_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
if grep -q finer "$TMP/out" "$TMP/err"; then echo "FAIL the logs' own interval flagged finer"; fails=$((fails + 1)); else echo "ok   no finer at the logs' interval"; fi
# A quantum longer than the run: one partial row with the data.
"$BIN" pctiles --quantum 600000 "$FIX"/place/place_clat_hist.1.log >"$TMP/out" 2>"$TMP/err"
if [ "$(wc -l <"$TMP/out")" -eq 2 ] && grep -q '^0,all,[1-9].*partial' "$TMP/out"; then echo "ok   quantum longer than the run: one partial row"; else echo "FAIL quantum longer than the run"; cat "$TMP/out"; fails=$((fails + 1)); fi

# Sampling bands and adaptive quanta (docs/uncertainty.md).
"$BIN" pctiles --bounds --percentiles 50,99.9 "$FIX"/local/local_clat_hist.*.log >"$TMP/out" 2>"$TMP/err"
check "pctiles --bounds exit 0" 0 $?
contains "--bounds columns after each percentile" "$TMP/out" "time_ms,group,samples,min,mean,p50,p50_lo,p50_hi,p99.9,p99.9_lo,p99.9_hi,max,flags"
# p99.9 of ~1,600 I/Os per second has no upper bound: p99.9_hi blank; every
# band holds its value (lo <= value <= hi; a blank hi is unbounded).
awk -F, 'NR > 1 && $6 != "" { if ($7 + 0 > $6 + 0 || ($8 != "" && $6 + 0 > $8 + 0) || $10 + 0 > $9 + 0 || $11 != "") bad = 1 } END { exit bad }' "$TMP/out"
check "bands hold their values; p99.9 of 1 s unbounded above" 0 $?
"$BIN" pctiles --adaptive --percentiles 50,99 "$FIX"/local/local_clat_hist.*.log >"$TMP/out" 2>"$TMP/err"
check "pctiles --adaptive exit 0" 0 $?
contains "--adaptive adds width_ms" "$TMP/out" "time_ms,width_ms,group,samples"
"$BIN" pctiles --adaptive 0.3 --percentiles 100 "$FIX"/local/local_clat_hist.*.log >"$TMP/out" 2>"$TMP/err"
check "--adaptive with p100 only exits 2" 2 $?
contains "--adaptive with p100 only: why" "$TMP/err" "need a percentile below 100"
"$BIN" pctiles --adaptive 0 "$FIX"/local/local_clat_hist.*.log >"$TMP/out" 2>"$TMP/err"
check "--adaptive 0 exits 2" 2 $?
# --host: local-mode logs and their json+ get the host; the json+ still
# completes the logs (same samples as without --host), and nothing is repaired.
"$BIN" pctiles --host nodeA --quantum 1000000000 --group-by host "$FIX"/local/local_clat_hist.*.log "$FIX"/local/local.json >"$TMP/out" 2>"$TMP/err"
check "pctiles --host exits 0" 0 $?
contains "--host labels the group" "$TMP/out" "0,host=nodeA,16000,"
contains "--host keeps the json+ tails" "$TMP/err" "added the last, unlogged window of 4 log series"
if grep -q repaired "$TMP/err"; then echo "FAIL --host made local logs repair candidates"; fails=$((fails + 1)); else echo "ok   --host repairs nothing"; fi

# A log named like a number stays an input; --adaptive=ACC gives the accuracy.
cp "$FIX"/local/local_clat_hist.1.log "$TMP/0.3"
(cd "$TMP" && "$BIN" pctiles --percentiles 50 --adaptive 0.3 >out 2>err)
check "--adaptive FILE-named-0.3 reads the file" 0 $?
(cd "$TMP" && "$BIN" pctiles --adaptive=0.05 --percentiles 50 0.3 >out2 2>err)
check "--adaptive=0.05 FILE exits 0" 0 $?
if cmp -s "$TMP/out" "$TMP/out2"; then echo "FAIL --adaptive (0.5) and --adaptive=0.05 gave the same rows"; fails=$((fails + 1)); else echo "ok   --adaptive=0.05 differs from the default accuracy"; fi
"$BIN" pctiles --adaptive "$FL"/avg_clat.1.log >"$TMP/out" 2>"$TMP/err"
contains "--adaptive on log_avg_msec logs says they are left out" "$TMP/err" "log_avg_msec series (window averages, not I/Os) left out"

# -j: files parsed on threads give what one thread gives: stdout, stderr
# (messages in input order) and exit code, with a damaged and an unusable file
# among good ones, standard input, json+ and .gz (docs/parallel-parse.md).
same_as_j1() {  # name command args... (files after the options)
  name=$1; shift
  cat "$FIX/local/local_clat_hist.2.log" | "$BIN" "$@" -j 1 >"$TMP/j1.out" 2>"$TMP/j1.err"; rc1=$?
  cat "$FIX/local/local_clat_hist.2.log" | "$BIN" "$@" -j 4 >"$TMP/j4.out" 2>"$TMP/j4.err"; rc4=$?
  if cmp -s "$TMP/j1.out" "$TMP/j4.out" && cmp -s "$TMP/j1.err" "$TMP/j4.err" && [ "$rc1" = "$rc4" ] &&
    [ -s "$TMP/j1.out" ] && [ -s "$TMP/j1.err" ]; then
    echo "ok   $name: -j 4 = -j 1"
  else
    echo "FAIL $name: -j 4 differs from -j 1 (exit $rc4 vs $rc1)"; diff "$TMP/j1.err" "$TMP/j4.err" | head; fails=$((fails + 1))
  fi
}
JFILES="$FIX/fio-s1/s1_clat_hist.1.log.127.0.0.1 $TMP/dmg_clat_hist.1.log - $FIX/local/local.json $FIX/fio-s1/s1_clat_hist.2.log.127.0.0.2 $TMP/junk_clat_hist.1.log $FIX/local/local_clat_hist.1.log"
gzip -c "$FIX/local/local_clat_hist.2.log" >"$TMP/gz_clat_hist.3.log.gz"
# shellcheck disable=SC2086
same_as_j1 "pctiles" pctiles --group-by file $JFILES "$TMP/gz_clat_hist.3.log.gz"
# shellcheck disable=SC2086
same_as_j1 "heatmap" heatmap $JFILES
# shellcheck disable=SC2086
same_as_j1 "pctiles --compat (stored engine)" pctiles --compat fio-histo-log-pctiles $JFILES
"$BIN" reduce -j 1 "$FIX"/local/local_clat_hist.* -o "$TMP/j1.lsr" 2>/dev/null
"$BIN" reduce -j 3 "$FIX"/local/local_clat_hist.* -o "$TMP/j3.lsr" 2>/dev/null
if cmp -s "$TMP/j1.lsr" "$TMP/j3.lsr"; then echo "ok   reduce: -j 3 = -j 1, byte for byte"; else echo "FAIL reduce -j 3 differs"; fails=$((fails + 1)); fi
"$BIN" pctiles -j 0 "$FIX/local/local_clat_hist.1.log" >"$TMP/out" 2>"$TMP/err"
check "-j 0 is a usage error" 2 $?
contains "-j 0: why" "$TMP/err" "-j needs a number of files to parse at once"

# Several resolutions (docs/result-format.md): each level is byte for byte
# the reduce at its quantum; a query reads a coarser level and prints the
# same; merge keeps the levels; bad --levels are usage errors.
S1="$FIX/fio-s1/s1_clat_hist.1.log.127.0.0.1 $FIX/fio-s1/s1_clat_hist.2.log.127.0.0.2"
# shellcheck disable=SC2086
"$BIN" reduce --levels 100,1000,6000 $S1 -o "$TMP/lv.lsr" 2>"$TMP/err"
check "reduce --levels" 0 $?
contains "reduce --levels: level sizes" "$TMP/err" "3 levels (100 ms "
at=12
for q in 100 1000 6000; do
  # shellcheck disable=SC2086
  "$BIN" reduce --quantum $q $S1 -o "$TMP/q$q.lsr" 2>/dev/null
  n=$(wc -c <"$TMP/q$q.lsr")
  if cmp -s -n "$n" -i "$at:0" "$TMP/lv.lsr" "$TMP/q$q.lsr"; then echo "ok   level $q ms = reduce --quantum $q, byte for byte"
  else echo "FAIL level $q ms differs from reduce --quantum $q"; fails=$((fails + 1)); fi
  at=$((at + n))
done
mkdir "$TMP/lv" "$TMP/q100" && cp "$TMP/lv.lsr" "$TMP/lv/r.lsr" && cp "$TMP/q100.lsr" "$TMP/q100/r.lsr"
for cmd in "pctiles --quantum 6000 --group-by host" "pctiles --quantum 2000 --format json" "heatmap --quantum 6000" "summary"; do
  # shellcheck disable=SC2086
  (cd "$TMP/lv" && "$BIN" $cmd r.lsr >"$TMP/lv.out" 2>/dev/null)
  # shellcheck disable=SC2086
  (cd "$TMP/q100" && "$BIN" $cmd r.lsr >"$TMP/q100.out" 2>/dev/null)
  if [ -s "$TMP/lv.out" ] && cmp -s "$TMP/lv.out" "$TMP/q100.out"; then echo "ok   $cmd: levels file = finest level"
  else echo "FAIL $cmd on the levels file differs from the finest level"; diff "$TMP/lv.out" "$TMP/q100.out" | head -5; fails=$((fails + 1)); fi
done
(cd "$TMP/lv" && "$BIN" export --format tsv --quantum 6000 r.lsr -o "$TMP/lv.tsv" 2>/dev/null)
(cd "$TMP/q100" && "$BIN" export --format tsv --quantum 6000 r.lsr -o "$TMP/q100.tsv" 2>/dev/null)
if [ -s "$TMP/lv.tsv" ] && cmp -s "$TMP/lv.tsv" "$TMP/q100.tsv"; then echo "ok   export --quantum 6000: levels file = finest level"
else echo "FAIL export of the levels file differs from the finest level"; fails=$((fails + 1)); fi
# shellcheck disable=SC2086
"$BIN" reduce --quantum 1000 --levels 100,1000 $S1 -o "$TMP/bad.lsr" 2>"$TMP/err"
check "--levels finer than --quantum" 2 $?
contains "--levels vs --quantum: why" "$TMP/err" "--levels starts at 100 ms, --quantum is 1000 ms"
# shellcheck disable=SC2086
"$BIN" reduce --levels 100,150 $S1 -o "$TMP/bad.lsr" 2>"$TMP/err"
check "--levels not multiples" 2 $?
contains "--levels not multiples: why" "$TMP/err" "--levels: 150 ms is no multiple of the finest level, 100 ms"
"$BIN" reduce --levels 100,x "$FIX/local/local_clat_hist.1.log" -o "$TMP/bad.lsr" 2>"$TMP/err"
check "--levels not numbers" 2 $?
"$BIN" reduce --levels 1000,3000 "$FIX"/fio-s1/s1_clat_hist.1.log.127.0.0.2 -o "$TMP/lv2.lsr" 2>/dev/null
"$BIN" merge "$TMP/lv.lsr" "$TMP/lv2.lsr" -o "$TMP/m.lsr" 2>"$TMP/err"
check "merge of several levels" 0 $?
contains "merge: where the levels came from" "$TMP/err" "the levels of $TMP/lv.lsr that are multiples of the merged 1000 ms"
contains "merge: the levels written" "$TMP/err" "2 levels (1000 ms "
"$BIN" merge --levels 1000,2000,4000 "$TMP/lv.lsr" "$TMP/lv2.lsr" -o "$TMP/m2.lsr" 2>"$TMP/err"
contains "merge --levels" "$TMP/err" "3 levels (1000 ms "
"$BIN" pctiles --quantum 6000 "$TMP/m.lsr" >"$TMP/m.out" 2>/dev/null
# shellcheck disable=SC2086
"$BIN" pctiles --quantum 6000 $S1 "$FIX"/fio-s1/s1_clat_hist.1.log.127.0.0.2 >"$TMP/logs.out" 2>/dev/null
if cmp -s "$TMP/m.out" "$TMP/logs.out"; then echo "ok   merged levels answer as the logs"
else echo "FAIL merged levels differ from the logs"; diff "$TMP/m.out" "$TMP/logs.out" | head -5; fails=$((fails + 1)); fi

# A result keeps its own quantum without --quantum (docs/result-format.md,
# "Reading a result"): a 5 s result is read at 5 s, not spread onto 1 s
# quanta (flag finer), by a query and by a reduce of it.
# shellcheck disable=SC2086
"$BIN" reduce --quantum 5000 --keep host,dir $S1 -o "$TMP/q5.lsr" 2>/dev/null
"$BIN" pctiles "$TMP/q5.lsr" >"$TMP/own.out" 2>"$TMP/err"
contains "a result's own quantum: said" "$TMP/err" "note: quantum 5000 ms, the result's own ($TMP/q5.lsr"
"$BIN" pctiles --quantum 5000 "$TMP/q5.lsr" >"$TMP/q5.out" 2>/dev/null
if cmp -s "$TMP/own.out" "$TMP/q5.out" && ! grep -q finer "$TMP/own.out"; then echo "ok   pctiles of a 5 s result: at 5 s, no finer rows"
else echo "FAIL pctiles of a 5 s result is not read at 5 s"; head -3 "$TMP/own.out"; fails=$((fails + 1)); fi
"$BIN" reduce --keep dir "$TMP/q5.lsr" -o "$TMP/q5dir.lsr" 2>/dev/null
"$BIN" reduce --quantum 5000 --keep dir "$TMP/q5.lsr" -o "$TMP/q5dir-q.lsr" 2>/dev/null
if cmp -s "$TMP/q5dir.lsr" "$TMP/q5dir-q.lsr"; then echo "ok   reduce of a 5 s result keeps 5 s, byte for byte"
else echo "FAIL reduce of a 5 s result did not keep its quantum"; fails=$((fails + 1)); fi
"$BIN" pctiles --quantum 1000 "$TMP/q5.lsr" >"$TMP/q1.out" 2>/dev/null
if grep -q finer "$TMP/q1.out"; then echo "ok   --quantum 1000 still chooses 1 s (flagged finer)"
else echo "FAIL --quantum 1000 on a 5 s result"; fails=$((fails + 1)); fi

# reduce --keep of result files alone is re-keyed and merged block by block
# (docs/result-format.md, "Reducing results"): byte for byte what the fold
# writes (any selection option, here a no-op --directions, takes the fold).
"$BIN" reduce --quantum 500 --keep host,job,dir "$FIX"/cs/*_clat_hist.* -o "$TMP/cs.lsr" 2>/dev/null
for args in "--keep dir $TMP/cs.lsr" "--keep host --quantum 2000 $TMP/cs.lsr $TMP/q5.lsr" "--keep none --levels 1000,5000 $TMP/cs.lsr"; do
  # shellcheck disable=SC2086
  "$BIN" reduce $args -o "$TMP/streamed.lsr" 2>/dev/null
  # shellcheck disable=SC2086
  "$BIN" reduce --directions r,w,t $args -o "$TMP/folded.lsr" 2>/dev/null
  if [ -s "$TMP/streamed.lsr" ] && cmp -s "$TMP/streamed.lsr" "$TMP/folded.lsr"; then echo "ok   reduce $args: streamed = folded, byte for byte"
  else echo "FAIL reduce $args: streamed differs from the fold"; fails=$((fails + 1)); fi
done

# Levels summed over hosts (docs/result-format.md, "Levels summed over
# hosts"): the merge of each host's result writes its coarser levels with the
# host label dropped, byte for byte what reduce --keep dir --quantum Q of the
# same logs writes; the levels as kept stay those of the hosts.
for h in 127.0.0.1 127.0.0.2; do
  "$BIN" reduce --quantum 500 --levels 500,1000,5000 --keep host,dir "$FIX"/cs/*_clat_hist.*."$h" -o "$TMP/sum-$h.lsr" 2>/dev/null
done
"$BIN" merge "$TMP"/sum-127.0.0.*.lsr -o "$TMP/sums.lsr" 2>/dev/null
for q in 1000 5000; do
  "$BIN" reduce --quantum "$q" --keep dir "$FIX"/cs/*_clat_hist.* -o "$TMP/cluster-$q.lsr" 2>/dev/null
  # The level of quantum q and kind 1 (summed), through the version 4 parts and the LSLEVEL2 directory.
  python3 - "$TMP/sums.lsr" "$q" >"$TMP/sum-$q.lsr" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
base, end = 0, len(b)
if b[-8:] == b'LSWITHMX':
    parts = struct.unpack('<Q', b[-16:-8])[0]
    base, n = struct.unpack('<QQ', b[parts + 8:parts + 24])
    end = base + n
at = base + struct.unpack('<Q', b[end - 16:end - 8])[0]
assert b[at:at + 8] == b'LSLEVEL2', 'no LSLEVEL2 directory'
for i in range(struct.unpack('<I', b[at + 8:at + 12])[0]):
    q, off, ln, kind = struct.unpack('<dQQI', b[at + 12 + 28 * i:at + 40 + 28 * i])
    if q == float(sys.argv[2]) and kind == 1:
        sys.stdout.buffer.write(b[base + off:base + off + ln])
PY
  if [ -s "$TMP/sum-$q.lsr" ] && cmp -s "$TMP/sum-$q.lsr" "$TMP/cluster-$q.lsr"; then echo "ok   merge of two hosts: the $q ms level summed over hosts = reduce --keep dir --quantum $q, byte for byte"
  else echo "FAIL merge of two hosts: the $q ms level summed over hosts differs from reduce --keep dir"; fails=$((fails + 1)); fi
done
"$BIN" pctiles --quantum 5000 "$TMP/sums.lsr" >"$TMP/sums.out" 2>/dev/null
"$BIN" pctiles --quantum 5000 "$TMP/cluster-5000.lsr" >"$TMP/cluster.out" 2>/dev/null
if cmp -s "$TMP/sums.out" "$TMP/cluster.out"; then echo "ok   pctiles of the merge of hosts = pctiles of the cluster-wide reduce"
else echo "FAIL pctiles of the merge of hosts differs from the cluster-wide reduce"; fails=$((fails + 1)); fi

# A folder on the command line is read as the page reads a picked folder
# (docs/folders.md, "Reading a folder"): the files below it, in byte order,
# the same bytes out as the shell's list of them.
"$BIN" pctiles "$FIX/folders/all-kinds" >"$TMP/dir.out" 2>"$TMP/dir.err"
dir_rc=$?
"$BIN" pctiles "$FIX"/folders/all-kinds/* >"$TMP/glob.out" 2>"$TMP/glob.err"
check "a folder argument exits as its files do" $? $dir_rc
if cmp -s "$TMP/dir.out" "$TMP/glob.out" && cmp -s "$TMP/dir.err" "$TMP/glob.err"; then
  echo "ok   a folder argument = its files named one by one (stdout and stderr)"
else echo "FAIL a folder argument differs from its files named one by one"; diff "$TMP/dir.err" "$TMP/glob.err"; fails=$((fails + 1)); fi
mkdir -p "$TMP/res/.git/objects" "$TMP/res/h1/deep" "$TMP/res/__MACOSX" "$TMP/res/.fio-results"
cp "$FIX/local/local_clat_hist.1.log" "$TMP/res/h1/deep/"
cp "$FIX/local/local_clat_hist.2.log" "$TMP/res/.fio-results/"
: >"$TMP/res/.DS_Store"; : >"$TMP/res/.git/objects/x"; : >"$TMP/res/h1/._local_clat_hist.1.log"; : >"$TMP/res/__MACOSX/y"
ln -s "$TMP/res" "$TMP/res/h1/loop"
"$BIN" pctiles "$TMP/res/" >"$TMP/res.out" 2>"$TMP/res.err"
check "a folder with bookkeeping files and a link loop exits 0" 0 $?
contains "a version-control folder is left out, named" "$TMP/res.err" "res/.git/: left out: version-control folder"
contains "an OS bookkeeping file is left out, named" "$TMP/res.err" "res/.DS_Store: left out: OS bookkeeping file"
contains "a macOS resource fork is left out, named" "$TMP/res.err" "res/h1/._local_clat_hist.1.log: left out: OS bookkeeping file"
contains "archive metadata is left out, named" "$TMP/res.err" "res/__MACOSX/: left out: macOS archive metadata"
contains "a link to a folder is not followed" "$TMP/res.err" "res/h1/loop: a link to a folder: not followed"
"$BIN" pctiles "$TMP/res/.fio-results/local_clat_hist.2.log" "$TMP/res/h1/deep/local_clat_hist.1.log" >"$TMP/res-files.out" 2>/dev/null
if cmp -s "$TMP/res.out" "$TMP/res-files.out"; then echo "ok   a folder's hidden and nested logs are read, in byte order of their paths"
else echo "FAIL a folder's logs differ from the same logs named"; fails=$((fails + 1)); fi
mkdir "$TMP/none"
"$BIN" pctiles "$TMP/none" >"$TMP/out" 2>"$TMP/err"
check "an empty folder alone exits 2" 2 $?
contains "an empty folder is said" "$TMP/err" "none: no files to read in this folder"

# fio's compressed logs (log_store_compressed=1, NAME.log.fz): not read, and
# the message says what to do; the text fio --inflate-log gives is read.
"$BIN" pctiles "$FIX/fz" >"$TMP/out" 2>"$TMP/err"
check "fio .log.fz files exit 2 (not read)" 2 $?
contains "a per-I/O .fz names fio --inflate-log" "$TMP/err" "fz_clat.1.log.fz: a fio log stored compressed (log_store_compressed=1): not read; 'fio --inflate-log=fz_clat.1.log.fz > fz_clat.1.log'"
contains "a histogram .fz says fio keeps no bins" "$TMP/err" "fz_clat_hist.1.log.fz: a fio histogram log stored compressed (log_store_compressed=1): not read; fio stores such a log without its histograms"
contains "the inflated log holds every I/O fio counted" "$TMP/err" "holds 1,000 of the 1,000 I/Os fio counted"

# .hlog files are read twice, their windows in time order the second time
# (docs/quanta.md, "Memory: windows read twice"): the same stdout and stderr
# as the bins held (standard input), on a longer log, with a merged window
# (read again whole) and beside a second file.
H="$FIX/hdr-processor"
awk -F, 'BEGIN{OFS=","} /^#|^"/ {print; next} {l[++m]=$0}
  END{for (c=0; c<30; c++) for (i=1; i<=m; i++) {split(l[i], f, ","); j = (f[1] ~ /^Tag=/) ? 2 : 1;
    f[j] = sprintf("%.3f", f[j] + 24*c); s = f[1]; for (x=2; x in f; x++) s = s "," f[x]; print s }}' \
  "$H/sig3-tagged.hlog" > "$TMP/long.hlog"
cp "$TMP/long.hlog" "$TMP/merged.hlog"
sed -n 9p "$H/sig3-tagged.hlog" >> "$TMP/merged.hlog"
for f in long merged; do
  for q in 1000 700; do
    (cd "$TMP" && "$BIN" pctiles --group-by tag --method hdr --quantum "$q" "$f.hlog" >twice 2>twice.err)
    a=$?
    "$BIN" pctiles --group-by tag --method hdr --quantum "$q" - <"$TMP/$f.hlog" >"$TMP/held" 2>"$TMP/held.err"
    b=$?
    check "$f.hlog at $q ms read twice exits as held" "$b" "$a"
    if cmp -s "$TMP/twice" "$TMP/held" && [ -s "$TMP/twice" ]; then echo "ok   $f.hlog at $q ms: rows read twice = rows held"; else echo "FAIL $f.hlog at $q ms: rows differ"; fails=$((fails + 1)); fi
    sed "s#(stdin)#$f.hlog#g" "$TMP/held.err" > "$TMP/held.named"
    if cmp -s "$TMP/twice.err" "$TMP/held.named"; then echo "ok   $f.hlog at $q ms: same messages"; else echo "FAIL $f.hlog at $q ms: messages differ"; diff "$TMP/twice.err" "$TMP/held.named" | head -5; fails=$((fails + 1)); fi
  done
done
# Not in time order (one tag's lines, then another's): windows wait for the
# sweep, past 4,096 of them without their bins, read again from their lines.
awk -F, 'BEGIN{OFS=","} /^#|^"/ {print; next} {l[++m]=$0}
  END{for (c=0; c<300; c++) for (i=1; i<=m; i++) {split(l[i], f, ","); j = (f[1] ~ /^Tag=/) ? 2 : 1;
    f[j] = sprintf("%.3f", f[j] + 24*c); s = f[1]; for (x=2; x in f; x++) s = s "," f[x]; print s }}' \
  "$H/sig3-tagged.hlog" > "$TMP/long300.hlog"
(grep '^[#"]' "$TMP/long300.hlog"; grep '^Tag=write' "$TMP/long300.hlog"; grep '^Tag=read' "$TMP/long300.hlog";
  grep -v '^[#"]' "$TMP/long300.hlog" | grep -v '^Tag=') > "$TMP/bytag.hlog"
"$BIN" pctiles --group-by tag --method hdr "$TMP/bytag.hlog" >"$TMP/twice" 2>/dev/null
"$BIN" pctiles --group-by tag --method hdr - <"$TMP/bytag.hlog" >"$TMP/held" 2>/dev/null
if cmp -s "$TMP/twice" "$TMP/held" && [ -s "$TMP/twice" ]; then echo "ok   a log not in time order: rows read twice = rows held"; else echo "FAIL a log not in time order: rows differ"; fails=$((fails + 1)); fi
"$BIN" pctiles --group-by tag --method hdr "$TMP/long.hlog" "$H/sig1-rel.hlog" >"$TMP/twice" 2>/dev/null
"$BIN" pctiles --group-by tag --method hdr - "$H/sig1-rel.hlog" <"$TMP/long.hlog" >"$TMP/held" 2>/dev/null
if cmp -s "$TMP/twice" "$TMP/held" && [ -s "$TMP/twice" ]; then echo "ok   two .hlog files: rows read twice = rows held"; else echo "FAIL two .hlog files: rows differ"; fails=$((fails + 1)); fi
# Mangled logs (tests/hlog_mangle.py: lines swapped, repeated, dropped, cut,
# moved; bytes, times and tags changed): read twice as read held, rows,
# messages and exit code.
if command -v python3 >/dev/null 2>&1; then
  mkdir -p "$TMP/mangled"
  awk -F, 'BEGIN{OFS=","} /^#|^"/ {print; next} {l[++m]=$0}
    END{for (c=0; c<4; c++) for (i=1; i<=m; i++) {split(l[i], f, ","); j = (f[1] ~ /^Tag=/) ? 2 : 1;
      f[j] = sprintf("%.3f", f[j] + 24*c); s = f[1]; for (x=2; x in f; x++) s = s "," f[x]; print s }}' \
    "$H/sig3-tagged.hlog" > "$TMP/four.hlog"
  python3 "$(dirname "$0")/hlog_mangle.py" "$TMP/four.hlog" 29 "$TMP/mangled" 40
  differ=0
  for f in "$TMP"/mangled/*.hlog; do
    n=$(basename "$f")
    for q in 1000 700; do
      (cd "$TMP/mangled" && "$BIN" pctiles --group-by tag --method hdr --quantum "$q" "$n" >../twice 2>../twice.err)
      a=$?
      "$BIN" pctiles --group-by tag --method hdr --quantum "$q" - <"$f" >"$TMP/held" 2>"$TMP/held.err"
      b=$?
      sed "s#(stdin)#$n#g" "$TMP/held.err" > "$TMP/held.named"
      if [ "$a" != "$b" ] || ! cmp -s "$TMP/twice" "$TMP/held" || ! cmp -s "$TMP/twice.err" "$TMP/held.named"; then
        echo "FAIL mangled $n at $q ms: read twice (exit $a) is not as held (exit $b)"
        differ=$((differ + 1))
      fi
    done
  done
  if [ "$differ" -eq 0 ]; then echo "ok   40 mangled .hlog logs at 1000 and 700 ms: read twice = held"; else fails=$((fails + differ)); fi
else
  echo "skip mangled .hlog logs: no python3"
fi

[ "$fails" -eq 0 ] || { echo "$fails CLI checks failed"; exit 1; }
echo "all CLI checks passed"
