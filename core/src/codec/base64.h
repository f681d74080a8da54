// Standard base64 (RFC 4648 section 4, '=' padded), as java.util.Base64
// writes it: .hlog payloads (formats/hdr/hdr_encode.cc) and the result in a
// report page (report/report_page.cc). The .hlog reader's lenient decoder
// with its per-column messages is formats/hdr/hdr_decode.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace latscope {

std::string base64_encode(const uint8_t* data, size_t n);

}  // namespace latscope
