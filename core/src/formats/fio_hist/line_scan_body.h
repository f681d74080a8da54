// The line loop shared by the SIMD kernels (line_scan.h). Included by each
// kernel's .cc inside its own anonymous namespace, after defining
// `struct Zeros { static const char* skip(const char* p, const char* e); }`:
// the loop is then compiled with that file's instruction set (AVX2 code must
// not leak into functions the linker may share with other files, hence no
// inline functions with external linkage here).
//
// Same result as the scalar kernel (line_scan.cc) on every input: the same
// fields for lines in fio's shape, false for every other line.

inline uint64_t load_word(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// "0, 0, 0," as a word: a run worth a vector skip.
constexpr uint64_t kZeroWord = uint64_t{'0'} | uint64_t{','} << 8 | uint64_t{' '} << 16 | uint64_t{'0'} << 24 |
                               uint64_t{','} << 32 | uint64_t{' '} << 40 | uint64_t{'0'} << 48 |
                               uint64_t{','} << 56;

template <class Zeros>
bool parse_line_simd(const char* p, const char* e, latscope::fio_hist::LineFields* out) {
  uint32_t col = 0, nnz = 0;
  uint32_t* bins = out->bins;
  uint64_t* counts = out->counts;
  for (;;) {
    if (col >= 3) {
      // Runs of three zeros or more to the vectors; shorter ones, and the
      // counts between them, byte by byte: on real logs most fields are
      // counts of 2 to 4 digits, whose lengths the branch predictor learns
      // (docs/benchmarks.md, "Line kernels").
      if (e - p >= 8 && load_word(p) == kZeroWord) {
        const char* q = Zeros::skip(p, e);
        col += static_cast<uint32_t>((q - p) / 3);
        p = q;
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
      if (nnz == latscope::kFio3Bins) return false;
      bins[nnz] = col - 3;
      counts[nnz] = v;
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

// "0, " triplets one at a time, for the tails the vectors do not cover.
inline const char* skip_zeros_bytewise(const char* p, const char* e) {
  while (e - p >= 3 && p[0] == '0' && p[1] == ',' && p[2] == ' ') p += 3;
  return p;
}

// p advanced by the whole triplets within the first `matched` bytes.
inline const char* whole_triplets(const char* p, unsigned matched) { return p + size_t{matched / 3} * 3; }
