// inflate.h through the system zlib (native builds only; the WebAssembly
// builds provide their own inflate_zlib, see core/include/latscope/inflate.h).
#include "latscope/inflate.h"

#include <zlib.h>

#include "codec/zlib_feed.h"

namespace latscope {

bool inflate_zlib(const uint8_t* in, size_t n, size_t max_out, std::vector<uint8_t>* out, std::string* err) {
  out->clear();
  z_stream z{};
  if (inflateInit(&z) != Z_OK) {
    *err = "zlib initialisation failed";
    return false;
  }
  size_t fed = 0;
  uint8_t buf[16384];
  int rc = Z_OK;
  bool ok = false;
  for (;;) {
    zlib_feed(&z, in, n, &fed);
    z.next_out = buf;
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    const size_t got = sizeof buf - z.avail_out;
    if (got > max_out - out->size()) {
      *err = "inflated size over " + std::to_string(max_out) + " bytes";
      break;
    }
    out->insert(out->end(), buf, buf + got);
    if (rc == Z_STREAM_END) {
      ok = true;
      break;
    }
    if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR) {
      *err = "not a valid zlib stream";
      break;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && fed == n) {
      *err = "truncated zlib stream";
      break;
    }
  }
  inflateEnd(&z);
  return ok;
}

}  // namespace latscope
