// SSE2 kernel of the fio histogram line parser (line_scan.h): x86-64's
// baseline, so it needs no compiler flag.
#include "formats/fio_hist/line_scan.h"

#if defined(__SSE2__) && !defined(__EMSCRIPTEN__)
#include <emmintrin.h>

#include <cstring>

#include "latscope/layout.h"

namespace latscope::fio_hist {
namespace {

#include "formats/fio_hist/line_scan_body.h"

// "0, " repeated from a triplet's start, at the three offsets 0, 16 and 32
// (16 = 1 mod 3): 48 bytes are 16 whole triplets.
struct Zeros {
  static const char* skip(const char* p, const char* e) {
    const __m128i z0 = _mm_setr_epi8('0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0');
    const __m128i z1 = _mm_setr_epi8(',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',');
    const __m128i z2 = _mm_setr_epi8(' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ');
    while (e - p >= 16) {
      // The first vector alone: most runs between counts are short.
      const unsigned m0 = static_cast<unsigned>(
          _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), z0)));
      if (m0 != 0xFFFFu) return whole_triplets(p, static_cast<unsigned>(__builtin_ctz(~m0)));
      if (e - p < 48) break;
      const unsigned m1 = static_cast<unsigned>(
          _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)), z1)));
      const unsigned m2 = static_cast<unsigned>(
          _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32)), z2)));
      const unsigned m = m1 | m2 << 16;
      if (m != 0xFFFFFFFFu) return whole_triplets(p, 16 + static_cast<unsigned>(__builtin_ctz(~m)));
      p += 48;
    }
    return skip_zeros_bytewise(p, e);
  }
};

}  // namespace

LineParser sse2_line_parser() { return &parse_line_simd<Zeros>; }

}  // namespace latscope::fio_hist

#else

namespace latscope::fio_hist {
LineParser sse2_line_parser() { return nullptr; }
}  // namespace latscope::fio_hist

#endif
