// AVX2 kernel of the fio histogram line parser (line_scan.h). This file alone
// is compiled with -mavx2 (core/CMakeLists.txt); the reader calls it only on
// CPUs that have AVX2 (line_scan.cc). Nothing here has external linkage but
// avx2_line_parser, so no AVX2 code can stand in for a shared inline function.
#include "formats/fio_hist/line_scan.h"

#if defined(__AVX2__) && !defined(__EMSCRIPTEN__)
#include <immintrin.h>

#include <cstring>

#include "latscope/layout.h"

namespace latscope::fio_hist {
namespace {

#include "formats/fio_hist/line_scan_body.h"

// "0, " repeated from a triplet's start, at the offsets 0, 32 (= 2 mod 3) and
// 64 (= 1 mod 3): 96 bytes are 32 whole triplets.
struct Zeros {
  static const char* skip(const char* p, const char* e) {
    const __m256i z0 = _mm256_setr_epi8('0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0',
                                        ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',');
    const __m256i z1 = _mm256_setr_epi8(' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ',
                                        '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0');
    const __m256i z2 = _mm256_setr_epi8(',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',',
                                        ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ');
    while (e - p >= 32) {
      const auto m0 = static_cast<uint32_t>(
          _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), z0)));
      if (m0 != 0xFFFFFFFFu) return whole_triplets(p, static_cast<unsigned>(__builtin_ctz(~m0)));
      if (e - p < 96) break;
      const auto m1 = static_cast<uint32_t>(
          _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)), z1)));
      const auto m2 = static_cast<uint32_t>(
          _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 64)), z2)));
      const uint64_t m = m1 | static_cast<uint64_t>(m2) << 32;
      if (m != ~uint64_t{0}) return whole_triplets(p, 32 + static_cast<unsigned>(__builtin_ctzll(~m)));
      p += 96;
    }
    return skip_zeros_bytewise(p, e);
  }
};

}  // namespace

LineParser avx2_line_parser() { return &parse_line_simd<Zeros>; }

}  // namespace latscope::fio_hist

#else

namespace latscope::fio_hist {
LineParser avx2_line_parser() { return nullptr; }
}  // namespace latscope::fio_hist

#endif
