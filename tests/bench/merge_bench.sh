#!/usr/bin/env bash
# `latscope merge` as hosts grow (docs/benchmarks.md, "Merge as hosts grow"):
# the many-hosts set (make_hosts_data.py: real-shaped fio histogram logs, 1 s
# windows, one log per host), each host reduced alone (`--keep host,dir`, as
# on the hosts), then the first N hosts' results merged, for each N in
# COUNTS. Prints per N: the hosts' own reduce (CPU-s, summed), the merge's
# wall and CPU time and peak RSS, `pctiles --group-by host` of the same
# hosts' logs for comparison, and with OLD=path/to/latscope the same merge
# by another build (e.g. one that decodes whole results).
#
# usage: tests/bench/merge_bench.sh [build/latscope]
# Environment: COUNTS ("10 40 160"), SECONDS_RUN (3600), QUANTUM (1000),
# KEEP (host,dir: each host's series kept apart; dir: hosts added up),
# MATRIX (the hosts' reduce --matrix: unset, its default, the per-host
# matrix whenever KEEP names host; none: histograms only), DATA (bench-data),
# OLD. Prints figures; checks only that pctiles of the
# merge equal pctiles of the logs (by host and for all, at the quantum and
# at 10x) and, with OLD, that both builds write the same bytes or, when
# the result format differs, that their merges answer the same.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$ROOT/build/latscope}
COUNTS=${COUNTS:-10 40 160}
SECS=${SECONDS_RUN:-3600}
Q=${QUANTUM:-1000}
KEEP=${KEEP:-host,dir}
DATA=${DATA:-$ROOT/bench-data}
max=0
for n in $COUNTS; do [ "$n" -gt "$max" ] && max=$n; done
SET=$(python3 "$ROOT/tests/bench/make_hosts_data.py" --out "$DATA" --hosts "$max" --seconds "$SECS")
W=$DATA/merge-bench-q$Q-${KEEP/,/-}${MATRIX:+-matrix-$MATRIX}
mkdir -p "$W/results"
cpu() { awk '{ printf "%.2f", $2 + $3 }' "$1"; }
echo "# merge as hosts grow: $SET, quantum $Q ms, --keep $KEEP${MATRIX:+, --matrix $MATRIX}, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
red_cpu=0
i=0
for log in "$SET"/hosts_clat_hist.1.log.h*; do
  h=${log##*.}
  i=$((i + 1))
  if [ ! -s "$W/results/$h.lsr" ]; then
    /usr/bin/time -f '%e %U %S %M' -o "$W/reduce.time" "$BIN" reduce -j 1 --quantum "$Q" --keep "$KEEP" ${MATRIX:+--matrix "$MATRIX"} "$log" \
      -o "$W/results/$h.lsr" 2>/dev/null
    echo "$h $(cpu "$W/reduce.time")" >>"$W/reduce-cpu.txt"
  fi
done
echo "N | logs MB | hosts' reduce CPU-s (sum) | results MB | merge wall s | merge CPU-s | merge peak MB | pctiles --group-by host of the logs: wall s, CPU-s, peak MB${OLD:+ | $OLD merge: wall s, CPU-s, peak MB}"
for n in $COUNTS; do
  mapfile -t logs < <(ls "$SET"/hosts_clat_hist.1.log.h* | head -n "$n")
  mapfile -t res < <(ls "$W"/results/*.lsr | head -n "$n")
  log_mb=$(du -cb "${logs[@]}" | awk 'END { printf "%.1f", $1 / 1e6 }')
  res_mb=$(du -cb "${res[@]}" | awk 'END { printf "%.1f", $1 / 1e6 }')
  rcpu=$(head -n "$n" "$W/reduce-cpu.txt" | awk '{ s += $2 } END { printf "%.2f", s }')
  /usr/bin/time -f '%e %U %S %M' -o "$W/merge.time" "$BIN" merge "${res[@]}" -o "$W/merged.lsr" 2>/dev/null
  read -r mw mu ms mk <"$W/merge.time"
  /usr/bin/time -f '%e %U %S %M' -o "$W/pct.time" "$BIN" pctiles -j 1 --quantum "$Q" --group-by host "${logs[@]}" >/dev/null 2>&1
  read -r pw pu ps pk <"$W/pct.time"
  # Exactness on the simulated cluster: the merge answers as the logs do, per
  # host and cluster-wide, at the quantum and at a multiple of it.
  for g in host all; do
    for mq in "$Q" $((Q * 10)); do
      "$BIN" pctiles --quantum "$mq" --group-by "$g" "$W/merged.lsr" >"$W/from-merge.csv" 2>/dev/null
      "$BIN" pctiles -j 1 --quantum "$mq" --group-by "$g" "${logs[@]}" >"$W/from-logs.csv" 2>/dev/null
      [ "$KEEP" != dir ] || [ "$g" = all ] || continue
      cmp -s "$W/from-merge.csv" "$W/from-logs.csv" || { echo "N=$n: pctiles --group-by $g --quantum $mq of the merge differs from the logs'"; exit 1; }
    done
  done
  line="$n | $log_mb | $rcpu | $res_mb | $mw | $(awk -v a="$mu" -v b="$ms" 'BEGIN { printf "%.2f", a + b }') | $((mk / 1024)) | $pw, $(awk -v a="$pu" -v b="$ps" 'BEGIN { printf "%.2f", a + b }'), $((pk / 1024))"
  if [ -n "${OLD:-}" ]; then
    /usr/bin/time -f '%e %U %S %M' -o "$W/old.time" "$OLD" merge "${res[@]}" -o "$W/merged-old.lsr" 2>/dev/null
    read -r ow ou os ok <"$W/old.time"
    # The same bytes, or (a build of another result format) the same answers.
    if ! cmp -s "$W/merged.lsr" "$W/merged-old.lsr"; then
      "$BIN" pctiles --group-by host "$W/merged-old.lsr" >"$W/from-old.csv" 2>/dev/null
      "$BIN" pctiles --group-by host "$W/merged.lsr" >"$W/from-merge.csv" 2>/dev/null
      cmp -s "$W/from-merge.csv" "$W/from-old.csv" || { echo "the two builds' merges answer differently at N=$n"; exit 1; }
    fi
    line="$line | $ow, $(awk -v a="$ou" -v b="$os" 'BEGIN { printf "%.2f", a + b }'), $((ok / 1024))"
  fi
  echo "$line"
done
