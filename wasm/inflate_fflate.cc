// latscope::inflate_zlib (latscope/inflate.h) for the page's WebAssembly
// build: the JS side inflates with fflate, synchronously, inside the
// streaming append (HdrHistogram payloads are a few KB each).
//
//   C++ inflate_zlib(in, n, max_out)
//     └─ EM_JS latscope_js_inflate ── copies in[0..n) out of the heap ──▶
//          Module.latscopeInflateZlib(bytes, max_out)  (web/src/engine/inflate.js,
//          installed by loadWasmModule; globalThis.latscopeInflateZlib as fallback)
//        ◀── length of the result, kept on the JS side, or an error text
//     └─ out->resize(length); EM_JS latscope_js_inflate_take copies it into out
//
// (The JS bodies use double quotes only: EM_JS passes them through the C
// preprocessor.) Nothing is handed to JS as a view of the heap: the input is copied before
// the call (the callback may allocate and grow the heap), and the result is
// copied in after out has been sized.
#include <emscripten/emscripten.h>

#include <string>

#include "latscope/inflate.h"

// Returns the inflated size (>= 0), or -1 with the error text kept for
// latscope_js_inflate_error.
EM_JS(double, latscope_js_inflate, (const uint8_t* src, double n, double max_out), {
  var f = Module["latscopeInflateZlib"] || globalThis["latscopeInflateZlib"];
  Module["latscopeInflated"] = null;
  Module["latscopeInflateError"] = "";
  if (typeof f !== "function") {
    Module["latscopeInflateError"] = "no zlib inflater installed (latscopeInflateZlib)";
    return -1;
  }
  try {
    var copy = HEAPU8.slice(src, src + n);
    var outBytes = f(copy, max_out);
    Module["latscopeInflated"] = outBytes;
    return outBytes.length;
  } catch (e) {
    Module["latscopeInflateError"] = String((e && e.message) || e);
    return -1;
  }
});

// Copies the kept result into the heap at dst (none when dst is 0) and
// drops it on the JS side.
EM_JS(void, latscope_js_inflate_take, (uint8_t* dst), {
  var r = Module["latscopeInflated"];
  Module["latscopeInflated"] = null;
  if (dst && r && r.length) HEAPU8.set(r, dst);
});

// The error text of the last failed call as UTF-8: its length, then a copy
// into dst (no malloc export needed).
EM_JS(double, latscope_js_inflate_error_len, (), {
  Module["latscopeInflateErrorBytes"] = new TextEncoder().encode(Module["latscopeInflateError"] || "inflate failed");
  return Module["latscopeInflateErrorBytes"].length;
});
EM_JS(void, latscope_js_inflate_error_take, (char* dst), {
  var b = Module["latscopeInflateErrorBytes"];
  Module["latscopeInflateErrorBytes"] = null;
  if (dst && b) HEAPU8.set(b, dst);
});

namespace latscope {

bool inflate_zlib(const uint8_t* in, size_t n, size_t max_out, std::vector<uint8_t>* out, std::string* err) {
  out->clear();
  const double got = latscope_js_inflate(in, static_cast<double>(n), static_cast<double>(max_out));
  if (got < 0) {
    err->assign(static_cast<size_t>(latscope_js_inflate_error_len()), '\0');
    latscope_js_inflate_error_take(err->empty() ? nullptr : &(*err)[0]);
    return false;
  }
  if (got > static_cast<double>(max_out)) {
    latscope_js_inflate_take(nullptr);
    *err = "inflated size over " + std::to_string(max_out) + " bytes";
    return false;
  }
  out->resize(static_cast<size_t>(got));
  latscope_js_inflate_take(out->data());
  return true;
}

}  // namespace latscope
