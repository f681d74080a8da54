// Decoding one .hlog payload: base64 text -> compressed envelope -> zlib ->
// V0/V1/V2 integer histogram, or a DoubleHistogram wrapping one
// (docs/formats-hdr.md, "Payloads"). Every failure is a message, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/hdr/hdr_histogram.h"

namespace latscope::hdr {

// RFC 4648 base64 (standard alphabet). '=' padding is optional; a length
// of 4k+1 symbols, a symbol after padding or any other character fails with
// "truncated base64" / "invalid base64 character 'c' at column N".
bool decode_base64(std::string_view text, std::vector<uint8_t>* out, std::string* err);

// Bytes of an encoded histogram (compressed envelope, or an uncompressed
// encoding) -> *out. `encoding` gets 0, 1 or 2 (V0/V1/V2 of the integer
// histogram). max_inflated bounds the zlib output (inflation bombs).
// Messages: "bad cookie 0x...", "not a valid zlib stream", "payload length N
// exceeds the M bytes present", "count overflows 64 bits", ...
// *inflated, when given, adds the bytes inflated (also when decoding fails).
bool decode_histogram(const uint8_t* p, size_t n, size_t max_inflated, Histogram* out, int* encoding,
                      std::string* err, size_t* inflated = nullptr);

// Both steps for a payload column ("HISTFAAAAEV42pNp...").
bool decode_payload(std::string_view base64, size_t max_inflated, Histogram* out, int* encoding, std::string* err,
                    size_t* inflated = nullptr);

// The cookies (docs/formats-hdr.md). Integer cookies are compared after
// masking 0xF0 (bits 4-7 carry the V0/V1 word size); DoubleHistogram ones exactly.
constexpr uint32_t kV0Cookie = 0x1c849308, kV0Compressed = 0x1c849309;
constexpr uint32_t kV1Cookie = 0x1c849301, kV1Compressed = 0x1c849302;
constexpr uint32_t kV2Cookie = 0x1c849303, kV2Compressed = 0x1c849304;
constexpr uint32_t kDoubleCookie = 0x0c72124e, kDoubleCompressed = 0x0c72124f;

}  // namespace latscope::hdr
