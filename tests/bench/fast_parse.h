// The fast path for fio histogram lines suggested for FioHistReader (see
// parse_proto.cc and README.md). Bench-only code; core/ is not edited here.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace bench {

constexpr size_t kMaxBins = 1856;

struct Raw {  // as FioHistReader::Raw
  std::vector<double> t;
  std::vector<uint32_t> first, n, bins;
  std::vector<uint64_t> counts;
};

struct LineOut {
  uint64_t meta[3];
  uint32_t nnz;
  uint32_t cols;  // bin columns
  uint32_t bins[kMaxBins];
  uint64_t counts[kMaxBins];
};

inline uint64_t load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// "0, 0, 0, 0, 0, 0, 0, 0, " as three little-endian words.
inline const char kZeros[] = "0, 0, 0, 0, 0, 0, 0, 0, ";
inline const uint64_t kZ0 = load8(kZeros), kZ1 = load8(kZeros + 8), kZ2 = load8(kZeros + 16);

// One line without its '\n'. False: not fio's exact shape; use the general parser.
inline bool fast_parse(const char* p, const char* e, LineOut* o) {
  uint32_t col = 0, nnz = 0;
  for (;;) {
    if (col >= 3) {
      // Runs of zero fields, 8 then 1 at a time. Each match ends in ", " so
      // another field follows; the loop below handles the last field.
      while (e - p >= 24 && load8(p) == kZ0 && load8(p + 8) == kZ1 && load8(p + 16) == kZ2) {
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
    if (p == digits || p - digits > 19) return false;  // 20 digits may overflow: slow path
    if (col < 3) {
      o->meta[col] = v;
    } else if (v) {
      if (nnz == kMaxBins) return false;
      o->bins[nnz] = col - 3;
      o->counts[nnz] = v;
      ++nnz;
    }
    ++col;
    if (p == e) break;
    if (e - p < 3 || p[0] != ',' || p[1] != ' ') return false;  // ", " then a field
    p += 2;
  }
  o->nnz = nnz;
  o->cols = col - 3;
  return col > 3;
}

}  // namespace bench
