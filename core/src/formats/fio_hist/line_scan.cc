#include "formats/fio_hist/line_scan.h"

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

bool& fast_path_flag() {
  static bool on = true;
  return on;
}

}  // namespace

bool scan_line(const char* p, const char* e, LineFields* out) {
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

bool fast_path() { return fast_path_flag(); }

void set_fast_path(bool on) { fast_path_flag() = on; }

}  // namespace latscope::fio_hist
