#!/bin/sh
# Coverage-guided fuzzing of the engine with libFuzzer (clang-14 from the
# emscripten package; needs libclang-rt-14-dev), ASan+UBSan, seeded from the
# fixtures. Not part of `npm test` (it runs until told to stop).
#   tests/fuzz/run_fuzzer.sh [seconds]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/build-fuzz"
mkdir -p "$out/corpus"
for f in "$root"/tests/fixtures/*/*_clat_hist*.log* "$root"/tests/fixtures/*/*.json; do
  case "$f" in *.gz) continue ;; esac
  head -c 20000 "$f" >"$out/corpus/$(basename "$f")"
done
clang++-14 -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -I"$root/core/include" -I"$root/core/src" \
  "$root/tests/fuzz/fuzz_engine.cc" $(find "$root/core/src" -name '*.cc') -lz -o "$out/fuzz_engine"
"$out/fuzz_engine" -max_total_time="${1:-120}" -max_len=65536 -timeout=10 -rss_limit_mb=2048 "$out/corpus"
