#!/bin/sh
# `npm run test:fast`: the quick loop beside `npm test` (tests/run_all.sh),
# for a machine that already has the tools `npm test` or `npm start`
# installed: the native build and every ctest test (GoogleTest, the CLI
# scripts, the docs' examples and links, the fuzz replays), then the
# WebAssembly engine (rebuilt only when core/ or wasm/ changed) and the JS
# unit tests (vitest). Leaves out the sanitizer build, clang-tidy, the
# WebAssembly GoogleTest suite, type checking, ClickHouse and Chromium.
set -eu
cd "$(dirname "$0")/.."
JOBS=$(nproc 2>/dev/null || echo 2)
say() { printf '\n=== latscope fast tests: %s ===\n' "$*" >&2; }

say "native build and ctest"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$JOBS"
ctest --test-dir build --output-on-failure -j"$JOBS"

say "WebAssembly engine (when core/ or wasm/ changed) and the JS unit tests (vitest)"
sh web/scripts/build-wasm.sh
npx --no-install vitest run --config web/vitest.config.js

say "fast tests passed (npm test runs everything)"
