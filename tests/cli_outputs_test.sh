#!/bin/sh
# The CLI's outputs on every fixture folder, held to what they were
# (docs/ARCHITECTURE.md, "The fold"): a change to how the query folds,
# reads or formats must leave every byte of stdout, stderr and the exit
# status as it was, or regenerate the manifest on purpose and say why.
#
# Each case runs one command on one fixture folder (cwd tests/, paths
# relative) and is kept as the SHA-256 of "exit N", stdout and stderr in
# tests/golden/cli-outputs.sha256. A failing case prints its command: run
# it with the old and the new build and diff.
#
# usage: cli_outputs_test.sh path/to/latscope
#        LATSCOPE_REGENERATE=1 cli_outputs_test.sh path/to/latscope   (rewrites the manifest)
set -u
BIN=$(cd "$(dirname "${1:-build/latscope}")" && pwd)/$(basename "${1:-build/latscope}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MANIFEST="$ROOT/tests/golden/cli-outputs.sha256"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT/tests" || exit 2
export LC_ALL=C

# Every folder holding inputs directly (logs, json+ output, results), but
# not the reference outputs of other tools.
dirs=$(find fixtures -type f \( -name '*.log' -o -name '*.log.gz' -o -name '*.hlog' -o -name '*.json' \
  -o -name '*.lsr' -o -name '*.[0-9]' \) -not -path '*/expected/*' -not -path '*/reference/*' |
  sed 's|/[^/]*$||' | sort -u)

# name<TAB>command line (FOLDER stands for the folder's files, as a shell
# passes them; a folder argument reads the same files: cli_test.sh)
cases() {
  printf '%s\t%s\n' \
    pctiles 'pctiles FOLDER' \
    pctiles-host-dir-q250 'pctiles --group-by host,dir --quantum 250 FOLDER' \
    pctiles-job-hdr 'pctiles --group-by job --method hdr FOLDER' \
    pctiles-fio-bounds 'pctiles --method fio --bounds --percentiles 0,50,99.9,100 FOLDER' \
    heatmap 'heatmap FOLDER' \
    summary 'summary FOLDER' \
    reduce-pctiles 'reduce --quantum 500 FOLDER -o TMP/r.lsr && pctiles --group-by host TMP/r.lsr'
}

out="$TMP/manifest"
: > "$out"
n=0
for d in $dirs; do
  cases | while IFS="$(printf '\t')" read -r name cmd; do
    files=$(find "$d" -maxdepth 1 -type f | sort | tr '\n' ' ')
    line=$(echo "$cmd" | sed "s|FOLDER|$files|g; s|TMP|$TMP|g")
    rm -f "$TMP/r.lsr"
    # shellcheck disable=SC2086
    sh -c "$(echo "$line" | sed "s|^|'$BIN' |; s|&& |\&\& '$BIN' |")" > "$TMP/o" 2> "$TMP/e" < /dev/null
    rc=$?
    sum=$( { echo "exit $rc"; cat "$TMP/o"; sed "s|$TMP|TMP|g" "$TMP/e"; } | sha256sum | cut -d' ' -f1)
    printf '%s  %s\n' "$sum" "$(echo "$cmd" | sed "s|FOLDER|$d/*|g")" >> "$out"
  done
  n=$((n + 1))
done

if [ "${LATSCOPE_REGENERATE:-}" = 1 ]; then
  cp "$out" "$MANIFEST"
  echo "wrote $MANIFEST: $(wc -l < "$MANIFEST") cases over $n folders"
  exit 0
fi
if [ ! -s "$MANIFEST" ]; then
  echo "FAIL no manifest at $MANIFEST (LATSCOPE_REGENERATE=1 writes it)"
  exit 1
fi
fails=$(diff "$MANIFEST" "$out" | grep -c '^>')
if [ "$fails" -ne 0 ] || [ "$(wc -l < "$MANIFEST")" -ne "$(wc -l < "$out")" ]; then
  echo "FAIL outputs that changed (command run in tests/):"
  diff "$MANIFEST" "$out" | sed -n 's/^> [0-9a-f]*  /  /p'
  echo "cases kept: $(wc -l < "$MANIFEST"), run: $(wc -l < "$out")"
  exit 1
fi
echo "ok   $(wc -l < "$out") outputs over $n folders byte for byte as kept"
