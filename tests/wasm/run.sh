#!/bin/sh
# Builds the core GoogleTest suite with Emscripten and runs it under Node:
# the same tests/*_test.cc cases as the native build, against the WASM engine.
#   tests/wasm/run.sh [gtest args, e.g. --gtest_filter=ModelIo.*]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build="${LATSCOPE_WASM_TESTS_BUILD:-$root/build-wasm-tests}"
# The optimising link step runs Emscripten's JS minifier, which needs acorn.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root/tests/wasm" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
# The glue is CommonJS; the repository's package.json says "type": "module".
echo '{"type": "commonjs"}' >"$build/package.json"
cd "$root/tests"
exec node "$build/latscope_tests.js" "$@"
