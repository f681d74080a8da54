// inflate.h for the WebAssembly test build: Node's zlib.inflateSync, called
// synchronously through EM_JS (the page uses fflate, wasm/inflate_fflate.cc).
// Messages match the native zlib build (core/src/codec/inflate_zlib.cc) so
// the same tests pass in both.
#include <emscripten.h>

#include "latscope/inflate.h"
#include "latscope/result.h"

// Inflates into a JS buffer kept for latscope_node_inflate_take and returns
// its size (>= 0), or -1 not a valid zlib stream, -2 truncated, -3 over the
// bound. Two steps, so the heap holds only what the stream really inflates to.
EM_JS(double, latscope_node_inflate, (const uint8_t* src_ptr, double n, double cap), {
  const zlib = require('zlib');
  const src = Buffer.from(HEAPU8.subarray(src_ptr, src_ptr + n));
  let r;
  try {
    r = zlib.inflateSync(src, {maxOutputLength: Math.max(1, cap + 1)});
  } catch (e) {
    if (e.code === 'ERR_BUFFER_TOO_LARGE') return -3;
    if (e.code === 'Z_BUF_ERROR') return -2;
    return -1;
  }
  if (r.length > cap) return -3;
  Module.latscopeInflated = r;
  return r.length;
});

EM_JS(void, latscope_node_inflate_take, (uint8_t* dst), {
  HEAPU8.set(Module.latscopeInflated, dst);
  Module.latscopeInflated = null;
});

namespace latscope {

bool inflate_zlib(const uint8_t* in, size_t n, size_t max_out, std::vector<uint8_t>* out, std::string* err) {
  const double r = latscope_node_inflate(in, static_cast<double>(n), static_cast<double>(max_out));
  if (r >= 0) {
    out->resize(static_cast<size_t>(r));
    if (r > 0) latscope_node_inflate_take(out->data());
    return true;
  }
  out->clear();
  *err = r == -3 ? "inflated size over " + std::to_string(max_out) + " bytes"
       : r == -2 ? "truncated zlib stream"
                 : "not a valid zlib stream";
  return false;
}

}  // namespace latscope

// result.h's writer for the WebAssembly test build: Node's zlib.deflateSync
// (the native build links zlib; the page only reads result files).
EM_JS(double, latscope_node_deflate, (const uint8_t* src_ptr, double n, uint8_t* out, double cap), {
  const zlib = require('zlib');
  const r = zlib.deflateSync(Buffer.from(HEAPU8.subarray(src_ptr, src_ptr + n)));
  if (r.length > cap) return -1;
  HEAPU8.set(r, out);
  return r.length;
});

namespace latscope {

bool deflate_zlib(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  // zlib's compressBound: the largest a deflate stream of n bytes can be.
  const size_t cap = n + (n >> 12) + (n >> 14) + (n >> 25) + 13;
  out->assign(cap, 0);
  const double r = latscope_node_deflate(in, static_cast<double>(n), out->data(), static_cast<double>(cap));
  if (r < 0) {
    out->clear();
    return false;
  }
  out->resize(static_cast<size_t>(r));
  return true;
}

}  // namespace latscope
