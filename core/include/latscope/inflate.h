// zlib (RFC 1950) inflation for the readers that need it (HdrHistogram
// payloads). core/ holds no inflater of its own: the native build links the
// system zlib (core/src/codec/inflate_zlib.cc), the WebAssembly build calls
// the page's fflate synchronously (wasm/inflate_fflate.cc), and the WASM test
// build calls Node's zlib (tests/wasm/). Same bytes, same result everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace latscope {

// Inflates exactly one zlib stream of n bytes into *out. False with *err
// ("not a valid zlib stream", "inflated size over N bytes", ...) on a bad or
// truncated stream or when the output would exceed max_out bytes (a bound
// against inflation bombs); *out is then unspecified.
bool inflate_zlib(const uint8_t* in, size_t n, size_t max_out, std::vector<uint8_t>* out, std::string* err);

}  // namespace latscope
