// Binary (de)serialization of a parsed Source (model.h), so that Web Workers
// can parse files in parallel and hand their results to one primary Engine
// (Engine::add_source) without re-parsing any text.
//
//   worker engine: finish(h) -> Source -> encode_source() -> bytes
//   postMessage(bytes, [bytes.buffer])
//   primary engine: decode_source(bytes) -> Source -> add_source()
//
// The encoding is little-endian and starts with a magic and a version number;
// decode_source() checks every length and index against the bytes it has and
// against the layouts, so corrupt or truncated input gives an error Status,
// never a crash or an unbounded allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "latscope/model.h"
#include "latscope/status.h"

namespace latscope {

// "LSRC" followed by this version; bump it whenever the layout of the bytes
// changes (workers and the primary engine come from the same build, so old
// versions are rejected rather than migrated).
constexpr uint32_t kSourceEncodingVersion = 9;  // 3: labels, roles, ignored files; 4: per-I/O values; 5: result scale and coverage; 6: result extremes; 7: fio's figures; 8: their log prefixes and options listed, the head hash; 9: window maxima

std::vector<uint8_t> encode_source(const Source& src);

// On success *out holds the decoded Source; on error *out is left empty
// (a default Source) and the Status says at which byte offset decoding failed.
Status decode_source(const uint8_t* data, size_t n, Source* out);

}  // namespace latscope
