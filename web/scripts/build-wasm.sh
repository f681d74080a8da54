#!/bin/sh
# Builds the WebAssembly engine (wasm/ over core/) with Emscripten and places
# latscope.mjs + latscope.wasm in web/public/wasm/, where the page (and the
# Node tests, via web/src/engine/node.js) load them. Does nothing when the
# outputs are newer than every source. Gitignored output; never commit it.
#
#   sh web/scripts/build-wasm.sh          # FORCE=1 to rebuild anyway
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build="${LATSCOPE_WASM_BUILD:-$root/build-wasm}"
out="$root/web/public/wasm"

command -v emcmake >/dev/null 2>&1 || {
  echo "build-wasm.sh: emcmake not found; install Debian's emscripten (apt-get install -y emscripten)" >&2
  exit 1
}

if [ -z "${FORCE:-}" ] && [ -f "$out/latscope.mjs" ] && [ -f "$out/latscope.wasm" ] &&
  [ -z "$(find "$root/core" "$root/wasm" "$root/CMakeLists.txt" -newer "$out/latscope.wasm" \
    \( -name '*.cc' -o -name '*.h' -o -name 'CMakeLists.txt' \) 2>/dev/null | head -n 1)" ]; then
  exit 0
fi

# The optimising link step runs Emscripten's JS minifier, which needs acorn
# from Debian's node-acorn.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target latscope_wasm -j "$(nproc 2>/dev/null || echo 2)"
mkdir -p "$out"
cp "$build/wasm/latscope.mjs" "$build/wasm/latscope.wasm" "$out/"
echo "build-wasm.sh: $(wc -c <"$out/latscope.wasm") bytes -> $out/latscope.wasm" >&2
