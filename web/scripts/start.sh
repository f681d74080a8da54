#!/bin/sh
# `npm start`: builds whatever is missing, then serves the page and prints
# its URL. On a fresh Debian 12 it installs the system packages it needs
# (only those absent), runs `npm install` when node_modules is missing, builds the
# WebAssembly engine and the native CLI when their outputs are missing, then
# builds the page (web/scripts/build.sh) and serves web/dist.
#
#   npm start                 # http://127.0.0.1:4173/
#   PORT=8080 HOST=0.0.0.0 npm start
#   REBUILD=1 npm start       # rebuild the wasm and the page even if present
set -eu

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
PORT=${PORT:-4173}
HOST=${HOST:-127.0.0.1}

say() { printf 'latscope: %s\n' "$*" >&2; }

# --- system packages (Debian/Ubuntu), only when a tool is missing ---------
need=""
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v g++ >/dev/null 2>&1 || need="$need g++"
[ -e /usr/include/zlib.h ] || need="$need zlib1g-dev"
command -v em++ >/dev/null 2>&1 || need="$need emscripten"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
if [ -n "$need" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    say "installing:$need"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
  else
    say "please install:$need (no apt-get here)"
    exit 1
  fi
fi

# Vite 7 needs Node >= 20.19 (Debian 12's own nodejs is 18).
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' || {
  say "Node $(node -v) is too old: Vite needs Node >= 20.19 (e.g. from NodeSource); install it and re-run"
  exit 1
}

# --- npm packages ----------------------------------------------------------
if [ ! -d node_modules/vite ] || [ ! -d node_modules/d3 ]; then
  say "installing npm packages (npm install)"
  # npm install, not npm ci: this registry mirror lacks metadata for other
  # platforms' optional binaries, which npm ci insists the lock lists.
  npm install --no-audit --no-fund
fi

# --- WebAssembly engine ------------------------------------------------------
if [ -n "${REBUILD:-}" ] || [ ! -f web/public/wasm/latscope.mjs ] || [ ! -f web/public/wasm/latscope.wasm ]; then
  say "building the WebAssembly engine (web/scripts/build-wasm.sh)"
  sh web/scripts/build-wasm.sh
fi

# --- native CLI (same engine; used by the tests and from the shell) --------
if [ ! -x build/latscope ]; then
  say "building the native CLI (build/latscope)"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target latscope >/dev/null
fi

# --- the page ----------------------------------------------------------------
if [ -n "${REBUILD:-}" ] || [ ! -f web/dist/latscope.html ] || [ -n "$(find web/src web/index.html web/public -newer web/dist/latscope.html 2>/dev/null | head -n 1)" ]; then
  say "building the page (npm run build: web/dist/index.html and the single-file latscope.html)"
  sh web/scripts/build.sh
fi

URL="http://$HOST:$PORT/"
say "serving $ROOT/web/dist"
printf '\n  latscope is running at %s\n  (the demo: %s#demo; stop with Ctrl-C)\n\n' "$URL" "$URL"
exec npx --no-install vite preview --config web/vite.config.js --host "$HOST" --port "$PORT" --strictPort
