#include "codec/base64.h"

namespace latscope {

std::string base64_encode(const uint8_t* data, size_t n) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  o.reserve((n + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
    o += kAlphabet[v >> 18];
    o += kAlphabet[(v >> 12) & 63];
    o += kAlphabet[(v >> 6) & 63];
    o += kAlphabet[v & 63];
  }
  if (i < n) {  // one or two bytes left: padded with '='
    const bool two = i + 1 < n;
    const uint32_t v = (uint32_t{data[i]} << 16) | (two ? uint32_t{data[i + 1]} << 8 : 0);
    o += kAlphabet[v >> 18];
    o += kAlphabet[(v >> 12) & 63];
    o += two ? kAlphabet[(v >> 6) & 63] : '=';
    o += '=';
  }
  return o;
}

}  // namespace latscope
