// inflate.h for the WebAssembly test build: Node's zlib.inflateSync, called
// synchronously through EM_JS (the page uses fflate, wasm/inflate_fflate.cc).
// Messages match the native zlib build (core/src/codec/inflate_zlib.cc) so
// the same tests pass in both.
#include <emscripten.h>

#include "latscope/inflate.h"

// Returns the inflated size (>= 0) written at out (capacity cap), or
// -1 not a valid zlib stream, -2 truncated, -3 over the bound.
EM_JS(double, latscope_node_inflate, (const uint8_t* in, double n, uint8_t* out, double cap), {
  const zlib = require('zlib');
  const src = Buffer.from(HEAPU8.subarray(in, in + n));
  let r;
  try {
    r = zlib.inflateSync(src, {maxOutputLength: Math.max(1, cap + 1)});
  } catch (e) {
    if (e.code === 'ERR_BUFFER_TOO_LARGE') return -3;
    if (e.code === 'Z_BUF_ERROR') return -2;
    return -1;
  }
  if (r.length > cap) return -3;
  HEAPU8.set(r, out);
  return r.length;
});

namespace latscope {

bool inflate_zlib(const uint8_t* in, size_t n, size_t max_out, std::vector<uint8_t>* out, std::string* err) {
  out->assign(max_out, 0);  // the bound is the caller's: allocate up to it
  const double r = latscope_node_inflate(in, static_cast<double>(n), out->data(), static_cast<double>(max_out));
  if (r >= 0) {
    out->resize(static_cast<size_t>(r));
    return true;
  }
  out->clear();
  *err = r == -3 ? "inflated size over " + std::to_string(max_out) + " bytes"
       : r == -2 ? "truncated zlib stream"
                 : "not a valid zlib stream";
  return false;
}

}  // namespace latscope
