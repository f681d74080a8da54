// zlib deflate for the result writer (latscope/result.h), native builds only:
// the WebAssembly builds bring their own (the page: fflate,
// wasm/deflate_fflate.cc; the WASM tests: Node's zlib).
#include <zlib.h>

#include "codec/zlib_feed.h"
#include "latscope/result.h"

namespace latscope {

bool deflate_zlib(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  out->clear();
  z_stream z{};
  if (deflateInit(&z, 6) != Z_OK) return false;
  size_t fed = 0;
  uint8_t buf[16384];
  int rc = Z_OK;
  do {
    zlib_feed(&z, in, n, &fed);
    z.next_out = buf;
    z.avail_out = sizeof buf;
    rc = deflate(&z, fed == n && z.avail_in == 0 ? Z_FINISH : Z_NO_FLUSH);
    out->insert(out->end(), buf, buf + (sizeof buf - z.avail_out));
  } while (rc == Z_OK || rc == Z_BUF_ERROR);
  deflateEnd(&z);
  return rc == Z_STREAM_END;
}

}  // namespace latscope
