#include "formats/fio_hist/line_scan.h"

#include <cstdlib>
#include <cstring>

#include "latscope/layout.h"

namespace latscope::fio_hist {
namespace {

inline uint64_t load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
// Eight zero columns exactly as fio writes them, as three 8-byte words.
constexpr char kZeros[] = "0, 0, 0, 0, 0, 0, 0, 0, ";

// The portable kernel, and the reference the others are tested against.
bool parse_line_scalar(const char* p, const char* e, LineFields* out) {
  static const uint64_t z0 = load8(kZeros), z1 = load8(kZeros + 8), z2 = load8(kZeros + 16);
  uint32_t col = 0, nnz = 0;
  for (;;) {
    if (col >= 3) {
      while (e - p >= 24 && load8(p) == z0 && load8(p + 8) == z1 && load8(p + 16) == z2) {
        p += 24;
        col += 8;
      }
      while (e - p >= 3 && p[0] == '0' && p[1] == ',' && p[2] == ' ') {
        p += 3;
        ++col;
      }
    }
    const char* digits = p;
    uint64_t v = 0;
    while (p < e && static_cast<unsigned>(*p - '0') < 10u) {
      v = v * 10 + static_cast<uint64_t>(*p - '0');
      ++p;
    }
    if (p == digits || p - digits > 19) return false;  // 20 digits may overflow
    if (col < 3) {
      out->meta[col] = v;
    } else if (v) {
      if (nnz == kFio3Bins) return false;
      out->bins[nnz] = col - 3;
      out->counts[nnz] = v;
      ++nnz;
    }
    ++col;
    if (p == e) break;
    if (e - p < 3 || p[0] != ',' || p[1] != ' ') return false;
    p += 2;
  }
  out->nnz = nnz;
  out->cols = col >= 3 ? col - 3 : 0;
  return col > 3;
}

bool cpu_has(LineKernel k) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  if (k == LineKernel::kSse2) return __builtin_cpu_supports("sse2");
  if (k == LineKernel::kAvx2) return __builtin_cpu_supports("avx2");
#endif
  return k == LineKernel::kScalar || k == LineKernel::kSimd128;  // simd128: the build decides
}

LineKernel best_kernel() {
  if (const char* want = std::getenv("LATSCOPE_FIO_HIST_KERNEL"))
    for (LineKernel k : kAllLineKernels)
      if (std::strcmp(want, kernel_name(k)) == 0 && kernel_parser(k)) return k;
  for (LineKernel k : {LineKernel::kAvx2, LineKernel::kSse2, LineKernel::kSimd128})
    if (kernel_parser(k)) return k;
  return LineKernel::kScalar;
}

LineKernel& current() {
  static LineKernel k = best_kernel();
  return k;
}

}  // namespace

const char* kernel_name(LineKernel k) {
  switch (k) {
    case LineKernel::kScalar: return "scalar";
    case LineKernel::kSse2: return "sse2";
    case LineKernel::kAvx2: return "avx2";
    case LineKernel::kSimd128: return "simd128";
  }
  return "?";
}

LineParser kernel_parser(LineKernel k) {
  if (!cpu_has(k)) return nullptr;
  switch (k) {
    case LineKernel::kScalar: return &parse_line_scalar;
    case LineKernel::kSse2: return sse2_line_parser();
    case LineKernel::kAvx2: return avx2_line_parser();
    case LineKernel::kSimd128: return simd128_line_parser();
  }
  return nullptr;
}

LineKernel line_kernel() { return current(); }

LineParser line_parser() { return kernel_parser(current()); }

bool set_line_kernel(LineKernel k) {
  if (!kernel_parser(k)) return false;
  current() = k;
  return true;
}

}  // namespace latscope::fio_hist
