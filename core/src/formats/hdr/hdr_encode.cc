// HdrHistogram V2 payloads (hdr_encode.h). Byte layout as docs/formats-hdr.md
// ("Payloads") describes it for the reader; written big-endian like Java's
// ByteBuffer.
#include "formats/hdr/hdr_encode.h"

#include "codec/base64.h"
#include "formats/hdr/hdr_decode.h"

namespace latscope::hdr {
namespace {

void put32(std::vector<uint8_t>* o, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) o->push_back(static_cast<uint8_t>(v >> s));
}
void put64(std::vector<uint8_t>* o, uint64_t v) {
  for (int s = 56; s >= 0; s -= 8) o->push_back(static_cast<uint8_t>(v >> s));
}

// Java's ZigZagEncoding.putLong: 7 bits per byte for up to 8 bytes, then a
// 9th byte with the remaining 8 bits (no continuation bit).
void put_zigzag(std::vector<uint8_t>* o, int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  for (int i = 0; i < 8; ++i) {
    if (z < 0x80) {
      o->push_back(static_cast<uint8_t>(z));
      return;
    }
    o->push_back(static_cast<uint8_t>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  o->push_back(static_cast<uint8_t>(z));
}

}  // namespace

bool encode_payload(const Histogram& h, DeflateFn deflate, std::string* base64) {
  std::vector<uint8_t> raw;
  put32(&raw, kV2Cookie | 0x10);  // Java sets the word-size bits to 0x10 in V2
  put32(&raw, 0);                 // payload length, filled in below
  put32(&raw, 0);                 // normalizingIndexOffset
  put32(&raw, static_cast<uint32_t>(h.config.digits));
  put64(&raw, static_cast<uint64_t>(h.config.lowest));
  put64(&raw, static_cast<uint64_t>(h.config.highest));
  put64(&raw, 0x3ff0000000000000ull);  // integerToDoubleValueConversionRatio 1.0
  const size_t payload_start = raw.size();
  // Java's encodeIntoByteBuffer: counts up to the index of the max value, a
  // run of zeros as its negated length (one zero as 0); an empty histogram
  // still writes one (zero) count.
  if (h.index.empty()) put_zigzag(&raw, 0);
  uint32_t next = 0;  // the index after the last count written
  for (size_t k = 0; k < h.index.size(); ++k) {
    const int64_t zeros = int64_t{h.index[k]} - next;
    if (zeros > 0) put_zigzag(&raw, zeros > 1 ? -zeros : 0);
    put_zigzag(&raw, static_cast<int64_t>(h.count[k]));
    next = h.index[k] + 1;
  }
  const auto payload_len = static_cast<uint32_t>(raw.size() - payload_start);
  for (int k = 0; k < 4; ++k) raw[4 + k] = static_cast<uint8_t>(payload_len >> (24 - 8 * k));
  std::vector<uint8_t> z;
  if (!deflate(raw.data(), raw.size(), &z)) return false;
  std::vector<uint8_t> env;
  env.reserve(z.size() + 8);
  put32(&env, kV2Compressed | 0x10);
  put32(&env, static_cast<uint32_t>(z.size()));
  env.insert(env.end(), z.begin(), z.end());
  *base64 = base64_encode(env.data(), env.size());
  return true;
}

}  // namespace latscope::hdr
