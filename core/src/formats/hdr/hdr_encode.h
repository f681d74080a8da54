// Writing one HdrHistogram as an .hlog payload, the way Java's
// HistogramLogWriter does (docs/export-formats.md): V2 encoding (ZigZag
// LEB128 counts, zero runs as negative lengths), zlib-compressed envelope,
// base64 with padding. The inverse of hdr_decode.h, which the tests use to
// read every payload back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/hdr/hdr_histogram.h"
#include "latscope/result.h"

namespace latscope::hdr {

// h's non-zero counts (hdr_histogram.h) as Java writes its counts array up
// to the last non-zero index, zero runs between them; config
// digits/lowest/highest as given (highest must be >= 2 * lowest and cover the
// last non-zero index for Java to read it). False when deflate fails.
bool encode_payload(const Histogram& h, DeflateFn deflate, std::string* base64);

}  // namespace latscope::hdr
