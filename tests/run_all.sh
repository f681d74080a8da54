#!/bin/sh
# `npm test`: every test of the project, on a fresh Debian 12 machine too.
#   1. system packages that are missing (compilers, GoogleTest, zlib,
#      Emscripten, Chromium, Java, ClickHouse) and npm packages when
#      node_modules is missing
#   2. native engine + CLI: build (warnings are errors), GoogleTest via ctest
#      (includes the real-fio-data proofs, CLI checks, the examples of README.md
#      and docs/ run and compared, and the docs' links and citations),
#      clang-tidy on core/; the GoogleTest suite again under ASan+UBSan
#   3. the same GoogleTest suite compiled to WebAssembly, run under Node
#   4. the WebAssembly build used by the page, strict type checking of the
#      JS (tsc on JSDoc types, web/jsconfig.json), the JS unit tests (vitest)
#   5. hosts' long tables summed by two local ClickHouse shards (the CLI and
#      the page read the answer), then end-to-end tests in real Chromium
#      (playwright-core)
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=$(nproc 2>/dev/null || echo 2)
START=$(date +%s)
say() { printf '\n=== latscope tests: %s (at %s s) ===\n' "$*" "$(( $(date +%s) - START ))" >&2; }

need=""
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v g++ >/dev/null 2>&1 || need="$need g++"
command -v make >/dev/null 2>&1 || need="$need make"
command -v clang-tidy >/dev/null 2>&1 || need="$need clang-tidy"
[ -e /usr/include/zlib.h ] || need="$need zlib1g-dev"
[ -d /usr/src/googletest ] || need="$need libgtest-dev"
command -v em++ >/dev/null 2>&1 || need="$need emscripten"
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
# Java's HistogramLogProcessor reads what `latscope export --format hlog` writes.
command -v java >/dev/null 2>&1 || need="$need default-jre-headless"
[ -r /usr/share/java/hdrhistogram.jar ] || need="$need libhdrhistogram-java"
# Two ClickHouse shards sum hosts' long tables (tests/clickhouse/run.sh).
[ -x /usr/sbin/clickhouse-server ] || need="$need clickhouse-server"
command -v clickhouse-client >/dev/null 2>&1 || need="$need clickhouse-client"
command -v curl >/dev/null 2>&1 || need="$need curl"
# Python's http.server serves real folder listings to the #url= tests.
command -v python3 >/dev/null 2>&1 || need="$need python3"
if [ -n "$need" ]; then
  say "installing system packages:$need"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
if [ ! -d node_modules/vite ] || [ ! -d node_modules/vitest ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/typescript ] || [ ! -d node_modules/markdown-it ]; then
  say "installing npm packages (npm install)"
  # npm install, not npm ci: this registry mirror lacks metadata for other
  # platforms' optional binaries, which npm ci insists the lock lists.
  npm install --no-audit --no-fund
fi

say "native build and GoogleTest (ctest)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
cmake --build build -j"$JOBS"
ctest --test-dir build --output-on-failure -j"$JOBS"

say "ASan+UBSan: the GoogleTest suite again, sanitized (readers own their data; hostile inputs)"
# -O1 -g1 (line tables: stack traces keep file and line): GCC builds the
# sanitized suite in about a third of the time of -O2 -g (a test file: 11 s
# against 35 s), and the suite runs as fast (3m11s against 3m16s here).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DLATSCOPE_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$JOBS" --target latscope_tests
(cd tests && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ../build-asan/tests/latscope_tests --gtest_brief=1)

say "clang-tidy (bugprone-*, performance-*, warnings as errors) on core/"
find core -name '*.cc' | xargs -P "$JOBS" -n 4 clang-tidy -p build --quiet

say "GoogleTest suite compiled to WebAssembly, under Node"
sh tests/wasm/run.sh

say "WebAssembly engine for the page, strict type checking of the JS (tsc, JSDoc types), JS unit tests (vitest)"
sh web/scripts/build-wasm.sh
npx --no-install tsc -p web/jsconfig.json
npx --no-install vitest run --config web/vitest.config.js

say "cluster merge on two local ClickHouse shards, read back by the CLI and by the page (docs/cluster-merge.md)"
bash tests/clickhouse/run.sh build/latscope

say "end-to-end tests in Chromium"
node web/test/e2e/run.mjs

say "all tests passed"
