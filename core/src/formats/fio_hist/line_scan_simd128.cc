// WebAssembly simd128 kernel of the fio histogram line parser (line_scan.h).
// This file alone is compiled with -msimd128 (core/CMakeLists.txt); every
// engine the page supports runs simd128 (it cannot be detected at run time
// from inside a module: one that uses it fails to load where it is missing).
#include "formats/fio_hist/line_scan.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <cstring>

#include "latscope/layout.h"

namespace latscope::fio_hist {
namespace {

#include "formats/fio_hist/line_scan_body.h"

// As the SSE2 kernel: "0, " from a triplet's start at offsets 0, 16, 32.
struct Zeros {
  static const char* skip(const char* p, const char* e) {
    const v128_t z0 = wasm_i8x16_make('0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0');
    const v128_t z1 = wasm_i8x16_make(',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',');
    const v128_t z2 = wasm_i8x16_make(' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',', ' ');
    while (e - p >= 16) {
      const auto m0 = static_cast<unsigned>(wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p), z0)));
      if (m0 != 0xFFFFu) return whole_triplets(p, static_cast<unsigned>(__builtin_ctz(~m0)));
      if (e - p < 48) break;
      const auto m1 = static_cast<unsigned>(wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p + 16), z1)));
      const auto m2 = static_cast<unsigned>(wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p + 32), z2)));
      const unsigned m = m1 | m2 << 16;
      if (m != 0xFFFFFFFFu) return whole_triplets(p, 16 + static_cast<unsigned>(__builtin_ctz(~m)));
      p += 48;
    }
    return skip_zeros_bytewise(p, e);
  }
};

}  // namespace

LineParser simd128_line_parser() { return &parse_line_simd<Zeros>; }

}  // namespace latscope::fio_hist

#else

namespace latscope::fio_hist {
LineParser simd128_line_parser() { return nullptr; }
}  // namespace latscope::fio_hist

#endif
