// latscope::deflate_zlib (latscope/result.h) for the page's WebAssembly
// build: the result writer's zlib streams come from fflate's zlibSync, so
// the page can write a result file ("Copy link with data", docs/embedding.md
// §3) without linking zlib. Mirrors wasm/inflate_fflate.cc:
//
//   C++ deflate_zlib(in, n, out)
//     └─ EM_JS latscope_js_deflate ── copies in[0..n) out of the heap ──▶
//          Module.latscopeDeflateZlib(bytes)  (web/src/engine/inflate.js,
//          installed by loadWasmModule; globalThis.latscopeDeflateZlib as fallback)
//        ◀── length of the result, kept on the JS side (-1: no deflater / it threw)
//     └─ out->resize(length); EM_JS latscope_js_deflate_take copies it into out
//
// Nothing is handed to JS as a heap view: the input is copied before the
// call (the callback allocates and may grow the heap), the result is copied
// in after out has been sized.
#include <emscripten/emscripten.h>

#include <vector>

#include "latscope/result.h"

EM_JS(double, latscope_js_deflate, (const uint8_t* src, double n), {
  var f = Module["latscopeDeflateZlib"] || globalThis["latscopeDeflateZlib"];
  Module["latscopeDeflated"] = null;
  if (typeof f !== "function") return -1;
  try {
    var r = f(HEAPU8.slice(src, src + n));
    Module["latscopeDeflated"] = r;
    return r.length;
  } catch (e) {
    return -1;
  }
});

EM_JS(void, latscope_js_deflate_take, (uint8_t* dst), {
  var r = Module["latscopeDeflated"];
  Module["latscopeDeflated"] = null;
  if (dst && r && r.length) HEAPU8.set(r, dst);
});

namespace latscope {

bool deflate_zlib(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  out->clear();
  const double got = latscope_js_deflate(in, static_cast<double>(n));
  if (got < 0) return false;
  out->resize(static_cast<size_t>(got));
  latscope_js_deflate_take(out->data());
  return true;
}

}  // namespace latscope
