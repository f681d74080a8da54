// zlib deflate for the result writer (latscope/result.h), native builds only:
// the WebAssembly builds bring their own (the page: fflate,
// wasm/deflate_fflate.cc; the WASM tests: Node's zlib).
#include <zlib.h>

#include "latscope/result.h"

namespace latscope {

bool deflate_zlib(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  out->clear();
  z_stream z{};
  if (deflateInit(&z, 6) != Z_OK) return false;
  const size_t kStep = size_t{1} << 30;
  size_t fed = 0;
  uint8_t buf[16384];
  int rc = Z_OK;
  do {
    if (z.avail_in == 0 && fed < n) {
      const size_t take = n - fed < kStep ? n - fed : kStep;
      z.next_in = const_cast<Bytef*>(in + fed);
      z.avail_in = static_cast<uInt>(take);
      fed += take;
    }
    z.next_out = buf;
    z.avail_out = sizeof buf;
    rc = deflate(&z, fed == n && z.avail_in == 0 ? Z_FINISH : Z_NO_FLUSH);
    out->insert(out->end(), buf, buf + (sizeof buf - z.avail_out));
  } while (rc == Z_OK || rc == Z_BUF_ERROR);
  deflateEnd(&z);
  return rc == Z_STREAM_END;
}

}  // namespace latscope
