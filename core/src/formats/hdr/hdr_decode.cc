// .hlog payload decoding (docs/formats-hdr.md, "Payloads"). A V2 payload
// as jHiccup 2.0.7 writes it, base64 then bytes:
//   HISTFAAAAEV42pNp...   1c 84 93 14 | 00 00 00 45 | 78 da ... (69 zlib bytes)
// inflated: 1c 84 93 13 | payload len | norm. offset | digits | lowest (8) |
//           highest (8) | ratio (8, float64) | ZigZag LEB128 counts
#include "formats/hdr/hdr_decode.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "latscope/inflate.h"

namespace latscope::hdr {
namespace {

std::string hex32(uint32_t v) {
  static const char* kHex = "0123456789abcdef";
  std::string s = "0x";
  for (int i = 28; i >= 0; i -= 4) s += kHex[(v >> i) & 0xf];
  return s;
}

uint32_t be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
uint64_t be64(const uint8_t* p) { return (uint64_t{be32(p)} << 32) | be32(p + 4); }

// RFC 4648 symbol values, 0xff for every other byte: one load per symbol
// instead of range tests (an .hlog line is mostly its payload).
constexpr uint8_t kNotBase64 = 0xff;
constexpr std::array<uint8_t, 256> kBase64 = [] {
  std::array<uint8_t, 256> t{};
  for (uint8_t& v : t) v = kNotBase64;
  const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (uint8_t i = 0; i < 64; ++i) t[static_cast<unsigned char>(abc[i])] = i;
  return t;
}();

// Java's "sub bucket count" must keep every value below 2^63: the last
// index's highest equivalent value has to fit in int64 (hdr_histogram.h).
bool check_config(const Config& c, std::string* err) {
  if (c.digits < 0 || c.digits > 5) {
    *err = "significant digits " + std::to_string(c.digits) + " out of range 0..5";
    return false;
  }
  if (c.lowest < 1) {
    *err = "lowest discernible value " + std::to_string(c.lowest) + " < 1";
    return false;
  }
  if (c.unit_magnitude() + c.sub_bucket_half_count_magnitude() + 1 > 62) {
    *err = "lowest discernible value " + std::to_string(c.lowest) + " too large for " + std::to_string(c.digits) +
           " digits";
    return false;
  }
  return true;
}

// Number of indexes whose values all fit in int64 (indexes beyond cannot be
// recorded by any writer).
int64_t max_indexes(const Config& c) {
  const int32_t half_mag = c.sub_bucket_half_count_magnitude();
  // Bucket b holds values below subBucketCount << (b + unitMag) <= 2^63;
  // index = (b + 1) * half + (sub - half), so b_max + 2 halves of indexes.
  const int64_t b_max = 63 - (c.unit_magnitude() + half_mag + 1);
  return (b_max + 2) << half_mag;
}

class Counts {
 public:
  Counts(const Config& c, Histogram* h) : limit_(max_indexes(c)), h_(h) {}
  // Sets the next count; false with *err on overflow or an index too large.
  bool push(uint64_t count, std::string* err) {
    if (count == 0) {
      ++index_;
      return true;
    }
    if (index_ >= limit_) {
      *err = "count at index " + std::to_string(index_) + " beyond the histogram's range (" +
             std::to_string(limit_) + " indexes)";
      return false;
    }
    if (total_ + count < total_) {
      *err = "count overflows 64 bits";
      return false;
    }
    total_ += count;
    h_->push(static_cast<uint32_t>(index_), count);  // index_ < limit_ < 2^32 (hdr_histogram.h)
    ++index_;
    return true;
  }
  void skip(uint64_t zeros) { index_ = zeros > static_cast<uint64_t>(INT64_MAX - index_) ? INT64_MAX : index_ + static_cast<int64_t>(zeros); }

 private:
  int64_t index_ = 0;
  int64_t limit_;
  uint64_t total_ = 0;
  Histogram* h_;
};

// V2 counts: ZigZag LEB128 with at most 9 bytes, the 9th carrying 8 bits.
bool read_v2_counts(const uint8_t* p, size_t n, Counts* counts, std::string* err) {
  size_t i = 0;
  while (i < n) {
    if (p[i] == 0) {  // explicit zero counts (Java writes runs): skipped at once
      size_t j = i;
      while (j < n && p[j] == 0) ++j;
      counts->skip(j - i);
      i = j;
      continue;
    }
    uint64_t v = 0;
    int shift = 0;
    for (int k = 0; k < 9; ++k) {
      if (i >= n) {
        *err = "truncated varint at payload byte " + std::to_string(i);
        return false;
      }
      const uint8_t b = p[i++];
      if (k == 8) {
        v |= uint64_t{b} << 56;
        break;
      }
      v |= uint64_t{b & 0x7fu} << shift;
      shift += 7;
      if (!(b & 0x80)) {
        break;
      }
    }
    // ZigZag: even -> non-negative count, odd -> negative = run of zeros.
    if (v & 1) {
      counts->skip((v >> 1) + 1);
    } else if (!counts->push(v >> 1, err)) {
      return false;
    }
  }
  return true;
}

bool read_word_counts(const uint8_t* p, size_t n, int word, Counts* counts, std::string* err) {
  if (n % static_cast<size_t>(word)) {
    *err = "payload length " + std::to_string(n) + " is not a multiple of the word size " + std::to_string(word);
    return false;
  }
  for (size_t i = 0; i < n; i += static_cast<size_t>(word)) {
    uint64_t v = 0;
    for (int k = 0; k < word; ++k) v = (v << 8) | p[i + static_cast<size_t>(k)];
    if (word == 8 && v > static_cast<uint64_t>(INT64_MAX)) {
      *err = "negative count at payload byte " + std::to_string(i);
      return false;
    }
    if ((word == 2 && (v & 0x8000)) || (word == 4 && (v & 0x80000000u))) {  // Java reads words signed
      *err = "negative count at payload byte " + std::to_string(i);
      return false;
    }
    if (!counts->push(v, err)) return false;
  }
  return true;
}

// An uncompressed integer encoding (after inflation, or stored raw).
bool decode_plain(const uint8_t* p, size_t n, Histogram* out, int* encoding, std::string* err) {
  if (n < 4) {
    *err = "truncated histogram header (" + std::to_string(n) + " bytes)";
    return false;
  }
  const uint32_t cookie = be32(p);
  const uint32_t base = cookie & ~0xF0u;
  const int word = static_cast<int>((cookie & 0xF0u) >> 4);
  Config c;
  if (base == kV0Cookie) {
    if (n < 32) {
      *err = "truncated V0 header (" + std::to_string(n) + " of 32 bytes)";
      return false;
    }
    c.digits = static_cast<int32_t>(be32(p + 4));
    c.lowest = static_cast<int64_t>(be64(p + 8));
    c.highest = static_cast<int64_t>(be64(p + 16));
    if (!check_config(c, err)) return false;
    if (word != 2 && word != 4 && word != 8) {
      *err = "bad word size " + std::to_string(word) + " in cookie " + hex32(cookie);
      return false;
    }
    out->config = c;
    out->clear();
    *encoding = 0;
    Counts counts(c, out);
    return read_word_counts(p + 32, n - 32, word, &counts, err);
  }
  if (base != kV1Cookie && base != kV2Cookie) {
    *err = "bad cookie " + hex32(cookie);
    return false;
  }
  if (n < 40) {
    *err = "truncated histogram header (" + std::to_string(n) + " of 40 bytes)";
    return false;
  }
  const uint32_t len = be32(p + 4);
  c.digits = static_cast<int32_t>(be32(p + 12));
  c.lowest = static_cast<int64_t>(be64(p + 16));
  c.highest = static_cast<int64_t>(be64(p + 24));
  uint64_t ratio_bits = be64(p + 32);
  double ratio = 0;
  std::memcpy(&ratio, &ratio_bits, sizeof ratio);
  c.ratio = ratio;  // meaningful for DoubleHistogram only (set by the caller)
  if (!check_config(c, err)) return false;
  if (len > n - 40) {
    *err = "payload length " + std::to_string(len) + " exceeds the " + std::to_string(n - 40) + " bytes present";
    return false;
  }
  out->config = c;
  out->clear();
  Counts counts(c, out);
  if (base == kV2Cookie) {
    *encoding = 2;
    // At most one count per byte; capped, so a hostile length reserves little.
    const size_t guess = std::min<size_t>(len, 4096);
    out->index.reserve(guess);
    out->count.reserve(guess);
    return read_v2_counts(p + 40, len, &counts, err);
  }
  *encoding = 1;
  if (word != 2 && word != 4 && word != 8) {
    *err = "bad word size " + std::to_string(word) + " in cookie " + hex32(cookie);
    return false;
  }
  return read_word_counts(p + 40, len, word, &counts, err);
}

}  // namespace

bool decode_base64(std::string_view text, std::vector<uint8_t>* out, std::string* err) {
  out->resize(text.size() / 4 * 3 + 3);
  uint8_t* o = out->data();
  // Whole quads of plain symbols first, 3 bytes each; the loop below takes
  // over at the first quad with padding or a bad symbol, in the same state
  // (nothing held) it would have reached by itself.
  size_t i = 0;
  for (; i + 4 <= text.size(); i += 4) {
    const uint32_t a = kBase64[static_cast<unsigned char>(text[i])], b = kBase64[static_cast<unsigned char>(text[i + 1])],
                   c = kBase64[static_cast<unsigned char>(text[i + 2])],
                   d = kBase64[static_cast<unsigned char>(text[i + 3])];
    if ((a | b | c | d) > 63) break;
    const uint32_t q = a << 18 | b << 12 | c << 6 | d;
    *o++ = static_cast<uint8_t>(q >> 16);
    *o++ = static_cast<uint8_t>(q >> 8);
    *o++ = static_cast<uint8_t>(q);
  }
  out->resize(static_cast<size_t>(o - out->data()));
  uint32_t acc = 0;
  int have = 0;
  size_t pad = 0;
  for (; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '=') {
      ++pad;
      continue;
    }
    const uint32_t v = kBase64[static_cast<unsigned char>(ch)];
    const bool symbol = v != kNotBase64;
    if (!symbol || pad) {
      const bool printable = static_cast<unsigned char>(ch) >= 0x20 && static_cast<unsigned char>(ch) < 0x7f;
      std::string c = symbol ? "'" : "character '";
      if (printable) c += ch;
      else c += "0x" + hex32(static_cast<unsigned char>(ch)).substr(8);
      c += symbol ? "' after padding" : "'";
      *err = "invalid base64 " + c + " at payload column " + std::to_string(i + 1);
      return false;
    }
    acc = (acc << 6) | v;
    if (++have == 4) {
      out->push_back(static_cast<uint8_t>(acc >> 16));
      out->push_back(static_cast<uint8_t>(acc >> 8));
      out->push_back(static_cast<uint8_t>(acc));
      acc = 0;
      have = 0;
    }
  }
  if (have == 1 || pad > 2 || (pad && (have + pad) % 4 != 0)) {
    *err = "truncated base64";
    return false;
  }
  if (have == 2) {
    out->push_back(static_cast<uint8_t>(acc >> 4));
  } else if (have == 3) {
    out->push_back(static_cast<uint8_t>(acc >> 10));
    out->push_back(static_cast<uint8_t>(acc >> 2));
  }
  return true;
}

bool decode_histogram(const uint8_t* p, size_t n, size_t max_inflated, Histogram* out, int* encoding,
                      std::string* err, size_t* inflated_bytes) {
  if (n < 4) {
    *err = "truncated payload (" + std::to_string(n) + " bytes)";
    return false;
  }
  const uint32_t cookie = be32(p);
  if (cookie == kDoubleCookie || cookie == kDoubleCompressed) {
    // int32 digits, int64 highest-to-lowest ratio, then an integer histogram
    // (compressed envelope or plain) whose ratio slot converts its values.
    if (n < 16) {
      *err = "truncated DoubleHistogram header (" + std::to_string(n) + " of 16 bytes)";
      return false;
    }
    const uint8_t* inner = p + 16;
    const size_t rest = n - 16;
    if (rest >= 4 && (be32(inner) == kDoubleCookie || be32(inner) == kDoubleCompressed)) {
      *err = "DoubleHistogram nested in a DoubleHistogram";
      return false;
    }
    if (!decode_histogram(inner, rest, max_inflated, out, encoding, err, inflated_bytes)) return false;
    if (!(out->config.ratio > 0) || !std::isfinite(out->config.ratio)) {
      *err = "DoubleHistogram value ratio is not a positive number";
      return false;
    }
    if (*encoding == 0) {
      *err = "DoubleHistogram wraps a V0 histogram (no value ratio)";
      return false;
    }
    out->config.is_double = true;
    return true;
  }
  const uint32_t base = cookie & ~0xF0u;
  if (base == kV0Cookie || base == kV1Cookie || base == kV2Cookie) {
    return decode_plain(p, n, out, encoding, err);
  }
  if (base != kV0Compressed && base != kV1Compressed && base != kV2Compressed) {
    *err = "bad cookie " + hex32(cookie);
    return false;
  }
  if (n < 8) {
    *err = "truncated compressed header (" + std::to_string(n) + " of 8 bytes)";
    return false;
  }
  const uint32_t len = be32(p + 4);
  if (len > n - 8) {
    *err = "payload length " + std::to_string(len) + " exceeds the " + std::to_string(n - 8) + " bytes present";
    return false;
  }
  std::vector<uint8_t> inflated;
  std::string zerr;
  const bool inflated_ok = inflate_zlib(p + 8, len, max_inflated, &inflated, &zerr);
  if (inflated_bytes) *inflated_bytes += inflated.size();
  if (!inflated_ok) {
    *err = zerr;
    return false;
  }
  if (inflated.size() >= 4) {
    const uint32_t want = base == kV0Compressed ? kV0Cookie : base == kV1Compressed ? kV1Cookie : kV2Cookie;
    const uint32_t got = be32(inflated.data()) & ~0xF0u;
    if (got != want) {
      *err = "bad cookie " + hex32(be32(inflated.data())) + " inside compressed " + hex32(cookie);
      return false;
    }
  }
  return decode_plain(inflated.data(), inflated.size(), out, encoding, err);
}

bool decode_payload(std::string_view base64, size_t max_inflated, Histogram* out, int* encoding, std::string* err,
                    size_t* inflated) {
  std::vector<uint8_t> bytes;
  if (!decode_base64(base64, &bytes, err)) return false;
  if (!decode_histogram(bytes.data(), bytes.size(), max_inflated, out, encoding, err, inflated)) return false;
  if (!out->config.is_double) out->config.ratio = 1.0;
  return true;
}

}  // namespace latscope::hdr
