#!/bin/sh
# `npm run build`: the static page in web/dist/, two ways (docs/page-loading.md §6):
#   web/dist/index.html (+ assets/, wasm/, demo/)  for any static host, under any
#       path: relative URLs, the .wasm a plain file, no special headers
#   web/dist/latscope.html   one self-contained file (engine, worker, styles,
#       scripts inlined) that also works opened from file://
# Builds the WebAssembly engine first when it is missing or stale.
set -eu
cd "$(dirname "$0")/../.."
sh web/scripts/build-wasm.sh
npx --no-install vite build --config web/vite.config.js --logLevel warn
npx --no-install vite build --config web/vite.single.config.js --logLevel warn
printf 'latscope: web/dist/index.html (static host) and web/dist/latscope.html (%s bytes, single file)\n' "$(wc -c <web/dist/latscope.html)" >&2
