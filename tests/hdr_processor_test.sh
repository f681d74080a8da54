#!/bin/sh
# `latscope hdr` against HistogramLogProcessor (Java 2.1.11, TZ=UTC), byte for
# byte: our generated fixtures (tests/fixtures/hdr-processor/cases.txt,
# always) and the shared sample logs with reference outputs
# (../shared/data/hdr/reference, skipped when absent).
# usage: hdr_processor_test.sh path/to/latscope [repo-root]
set -u
bin=$1
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
fix="$root/tests/fixtures/hdr-processor"
shared="$root/../shared/data/hdr"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

compare() {  # NAME EXPECTED ACTUAL
  if cmp -s "$2" "$3"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1: $(basename "$2") differs"
    diff "$2" "$3" | head -5
  fi
}

run_case() {  # NAME LOG EXPECTED_DIR ARGS...
  name=$1 log=$2 exp=$3
  shift 3
  case "$name" in
    *.stdout)
      # shellcheck disable=SC2068
      "$bin" hdr -i "$log" $@ > "$tmp/$name" 2> "$tmp/$name.err"
      compare "$name" "$exp/$name" "$tmp/$name" ;;
    *)
      # shellcheck disable=SC2068
      "$bin" hdr -i "$log" -o "$tmp/$name" $@ > "$tmp/$name.out" 2> "$tmp/$name.err"
      rc=$?
      if [ $rc -gt 2 ]; then fail=$((fail + 1)); echo "FAIL $name: exit status $rc"; cat "$tmp/$name.err"; fi
      compare "$name" "$exp/$name" "$tmp/$name"
      compare "$name" "$exp/$name.hgrm" "$tmp/$name.hgrm" ;;
  esac
}

grep -v '^#' "$fix/cases.txt" | while read -r name log args; do
  [ -n "$name" ] || continue
  echo "$name $fix/$log $fix/expected $args"
done > "$tmp/cases"

if [ -d "$shared/reference" ]; then
  for ref in "$shared"/reference/*.hgrm; do
    name=$(basename "$ref" .hgrm)
    base=${name%%.hlog*}
    args=""
    log=""
    for l in "$shared"/*.hlog; do
      b=$(basename "$l" .hlog)
      case "$name" in "$b") log=$l; args="" ;; "$b".*)
        [ ${#b} -gt ${#base} ] || true
        if [ -z "$log" ] || [ ${#b} -gt ${#lb} ]; then
          log=$l; lb=$b
          variant=${name#"$b".}
          case "$variant" in
            5-20) args="-start 5 -end 20" ;;
            csv) args="-csv" ;;
            co1000000) args="-correctLogWithKnownCoordinatedOmission 1000000" ;;
            *) args="-tag $variant" ;;
          esac
        fi ;;
      esac
    done
    [ -n "$log" ] || { echo "SKIP $name: no log"; continue; }
    echo "$name $log $shared/reference $args" >> "$tmp/cases"
  done
  for lt in "$shared"/reference/*.listtags.txt; do
    [ -e "$lt" ] || continue
    b=$(basename "$lt" .listtags.txt)
    mkdir -p "$tmp/lt"
    cp "$lt" "$tmp/lt/$b.listtags.stdout"
    echo "$b.listtags.stdout $shared/$b.hlog $tmp/lt -listtags" >> "$tmp/cases"
  done
else
  echo "SKIP shared sample logs: $shared/reference not found"
fi

while read -r name log exp args; do
  # shellcheck disable=SC2086
  run_case "$name" "$log" "$exp" $args
done < "$tmp/cases"
[ -n "${VERBOSE:-}" ] && cat "$tmp/cases"
echo "hdr_processor: $pass files identical, $fail differ"
[ "$fail" -eq 0 ]
